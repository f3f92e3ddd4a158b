"""Lesson rag-04 in the browser: warm checks of its three checkpoints, and both search routes.

Builds rag-04 alone (`build.py --only rag-04`), serves it with the isolation headers and drives
headless Debian Chromium. Medians, each beside a baseline measured in the same run:

- warm check: "Controleer" click to verdict for each checkpoint with the reference solution in the
  editor, all of its shipped tests (goal: under 300 ms), beside the same `runner.core.web.check`
  in this CPython process;
- routes: the keyword route (BM25 over the lesson's 12 chunks) and the semantic route (cosine over
  the shipped 256-dimension vectors) for each of the lesson's questions, timed inside the page's
  Pyodide (goal: under 100 ms per query, warm), beside the same code in this CPython process;
- the merge viewer's whole redraw for a new question (both routes, the reference's merge_routes,
  hybrid_context and the cap's passes: four worker calls), question change to drawn.

Usage: python bench/rag04_hybrid.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser_checkpoints import CHECK_AND_TIME, CHROMIUM_ARGS, LOAD_TIMEOUT_MS  # noqa: E402
from builder.serve import start_server  # noqa: E402
from runner.core import web  # noqa: E402

LESSON_DIR = ROOT / "checkpoints" / "rag-04"
WIDGET_DIR = ROOT / "widgets" / "hybrid-merge"
CHECKPOINT_IDS = ("merge_routes", "cap_per_document", "hybrid_context")
CHECK_GOAL_MS = 300.0
ROUTE_GOAL_MS = 100.0

# Runs in the page's Python (the editor's Run) and in CPython: per question, the median time of
# each route over `runs` calls, printed as one JSON line.
ROUTE_TIMER = """
import json, statistics, time
def _median_ms(call, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)
CHUNKS, CHUNK_VECTORS = CORPUS["chunks"], CORPUS["chunk_vectors"]
_figures = {}
for _question in CORPUS["questions"]:
    _figures[_question["key"]] = {
        "keyword": _median_ms(lambda: ranked(bm25_scores(_question["text"], CHUNKS), 6), RUNS),
        "semantic": _median_ms(lambda: ranked(semantic_scores(_question["vector"], CHUNK_VECTORS), 6), RUNS),
    }
print("ROUTES " + json.dumps(_figures))
"""


def route_source(runs: int) -> str:
    # The editor's code runs as one text: the data of corpus.json as a literal, then routes.py.
    corpus = json.loads((WIDGET_DIR / "corpus.json").read_text(encoding="utf-8"))
    return "\n".join([f"CORPUS = {corpus!r}", (WIDGET_DIR / "routes.py").read_text(encoding="utf-8"),
                      f"RUNS = {runs}", ROUTE_TIMER])


def cpython_routes(runs: int) -> dict:
    namespace: dict = {}
    printed = []
    namespace["print"] = printed.append
    exec(compile(route_source(runs), "routes", "exec"), namespace)
    return json.loads(printed[-1].removeprefix("ROUTES "))


def cpython_checks(solution: str, runs: int) -> dict[str, float]:
    web.check(solution, str(LESSON_DIR), [CHECKPOINT_IDS[0]])
    times: dict[str, list[float]] = {checkpoint_id: [] for checkpoint_id in CHECKPOINT_IDS}
    for _ in range(runs):
        for checkpoint_id in CHECKPOINT_IDS:
            started = time.perf_counter()
            web.check(solution, str(LESSON_DIR), [checkpoint_id])
            times[checkpoint_id].append((time.perf_counter() - started) * 1000)
    return {key: statistics.median(values) for key, values in times.items()}


def browser_figures(url: str, solution: str, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{url}rag-04/")
            page.locator("[data-merge-viewer][data-state=ready]").wait_for(timeout=LOAD_TIMEOUT_MS)
            page.evaluate("code => window.werkplaats.editor.setCode(code)", solution)
            page.evaluate(CHECK_AND_TIME, CHECKPOINT_IDS[0])
            checks: dict[str, list[float]] = {checkpoint_id: [] for checkpoint_id in CHECKPOINT_IDS}
            for _ in range(runs):
                for checkpoint_id in CHECKPOINT_IDS:
                    result = page.evaluate(CHECK_AND_TIME, checkpoint_id)
                    if result["status"] != "pass":
                        raise SystemExit(f"{checkpoint_id}: the reference got {result['status']} in the browser")
                    checks[checkpoint_id].append(result["settled"] - result["clicked"])
            redraws = []
            questions = ["huur", "avg", "werkgever", "bw", "ecli"]
            for index in range(runs):
                started = page.evaluate("() => performance.now()")
                page.get_by_test_id("hm-question").select_option(questions[index % len(questions)])
                page.locator("[data-merge-viewer][data-state=ready]").wait_for(timeout=LOAD_TIMEOUT_MS)
                redraws.append(page.evaluate("() => performance.now()") - started)
            page.evaluate("code => window.werkplaats.editor.setCode(code)", route_source(runs * 5))
            page.get_by_test_id("run").click()
            page.locator("[data-testid=output]", has_text="ROUTES ").wait_for(timeout=LOAD_TIMEOUT_MS)
            page.locator("[data-testid=run]:not([disabled])").wait_for(timeout=LOAD_TIMEOUT_MS)
            line = next(text for text in page.get_by_test_id("output").inner_text().splitlines() if text.startswith("ROUTES "))
            return {"checks": {key: statistics.median(values) for key, values in checks.items()},
                    "redraw": statistics.median(redraws), "routes": json.loads(line.removeprefix("ROUTES "))}
        finally:
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    solution = (LESSON_DIR / "solution.py").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "_site"
        completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--only", "rag-04", "--out", str(out)],
                                   cwd=ROOT, capture_output=True, text=True)
        if completed.returncode != 0:
            raise SystemExit(f"build failed: {completed.stderr}")
        server = start_server(out, isolated=True)
        try:
            page = browser_figures(server.url, solution, args.runs)
        finally:
            server.close()
    baseline_checks = cpython_checks(solution, args.runs)
    baseline_routes = cpython_routes(args.runs * 5)
    print("rag-04 warm checks (median)")
    print(f"{'checkpoint':18} {'browser':>9} {'CPython':>9} {'ratio':>6}  goal")
    for checkpoint_id in CHECKPOINT_IDS:
        browser_ms, cpython_ms = page["checks"][checkpoint_id], baseline_checks[checkpoint_id]
        verdict = "met" if browser_ms < CHECK_GOAL_MS else "NOT met"
        print(f"{checkpoint_id:18} {browser_ms:7.1f}ms {cpython_ms:7.1f}ms {browser_ms / cpython_ms:6.1f}  < {CHECK_GOAL_MS:.0f} ms: {verdict}")
    print("\nrag-04 routes per query, warm (median)")
    print(f"{'question':10} {'route':9} {'Pyodide':>9} {'CPython':>9} {'ratio':>6}  goal")
    for key, figures in page["routes"].items():
        for route in ("keyword", "semantic"):
            browser_ms, cpython_ms = figures[route], baseline_routes[key][route]
            verdict = "met" if browser_ms < ROUTE_GOAL_MS else "NOT met"
            print(f"{key:10} {route:9} {browser_ms:7.3f}ms {cpython_ms:7.3f}ms {browser_ms / cpython_ms:6.1f}  < {ROUTE_GOAL_MS:.0f} ms: {verdict}")
    slowest = max(max(figures.values()) for figures in page["routes"].values())
    print(f"\nmerge viewer redraw for a new question (4 worker calls): {page['redraw']:.1f} ms; slowest single route {slowest:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
