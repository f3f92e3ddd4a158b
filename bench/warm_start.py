"""Warm start: click-to-verdict of a learner who had the editor in view for a while, beside the
cold figure of the same run, and the bytes a page that is only read fetches.

Builds the site, serves it on loopback with the dev server's isolation headers and drives headless
Debian Chromium (stacked layout, 900 px wide), each load in a fresh context (empty caches, no
service worker yet). Medians of --runs loads each, cold and warm interleaved:

- cold: the first "Controleer" (rag-01's first checkpoint, reference solution) clicked as soon as
  the editor is there: Python starts on that click;
- warm: the editor scrolled into view, then --dwell seconds of reading (default 10) before the
  same click (goal: under 500 ms);
- read only: the page opened and its text scrolled through with the pointer over the text, then
  5 s idle; every byte of the context counted, the service worker's own downloads included
  (goal: no Pyodide).

Usage: python bench/warm_start.py [--runs 3] [--dwell 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.serve import start_server  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
VIEWPORT = {"width": 900, "height": 900}
WARM_GOAL_MS = 500.0
LOAD_TIMEOUT_MS = 300_000
CHECKPOINT = "document_snapshots"
SOLUTION = (ROOT / "checkpoints" / "rag-01" / "solution.py").read_text(encoding="utf-8")

# Clicks "Controleer" and resolves with the milliseconds from the click to the settled verdict.
CHECK_AND_TIME = """async (id) => {
  const card = document.querySelector(`[data-testid=checkpoint-${id}]`);
  const panel = card.closest("[data-checkpoint-panel]");
  const button = document.querySelector(`[data-testid=check-${id}]`);
  return await new Promise((resolve) => {
    let clicked = 0;
    const observer = new MutationObserver(() => {
      if (clicked && card.dataset.status !== "running" && !panel.hasAttribute("data-checking")) {
        observer.disconnect();
        resolve({ status: card.dataset.status, ms: performance.now() - clicked });
      }
    });
    observer.observe(panel, { attributes: true, subtree: true });
    clicked = performance.now();
    button.click();
  });
}"""


def commit() -> str:
    """The short hash of the checked-out commit, which every figure in BENCHMARKS.md names."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "unknown"


def build_site(out: Path) -> None:
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out)],
                               cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise SystemExit(f"build failed: {completed.stderr}")


def open_lesson(context, url: str):
    page = context.new_page()
    page.goto(f"{url}rag-01/")
    page.locator("[data-testid=editor] .cm-content").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", SOLUTION)
    return page


def timed_check(page) -> float:
    result = page.evaluate(CHECK_AND_TIME, CHECKPOINT)
    if result["status"] != "pass":
        raise SystemExit(f"the reference solution did not pass {CHECKPOINT}: {result['status']}")
    return result["ms"]


def cold_check(browser, url: str) -> float:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        return timed_check(open_lesson(context, url))
    finally:
        context.close()


# Resolves with the milliseconds until the page's Python is ready (the warm start's own duration).
READY_AFTER = """() => new Promise((resolve) => {
  const started = performance.now();
  const python = window.werkplaats.python;
  if (python.state === "ready") resolve(0);
  python.onStateChange((state) => { if (state === "ready") resolve(performance.now() - started); });
})"""


def warm_check(browser, url: str, dwell_seconds: float) -> tuple[float, bool, float]:
    """(click-to-verdict ms, whether Python was ready at the click, ms from intent to ready)."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = open_lesson(context, url)
        # Not returned: evaluate would wait for the promise, before the intent that resolves it.
        page.evaluate(f"() => {{ window.benchReady = ({READY_AFTER})(); }}")
        page.locator("[data-testid=editor]").scroll_into_view_if_needed()
        page.wait_for_timeout(dwell_seconds * 1000)
        ready_at_click = page.evaluate("window.werkplaats.python.state") == "ready"
        page.locator(f"[data-testid=checkpoint-{CHECKPOINT}]").scroll_into_view_if_needed()
        verdict_ms = timed_check(page)
        return verdict_ms, ready_at_click, page.evaluate("window.benchReady")
    finally:
        context.close()


def read_only_bytes(browser, url: str) -> tuple[int, list[str]]:
    """(bytes of every response in the context, the Pyodide URLs among them)."""
    context = browser.new_context(viewport=VIEWPORT)
    responses = []
    context.on("response", lambda response: responses.append(response))  # the service worker's downloads too
    try:
        page = context.new_page()
        page.goto(f"{url}rag-01/")
        page.locator("[data-testid=editor] .cm-content").wait_for(timeout=LOAD_TIMEOUT_MS)
        page.mouse.move(200, 400)
        end_of_text = page.locator(".reviewed")
        for _ in range(60):
            page.mouse.wheel(0, 400)
            page.wait_for_timeout(100)
            if end_of_text.bounding_box()["y"] < VIEWPORT["height"] * 0.5:
                break
        page.wait_for_timeout(5000)
        total = 0
        for response in responses:
            sizes = response.request.sizes()
            total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        return total, [response.url for response in responses if "/pyodide/" in response.url]
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="loads per figure (default 3)")
    parser.add_argument("--dwell", type=float, default=10.0, help="seconds the editor is in view before the check")
    arguments = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary) / "_site"
        build_site(site)
        server = start_server(site, isolated=True)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                cold, warm, read = [], [], []
                for run in range(arguments.runs):
                    # Alternating who goes first, so a busy moment hurts both alike.
                    if run % 2 == 0:
                        cold.append(cold_check(browser, server.url))
                    warm.append(warm_check(browser, server.url, arguments.dwell))
                    if run % 2 == 1:
                        cold.append(cold_check(browser, server.url))
                    read.append(read_only_bytes(browser, server.url))
                browser.close()
        finally:
            server.close()

    cold_ms = statistics.median(cold)
    warm_ms = statistics.median(ms for ms, _, _ in warm)
    ready_ms = statistics.median(ready for _, _, ready in warm)
    ready_count = sum(1 for _, ready, _ in warm if ready)
    read_bytes = statistics.median(total for total, _ in read)
    pyodide_urls = sorted({url for _, urls in read for url in urls})
    print(f"Warm start (median of {arguments.runs}; loopback, headless Chromium, {VIEWPORT['width']} px wide)")
    print(f"  cold: first check click -> verdict:            {cold_ms:.0f} ms")
    print(f"  warm: editor in view {arguments.dwell:g} s, then click -> verdict: {warm_ms:.0f} ms"
          f" = {warm_ms / cold_ms:.3f}x cold  [goal < {WARM_GOAL_MS:.0f} ms: "
          f"{'meets goal' if warm_ms < WARM_GOAL_MS else 'MISSES goal'}]")
    print(f"  warm start itself (editor in view -> Python ready): {ready_ms:.0f} ms = {ready_ms / cold_ms:.2f}x cold;"
          f" ready at the click in {ready_count} of {len(warm)} runs")
    print(f"  read only: {read_bytes / 1024:.0f} KB fetched (service worker included), Pyodide files: "
          f"{len(pyodide_urls)}  [goal: no Pyodide: {'meets goal' if not pyodide_urls else 'MISSES goal'}]")
    print(f"  raw: cold {[round(x) for x in cold]} ms, warm {[round(ms) for ms, _, _ in warm]} ms, "
          f"read {[round(total / 1024) for total, _ in read]} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
