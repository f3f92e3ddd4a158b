"""Return visit: page load to first verdict from the Python memory snapshot, beside the first visit's
cold figure of the same run, and the snapshot's size.

Builds the site, serves it on loopback twice, with the isolation headers and without them (a
plain static host: the service worker adds them to pages and scripts, offline.js reloads the first
page once), and drives headless Debian Chromium (900 px wide). Each run is one new browser profile
(context) per server:

- first visit (cold): rag-01 opened, the reference solution put in and its first "Controleer"
  clicked as soon as the editor is there; Python starts in full on that click. Then the page waits
  until the snapshot is kept.
- return visit: rag-01 opened again in the same profile and clicked at once in the same way;
  Python starts from the snapshot (the run fails if it did not).
- another lesson: rag-03, never opened in that profile, with its reference solution and its first
  checkpoint, clicked at once. It starts from the same snapshot, which holds rag-01's tests
  loaded but not rag-03's: the page loads those after the restore ("any lesson page" of issue 27).

Both figures are page load (navigation start) to the settled verdict, and click to verdict; the
server without headers is measured against the cold figure of the server with them (its own first
visit is not isolated and reloads itself once). Also said per return visit: how the service worker
served the wasm ("cache": the cache's own response, for which Chromium keeps the compiled code;
the timeline's "wasm served" mark). Goal: return visit at most
0.2x the cold figure, and under 500 ms on a quiet machine. Also printed:
the snapshot's bytes in the cache, what they would be gzip-compressed, the origin's storage use, the
load average before and after (the machine may be shared), the commit and the date, and the return
visit's timeline (the "werkplaats: ..." Performance marks of worker-client.js and the worker: where
the time between the click and the verdict goes).

Usage: python bench/python_snapshot.py [--runs 3]
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.warm_start import CHECKPOINT, CHROMIUM_ARGS, SOLUTION, build_site, commit  # noqa: E402
from builder.serve import start_server  # noqa: E402
from runner.core.bundle import load_bundle  # noqa: E402

OTHER_LESSON = "rag-03"
OTHER_SOLUTION = (ROOT / "checkpoints" / OTHER_LESSON / "solution.py").read_text(encoding="utf-8")
OTHER_CHECKPOINT = load_bundle(ROOT / "checkpoints" / OTHER_LESSON, include_offline=False).checkpoints[0].id

VIEWPORT = {"width": 900, "height": 900}
RATIO_GOAL = 0.2
RETURN_GOAL_MS = 500.0
LOAD_TIMEOUT_MS = 300_000

# Clicks "Controleer" and resolves with {status, clickMs, loadMs}: from the click, and from the
# navigation start (performance.now()'s zero), to the verdict on the card (what the learner sees;
# the page stores the checkpoint's fingerprint after it).
CHECK_AND_TIME = """async (id) => {
  const card = document.querySelector(`[data-testid=checkpoint-${id}]`);
  const panel = card.closest("[data-checkpoint-panel]");
  const button = document.querySelector(`[data-testid=check-${id}]`);
  return await new Promise((resolve) => {
    let clicked = 0;
    const observer = new MutationObserver(() => {
      if (clicked && card.dataset.status !== "running") {
        observer.disconnect();
        const now = performance.now();
        resolve({ status: card.dataset.status, clickMs: now - clicked, loadMs: now });
      }
    });
    observer.observe(panel, { attributes: true, subtree: true });
    clicked = performance.now();
    button.click();
  });
}"""

# The page's own timeline: the document, and the start's steps (worker-client.js and the worker mark
# them as "werkplaats: ..."), in ms since the navigation start.
TIMELINE = """() => {
  const [navigation] = performance.getEntriesByType("navigation");
  const marks = [["document received", navigation.responseEnd], ["DOMContentLoaded", navigation.domContentLoadedEventEnd]];
  for (const entry of performance.getEntriesByType("mark")) {
    if (entry.name.startsWith("werkplaats: ")) marks.push([entry.name.slice(12), entry.startTime]);
  }
  return marks.sort((a, b) => a[1] - b[1]);
}"""

SNAPSHOT_SIZES = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  const request = (await cache.keys()).find((entry) => entry.url.includes("/__werkplaats_snapshot__"));
  const bytes = await (await cache.match(request)).arrayBuffer();
  const gzipped = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  const estimate = await navigator.storage.estimate();
  return { raw: bytes.byteLength, gzip: gzipped.byteLength, usage: estimate.usage };
}"""


