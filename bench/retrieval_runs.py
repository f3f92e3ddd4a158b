"""rag-03: evaluate on the largest hidden case offline, and the retrieval-run viewer's redraw.

- offline: `evaluate` of checkpoints/rag-03/solution.py on the largest case of its offline tests
  (tests_offline/large_inputs.py: 1000 questions, 1000 versions, two texts of 200000 code points,
  rankings of 20 and one of 1000 spans), at k = 1, 20 and 100, beside a baseline in the same run:
  `copy.deepcopy` of the same arguments, which the grader's host does for every call anyway.
- widget: the retrieval-runs widget on the built rag-03 page in headless Chromium, given 1000
  questions with rankings of 20, and k changed back and forth (1 <-> 20) as the slider does.
  Timed per change: `setK` (measures, the drawn questions, the table) and the forced style and
  layout after it (goal: under 50 ms). Baseline, same page and run: replacing a list with as many
  plain elements with text (the drawn questions' bars and labels) and forcing layout the same way.

    python bench/retrieval_runs.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import copy
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

GOAL_MS = 50.0
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LESSON_DIR = ROOT / "checkpoints" / "rag-03"


def load_module(path: Path, name: str, **injected):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(injected)
    spec.loader.exec_module(module)
    return module


def offline(rounds: int) -> None:
    reference = load_module(LESSON_DIR / "solution.py", "rag03_bench_solution")
    shared = load_module(LESSON_DIR / "tests" / "_shared.py", "rag03_bench_shared", reference=reference)
    large = load_module(LESSON_DIR / "tests_offline" / "large_inputs.py", "rag03_bench_large", reference=reference, shared=shared)
    questions, rankings, corpus = large.large_case()
    print("evaluate on the largest offline case (1000 questions, 1000 versions, 200000-character texts; medians)")
    print(f"{'k':>4}{'evaluate ms':>14}{'deepcopy ms':>14}{'ratio':>8}")
    for k in (1, 20, 100):
        own, base = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            reference.evaluate(questions, rankings, corpus, k)
            own.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            copy.deepcopy((questions, rankings, corpus, k))
            base.append((time.perf_counter() - started) * 1000)
        own_ms, base_ms = statistics.median(own), statistics.median(base)
        print(f"{k:>4}{own_ms:>14.1f}{base_ms:>14.1f}{own_ms / base_ms:>8.2f}")


# Runs in the page: 1000 questions with rankings of 20 over two versions, a second viewer on a
# copy of the widget's markup, and k changed `rounds` times; then the baseline the same way.
REDRAW = """async (rounds) => {
  const module = await import(new URL("../assets/widgets/retrieval-runs/widget.js", location.href).href);
  const text = "De lamp brandt groen na reset. Houd de knop tien seconden vast. ".repeat(40);
  const corpus = { "doc-v1": text, "doc-v2": text };
  const questions = [];
  const rankings = {};
  for (let index = 0; index < 1000; index += 1) {
    const start = (index * 37) % (text.length - 200);
    const id = `q${index}`;
    questions.push({ id, question: "Wat?", evidence: ["doc-v1", start, start + 60], quote: text.slice(start, start + 60) });
    rankings[id] = Array.from({ length: 20 }, (_, rank) => [rank % 5 === 0 ? "doc-v2" : "doc-v1", start - 40 + 7 * rank < 0 ? 7 * rank : start - 40 + 7 * rank, start + 7 * rank + 20]);
  }
  const root = document.querySelector("[data-widget=retrieval-runs] [data-runs]").cloneNode(true);
  document.querySelector("main").append(root);
  const viewer = new module.RetrievalRunViewer(root, {}, [{ id: "groot", label: "1000 vragen", corpus, questions, rankings, table: null }]);
  const timed = (work) => {
    const started = performance.now();
    work();
    void document.body.offsetHeight;  // style and layout, forced
    return performance.now() - started;
  };
  const redraw = [];
  for (let round = 0; round < rounds; round += 1) redraw.push(timed(() => viewer.setK(round % 2 ? 1 : 20)));
  const list = document.createElement("div");
  document.querySelector("main").append(list);
  const drawn = module.MAX_DRAWN_QUESTIONS;
  const baseline = [];
  for (let round = 0; round < rounds; round += 1) {
    baseline.push(timed(() => {
      const items = [];
      for (let q = 0; q < drawn; q += 1) {
        const item = document.createElement("article");
        for (let bar = 0; bar < 22; bar += 1) {
          const span = document.createElement("span");
          span.textContent = `${q}:${bar}:${round}`;
          item.append(span);
        }
        items.push(item);
      }
      list.replaceChildren(...items);
    }));
  }
  return { redraw, baseline, questions: root.querySelector("[data-testid=rr-questions]").textContent,
           drawn: root.querySelectorAll("[data-testid=rr-question]").length };
}"""


def widget(rounds: int) -> bool:
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (make browser)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary) / "_site"
        completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--only", "rag-03", "--out", str(site)],
                                   cwd=ROOT, capture_output=True, text=True)
        if completed.returncode != 0:
            raise SystemExit(f"build failed: {completed.stderr}")
        server = start_server(site, isolated=True)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                try:
                    page = browser.new_page(viewport={"width": 1280, "height": 900})
                    page.goto(f"{server.url}rag-03/")
                    page.wait_for_selector("[data-widget=retrieval-runs][data-widget-state=mounted]", timeout=60_000)
                    result = page.evaluate(REDRAW, rounds)
                finally:
                    browser.close()
        finally:
            server.close()
    redraw, baseline = statistics.median(result["redraw"]), statistics.median(result["baseline"])
    print(f"retrieval-runs redraw when k changes, {result['questions']} questions with rankings of 20 "
          f"({result['drawn']} drawn; medians of {rounds})")
    print(f"redraw {redraw:.1f} ms (max {max(result['redraw']):.1f}); baseline, plain elements: {baseline:.1f} ms; "
          f"ratio {redraw / baseline:.2f}; goal < {GOAL_MS:.0f} ms: {'ok' if redraw < GOAL_MS else 'OVER'}")
    return redraw < GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    offline(max(3, args.rounds // 4))
    print()
    return 0 if widget(args.rounds) else 1


if __name__ == "__main__":
    raise SystemExit(main())
