"""The CPU a browser test pays for a new page: Debian's full `chromium` (headless) against its
`chromium-headless-shell`, which the test suite drives (tests/shared_fixtures.py).

For each build: one browser; its first context and page (about:blank: what each test worker's
browser pays once); then --rounds times a new context and page (a fresh profile, as most browser
tests take), first about:blank, then rag-01's page of a built site, read only (no Python starts on
a page that is only read). The CPU is user + system time of every process of the browser,
read from /proc before the context closes (so the renderer is still there) and per process (so one
that ends meanwhile takes nothing out), from before the context opens to 2.5 s after the page
loaded (a renderer keeps working for a second or two after `goto` returns). Printed: the median
per page for each build, and the shell's as a ratio to the full browser's, measured in the same
run. Also: whether the page works the same in both (the editor is there, the service worker
took control after a reload).

    python bench/browser_page_cost.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.warm_start import build_site, commit  # noqa: E402
from builder.serve import start_server  # noqa: E402
from tests.shared_fixtures import CHROMIUM_ARGS  # noqa: E402
from tests.suite_cpu import descendants_cpu_by_pid  # noqa: E402

BUILDS = ("chromium", "chromium-headless-shell")
SETTLE_SECONDS = 2.5


def page_cost(browser, url: str) -> float:
    # Per process, what it spent meanwhile: a renderer of an earlier context that ends during the
    # page would otherwise take its whole CPU out of the sum (a negative cost).
    before = descendants_cpu_by_pid(os.getpid(), include_reaped=False)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        if url.startswith("http"):
            page.locator("[data-testid=editor] .cm-content").wait_for(timeout=60_000)
        time.sleep(SETTLE_SECONDS)
        after = descendants_cpu_by_pid(os.getpid(), include_reaped=False)
        return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
    finally:
        context.close()


def works_offline_ready(browser, url: str) -> bool:
    """The lesson page as the suite needs it: the editor there, the service worker in control."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)", timeout=60_000)
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        return page.locator("[data-testid=editor] .cm-content").count() == 1
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    paths = {name: shutil.which(name) for name in BUILDS}
    missing = [name for name, path in paths.items() if path is None]
    if missing:
        raise SystemExit(f"not installed: {', '.join(missing)} (make browser installs both)")
    from playwright.sync_api import sync_playwright

    measured_on = commit()
    with tempfile.TemporaryDirectory(prefix="werkplaats-bench-") as temporary:
        site = Path(temporary) / "_site"
        build_site(site)
        server = start_server(site, isolated=True)
        lesson = f"{server.url}rag-01/"
        load_before = os.getloadavg()[0]
        costs: dict[tuple[str, str], list[float]] = {}
        works: dict[str, bool] = {}
        try:
            with sync_playwright() as playwright:
                for name, path in paths.items():
                    browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
                    try:
                        time.sleep(SETTLE_SECONDS)  # the browser's own start settles first
                        costs[name, "first page"] = [page_cost(browser, "about:blank")]
                        works[name] = works_offline_ready(browser, lesson)
                        for target, url in (("about:blank", "about:blank"), ("rag-01, read only", lesson)):
                            costs[name, target] = [page_cost(browser, url) for _ in range(args.rounds)]
                    finally:
                        browser.close()
        finally:
            server.close()
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"CPU of a new context and page: commit {measured_on}, {now}, load average "
          f"{load_before:.1f} before / {os.getloadavg()[0]:.1f} after; median of {args.rounds}")
    for target in ("first page", "about:blank", "rag-01, read only"):
        full = statistics.median(costs["chromium", target])
        shell = statistics.median(costs["chromium-headless-shell", target])
        print(f"  {target:18s} chromium {full:5.2f} s   headless shell {shell:5.2f} s   = {shell / full:.2f}x")
    for name in BUILDS:
        print(f"  {name}: editor there and service worker in control: {'yes' if works[name] else 'NO'}")
    return 0 if all(works.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