def timed_visit(context, url: str, lesson: str = "rag-01", solution: str = SOLUTION,
                checkpoint: str = CHECKPOINT) -> tuple[dict, object]:
    page = context.new_page()
    page.goto(f"{url}{lesson}/")
    page.locator("[data-testid=editor] .cm-content").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", solution)
    result = page.evaluate(CHECK_AND_TIME, checkpoint)
    if result["status"] != "pass":
        raise SystemExit(f"the reference solution of {lesson} did not pass {checkpoint}: {result['status']}")
    result["start"] = page.locator("[data-editor-panel]").get_attribute("data-python-start")
    result["marks"] = page.evaluate(TIMELINE)
    return result, page


HAS_SNAPSHOT = """async () => {
  if (!navigator.serviceWorker.controller) return false;
  for (const name of await caches.keys()) {
    if (!/^werkplaats-[0-9a-f]{16}$/.test(name)) continue;
    const keys = await (await caches.open(name)).keys();
    if (keys.some((entry) => entry.url.includes("/__werkplaats_snapshot__"))) return true;
  }
  return false;
}"""


def first_visit_without_headers(context, url: str) -> None:
    """The first visit on the plain server, until the snapshot is kept: the page reloads itself
    once (offline.js) when the service worker has taken over, maybe in the middle of the start;
    the isolated page then starts Python once more (a check), and that start keeps the snapshot."""
    page = context.new_page()
    page.goto(f"{url}rag-01/")
    for _ in range(LOAD_TIMEOUT_MS // 500):
        page.wait_for_timeout(500)
        try:
            if page.evaluate(HAS_SNAPSHOT):
                page.close()
                return
            if page.evaluate("crossOriginIsolated && window.werkplaats?.python?.state === 'idle'"):
                page.evaluate("code => window.werkplaats.editor.setCode(code)", SOLUTION)
                page.locator(f"[data-testid=check-{CHECKPOINT}]").click()
        except Exception:  # the page is reloading itself
            continue
    raise SystemExit("no snapshot was kept on the server without headers")


class Profile(NamedTuple):
    """One browser profile's visits (each a timed_visit result) and the snapshot's sizes."""

    cold: dict
    warm: dict
    sizes: dict
    plain: dict | None  # the return visit on the server without headers
    other: dict  # another lesson's first page after the snapshot was kept


def one_profile(browser, url: str, plain_url: str | None = None) -> Profile:
    """Cold and return visit on the server with headers, then another lesson's first page in that
    profile; a return visit on the plain server too."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        cold, page = timed_visit(context, url)
        page.wait_for_function("document.documentElement.dataset.pythonSnapshot === 'stored'", timeout=LOAD_TIMEOUT_MS)
        sizes = page.evaluate(SNAPSHOT_SIZES)
        page.close()
        warm, page = timed_visit(context, url)
        page.close()
        other, page = timed_visit(context, url, OTHER_LESSON, OTHER_SOLUTION, OTHER_CHECKPOINT)
        page.close()
        if cold["start"] != "cold" or warm["start"] != "snapshot" or other["start"] != "snapshot":
            raise SystemExit(f"expected a cold then two snapshot starts, got {cold['start']}, {warm['start']} "
                             f"and {other['start']}")
    finally:
        context.close()
    plain = None
    if plain_url is not None:
        context = browser.new_context(viewport=VIEWPORT)
        try:
            first_visit_without_headers(context, plain_url)
            plain, page = timed_visit(context, plain_url)
            page.close()
            if plain["start"] != "snapshot":
                raise SystemExit(f"expected a snapshot start without headers, got {plain['start']}")
        finally:
            context.close()
    return Profile(cold, warm, sizes, plain, other)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="browser profiles (default 3)")
    arguments = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary) / "_site"
        build_site(site)
        server = start_server(site, isolated=True)
        plain_server = start_server(site, isolated=False)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                results = [one_profile(browser, server.url, plain_server.url) for _ in range(arguments.runs)]
                browser.close()
        finally:
            server.close()
            plain_server.close()
    load_after = os.getloadavg()

    colds = [profile.cold for profile in results]
    cold_load = statistics.median(cold["loadMs"] for cold in colds)
    cold_click = statistics.median(cold["clickMs"] for cold in colds)
    sizes = results[-1].sizes
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"Python memory snapshot: commit {commit()}, {now}, load average {load_before[0]:.1f} before / "
          f"{load_after[0]:.1f} after (2 cores{'; busy machine: times are pessimistic' if load_before[0] > 2 else ''})")
    print(f"  median of {arguments.runs} profiles; loopback, headless Chromium, {VIEWPORT['width']} px wide")
    print(f"  first visit (cold start):  page load -> verdict {cold_load:.0f} ms (click -> verdict {cold_click:.0f} ms)")
    kinds = [("with headers", [profile.warm for profile in results]),
             ("without headers", [profile.plain for profile in results]),
             (f"{OTHER_LESSON}, headers", [profile.other for profile in results])]
    for kind, visits in kinds:
        load = statistics.median(visit["loadMs"] for visit in visits)
        click = statistics.median(visit["clickMs"] for visit in visits)
        ratio = load / cold_load
        met = ratio <= RATIO_GOAL and load < RETURN_GOAL_MS
        served = ", ".join(sorted({served_wasm(visit) for visit in visits}))
        print(f"  return visit, {kind:16}: page load -> verdict {load:.0f} ms (click -> verdict {click:.0f} ms)"
              f" = {ratio:.3f}x cold  [goal <= {RATIO_GOAL}x and < {RETURN_GOAL_MS:.0f} ms: "
              f"{'meets goal' if met else 'MISSES goal'}]; wasm served: {served}")
    print(f"  snapshot: {sizes['raw'] / 1e6:.1f} MB in the cache (never on the wire: made in the browser;"
          f" gzip would be {sizes['gzip'] / 1e6:.1f} MB); origin storage in use {sizes['usage'] / 1e6:.1f} MB")
    print(f"  raw page load -> verdict: cold {[round(cold['loadMs']) for cold in colds]} ms")
    for kind, visits in kinds:
        print(f"    return, {kind}: {[round(visit['loadMs']) for visit in visits]} ms")
    # Where the return visit's time goes: the timeline of the profile with the median figure.
    for kind, visits in kinds:
        median_visit = sorted(visits, key=lambda visit: visit["loadMs"])[len(visits) // 2]
        print(f"  return visit timeline, {kind} (ms since navigation start; median profile):")
        timeline = median_visit["marks"] + [["check clicked", median_visit["loadMs"] - median_visit["clickMs"]],
                                            ["verdict", median_visit["loadMs"]]]
        for name, at in sorted(timeline, key=lambda item: item[1]):
            print(f"    {at:7.0f}  {name}")
    return 0


def served_wasm(visit: dict) -> str:
    """How the service worker served the visit's wasm (its timeline's mark, worker-client.js)."""
    for name, _ in visit["marks"]:
        if name.startswith("wasm served: "):
            return name.removeprefix("wasm served: ")
    return "not said"


if __name__ == "__main__":
    raise SystemExit(main())
