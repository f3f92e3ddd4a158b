"""In-browser checkpoint grading: warm time per checkpoint and cold page-load-to-first-verdict.

Builds the site, serves it on loopback with the dev server's isolation headers and drives
headless Debian Chromium. Figures are medians; every one is printed beside a baseline measured in
the same run:

- warm: "Controleer" click to verdict (the card's data-status settles) for each checkpoint with
  the reference solution, all of its shipped tests (goal: under 300 ms), beside the same
  `runner.core.web.check` in this CPython process (the grading work without Pyodide and the page);
- cold: navigation start of a fresh context (empty cache) to the first verdict, with the check
  clicked as soon as the editor is there, beside the bare Pyodide load time: a blank page whose
  module worker loads the same vendored Pyodide and prints once.

Usage: python bench/browser_checkpoints.py [--lesson rag-01] [--cold-runs 3] [--warm-runs 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.serve import start_server  # noqa: E402
from runner.core import web  # noqa: E402

CHECKPOINTS_DIR = ROOT / "checkpoints"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
WARM_GOAL_MS = 300.0
LOAD_TIMEOUT_MS = 300_000

BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><script type="module">
const worker = new Worker(new URL("./bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = () => { window.benchResult = performance.now(); };
</script></body></html>
"""
BARE_WORKER = """const indexURL = new URL("../pyodide/", import.meta.url).href;
import(indexURL + "pyodide.mjs").then(async ({ loadPyodide }) => {
  const pyodide = await loadPyodide({ indexURL });
  pyodide.runPython("1 + 1");
  self.postMessage("ready");
});
"""

# Clicks "Controleer" of one checkpoint and resolves with the time (ms since navigation start)
# at which its card leaves pending/running, and the click time.
CHECK_AND_TIME = """async (id) => {
  const card = document.querySelector(`[data-testid=checkpoint-${id}]`);
  const button = document.querySelector(`[data-testid=check-${id}]`);
  return await new Promise((resolve) => {
    let clicked = 0;
    const observer = new MutationObserver(() => {
      const status = card.dataset.status;
      if (clicked && status !== "running" && !card.closest("[data-checkpoint-panel]").hasAttribute("data-checking")) {
        observer.disconnect();
        resolve({ status, clicked, settled: performance.now() });
      }
    });
    observer.observe(card.closest("[data-checkpoint-panel]"), { attributes: true, subtree: true });
    clicked = performance.now();
    button.click();
  });
}"""


def median_ms(values: list[float]) -> float:
    return statistics.median(values)


def build_site(out: Path) -> None:
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)],
                               cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise SystemExit(f"build failed: {completed.stderr}")
    bench_dir = out / "bench"
    bench_dir.mkdir()
    (bench_dir / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
    (bench_dir / "bare-worker.js").write_text(BARE_WORKER, encoding="utf-8")


def bare_load_ms(browser, url: str) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{url}bench/bare.html")
        page.wait_for_function("() => window.benchResult !== undefined", timeout=LOAD_TIMEOUT_MS)
        return page.evaluate("() => window.benchResult")
    finally:
        context.close()


def open_lesson(context, url: str, lesson: str, solution: str):
    page = context.new_page()
    page.goto(f"{url}{lesson}/")
    page.locator("[data-testid=editor] .cm-content").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", solution)
    return page


def check(page, checkpoint_id: str) -> dict:
    result = page.evaluate(CHECK_AND_TIME, checkpoint_id)
    if result["status"] != "pass":
        raise SystemExit(f"{checkpoint_id}: the reference solution got {result['status']} in the browser")
    return result


def cold_first_verdict_ms(browser, url: str, lesson: str, solution: str, checkpoint_ids: list[str]) -> float:
    context = browser.new_context()
    try:
        page = open_lesson(context, url, lesson, solution)
        return check(page, checkpoint_ids[0])["settled"]
    finally:
        context.close()


def warm_ms(browser, url: str, lesson: str, solution: str, checkpoint_ids: list[str], runs: int) -> dict[str, list[float]]:
    context = browser.new_context()
    try:
        page = open_lesson(context, url, lesson, solution)
        check(page, checkpoint_ids[0])  # Python started and the archive unpacked
        times: dict[str, list[float]] = {checkpoint_id: [] for checkpoint_id in checkpoint_ids}
        for _ in range(runs):
            for checkpoint_id in checkpoint_ids:
                result = check(page, checkpoint_id)
                times[checkpoint_id].append(result["settled"] - result["clicked"])
        return times
    finally:
        context.close()


def cpython_ms(lesson_dir: Path, solution: str, checkpoint_ids: list[str], runs: int) -> dict[str, list[float]]:
    web.check(solution, str(lesson_dir), [checkpoint_ids[0]])  # load the bundle once
    times: dict[str, list[float]] = {checkpoint_id: [] for checkpoint_id in checkpoint_ids}
    for _ in range(runs):
        for checkpoint_id in checkpoint_ids:
            started = time.perf_counter()
            web.check(solution, str(lesson_dir), [checkpoint_id])
            times[checkpoint_id].append((time.perf_counter() - started) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="rag-01", help="the lesson whose checkpoints are timed")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=10)
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (make browser)")
    from playwright.sync_api import sync_playwright

    lesson_dir = CHECKPOINTS_DIR / args.lesson
    solution = (lesson_dir / "solution.py").read_text(encoding="utf-8")
    specs = web.bundle_for(str(lesson_dir)).checkpoints
    checkpoint_ids = [spec.id for spec in specs]
    test_counts = {spec.id: len(spec.tests) for spec in specs}
    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary) / "_site"
        build_site(site)
        server = start_server(site, isolated=True)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                try:
                    bare, cold = [], []
                    for _ in range(args.cold_runs):  # interleaved, so load drift hits both alike
                        bare.append(bare_load_ms(browser, server.url))
                        cold.append(cold_first_verdict_ms(browser, server.url, args.lesson, solution, checkpoint_ids))
                    warm = warm_ms(browser, server.url, args.lesson, solution, checkpoint_ids, args.warm_runs)
                finally:
                    browser.close()
        finally:
            server.close()
    baseline = cpython_ms(lesson_dir, solution, checkpoint_ids, args.warm_runs)

    print(f"In-browser checkpoint grading of {args.lesson} (medians; {args.warm_runs} warm runs, {args.cold_runs} cold runs)")
    print(f"{'checkpoint':<20}{'tests':>6}{'browser ms':>12}{'CPython ms':>12}{'ratio':>8}   goal < {WARM_GOAL_MS:.0f} ms")
    worst = 0.0
    for checkpoint_id in checkpoint_ids:
        browser_ms = median_ms(warm[checkpoint_id])
        cpython = median_ms(baseline[checkpoint_id])
        worst = max(worst, browser_ms)
        verdict = "ok" if browser_ms < WARM_GOAL_MS else "OVER"
        print(f"{checkpoint_id:<20}{test_counts[checkpoint_id]:>6}{browser_ms:>12.1f}{cpython:>12.1f}"
              f"{browser_ms / cpython:>8.1f}   {verdict}")
    cold_ms, bare_ms = median_ms(cold), median_ms(bare)
    print(f"cold: page load to first verdict {cold_ms:.0f} ms; bare Pyodide load {bare_ms:.0f} ms; "
          f"ratio {cold_ms / bare_ms:.2f}; overhead {cold_ms - bare_ms:.0f} ms")
    return 0 if worst < WARM_GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
