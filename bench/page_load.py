"""Lesson page load and editor runs, beside a bare page that only loads the same Pyodide and prints.

Builds the site, serves it on loopback (with the dev server's isolation headers) and drives
headless Debian Chromium. Each figure is the median of several runs, each in a fresh browser
context (empty cache), and is printed beside the bare page measured in the same run:

- bytes transferred before the first Run, Pyodide itself excluded (goal: under 300 KB);
- cold: first Run click to first output line, vs the bare page's click-to-print (goal: <= 1.3x);
- warm: a Run of `print(1)` to its output (goal: under 50 ms).

Usage: python bench/page_load.py [--runs 7] [--warm-runs 20]
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.serve import start_server  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
BYTES_GOAL = 300 * 1024
COLD_RATIO_GOAL = 1.3
WARM_GOAL_MS = 50.0

# The baseline: a button that starts a module worker, loads the vendored Pyodide and prints.
BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><button id="go">go</button><pre id="out"></pre>
<script type="module">
document.getElementById("go").addEventListener("click", () => {
  const started = performance.now();
  const worker = new Worker(new URL("./bare-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    document.getElementById("out").textContent = event.data;
    window.benchResult = performance.now() - started;
  };
});
</script></body></html>
"""
BARE_WORKER = """const indexURL = new URL("../pyodide/", import.meta.url).href;
import(indexURL + "pyodide.mjs").then(async ({ loadPyodide }) => {
  const pyodide = await loadPyodide({ indexURL });
  pyodide.setStdout({ batched: (line) => self.postMessage(line) });
  pyodide.runPython("print(1)");
});
"""

# Times a lesson-page Run from the click (capture phase, before the editor reacts) to the first
# stdout text appearing in the output area.
MEASURE_RUN = """async (code) => {
  const output = document.querySelector("[data-testid=output]");
  const run = document.querySelector("[data-testid=run]");
  window.werkplaats.editor.setCode(code);
  return await new Promise((resolve) => {
    let started = 0;
    const observer = new MutationObserver(() => {
      if (output.querySelector("[data-stream=stdout]")) {
        observer.disconnect();
        resolve(performance.now() - started);
      }
    });
    run.addEventListener("click", () => {
      started = performance.now();
      observer.observe(output, { childList: true, subtree: true, characterData: true });
    }, { capture: true, once: true });
    run.click();
  });
}"""


@dataclass
class PageBytes:
    transferred: int = 0  # bodies + headers as they crossed the wire (gzip where the server compresses)
    gzipped: int = 0  # what the same bodies weigh gzip-compressed, as most static hosts serve them
    urls: list[str] = field(default_factory=list)


def build_site(target: Path) -> Path:
    site = target / "_site"
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(site)],
                               cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"build failed: {completed.stderr.strip()}")
    bare = site / "bench-bare"
    bare.mkdir()
    (bare / "index.html").write_text(BARE_PAGE, encoding="utf-8")
    (bare / "bare-worker.js").write_text(BARE_WORKER, encoding="utf-8")
    return site


def count_bytes(responses, exclude: str) -> PageBytes:
    counted = PageBytes()
    for response in responses:
        if exclude in response.url:
            continue
        sizes = response.request.sizes()
        body = response.body()
        counted.transferred += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        counted.gzipped += len(gzip.compress(body, 6)) + sizes["responseHeadersSize"]
        counted.urls.append(response.url)
    return counted


def bare_cold_run(browser, base_url: str) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{base_url}bench-bare/")
        page.click("#go")
        page.wait_for_function("window.benchResult !== undefined", timeout=180_000)
        return page.evaluate("window.benchResult")
    finally:
        context.close()


def lesson_runs(browser, base_url: str, warm_runs: int) -> tuple[PageBytes, float, list[float]]:
    context = browser.new_context()
    try:
        page = context.new_page()
        responses = []
        page.on("response", lambda response: responses.append(response))
        page.goto(f"{base_url}rag-01/", wait_until="networkidle")
        page.locator("[data-testid=editor] .cm-content").wait_for()
        before_run = count_bytes(list(responses), exclude="/pyodide/")
        cold = page.evaluate(MEASURE_RUN, "print(1)")
        page.locator("[data-testid=run]:not([disabled])").wait_for()
        warm = []
        for _ in range(warm_runs):
            warm.append(page.evaluate(MEASURE_RUN, "print(1)"))
            page.locator("[data-testid=run]:not([disabled])").wait_for()
        return before_run, cold, warm
    finally:
        context.close()


def kb(size: int) -> str:
    return f"{size / 1024:.0f} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold page loads per page (default 7)")
    parser.add_argument("--warm-runs", type=int, default=20, help="warm print(1) runs per load (default 20)")
    arguments = parser.parse_args()

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as temporary:
        site = build_site(Path(temporary))
        server = start_server(site, isolated=True)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                bare_cold, lesson_cold, warm, page_bytes = [], [], [], []
                for run in range(arguments.runs):
                    # Interleaved, alternating who goes first, so a busy moment on the machine
                    # (or the previous context shutting down) hurts both sides alike.
                    if run % 2 == 0:
                        bare_cold.append(bare_cold_run(browser, server.url))
                    before_run, cold, warm_times = lesson_runs(browser, server.url, arguments.warm_runs)
                    if run % 2 == 1:
                        bare_cold.append(bare_cold_run(browser, server.url))
                    page_bytes.append(before_run)
                    lesson_cold.append(cold)
                    warm.extend(warm_times)
                browser.close()
        finally:
            server.close()

    transferred = statistics.median(b.transferred for b in page_bytes)
    gzipped = statistics.median(b.gzipped for b in page_bytes)
    bare_ms = statistics.median(bare_cold)
    cold_ms = statistics.median(lesson_cold)
    warm_ms = statistics.median(warm)
    ratio = cold_ms / bare_ms

    def verdict(ok: bool) -> str:
        return "meets goal" if ok else "MISSES goal"

    print(f"Lesson page load (median of {arguments.runs} cold loads, {len(warm)} warm runs; loopback, headless Chromium)")
    print(f"  requests before the first Run: {', '.join(Path(u).name or u for u in page_bytes[0].urls)}")
    print(f"  bytes before first Run (no Pyodide): {kb(transferred)} as served, {kb(gzipped)} gzipped"
          f"  [goal < 300 KB: {verdict(transferred < BYTES_GOAL)} as served, {verdict(gzipped < BYTES_GOAL)} gzipped]")
    print(f"  cold first Run -> first output:      {cold_ms:.0f} ms vs bare page {bare_ms:.0f} ms = {ratio:.2f}x"
          f"  [goal <= {COLD_RATIO_GOAL}x: {verdict(ratio <= COLD_RATIO_GOAL)}]")
    print(f"  warm print(1) Run -> output:         {warm_ms:.1f} ms"
          f"  [goal < {WARM_GOAL_MS:.0f} ms: {verdict(warm_ms < WARM_GOAL_MS)}]")
    print(f"  raw: bare {[round(x) for x in bare_cold]} ms, lesson {[round(x) for x in lesson_cold]} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
