"""Shared scaffolding of the widget redraw benchmarks (bench/<widget>.py): build the site (or only
the lessons a bench needs), serve it, open a lesson in Debian's headless Chromium, and summarise
timed redraws against a baseline measured in the same page and run.

A bench supplies its scenarios and the JavaScript that times them; this module does the rest:

    def measure(page, rounds) -> list[Row]: ...
    sys.exit(widget_bench.main(__doc__, measure, lesson="rag-00b", ready="[data-testid=tu-row]"))
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from builder.serve import start_server  # noqa: E402

# A widget's redraw at its size limit must stay under this (issue 13's goal, per edit, p90).
GOAL_MS = 50.0
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def build_site(out: Path, only: str | None = None) -> None:
    """`build.py` into `out`: every lesson, or only the one named."""
    command = [sys.executable, str(ROOT / "build.py"), "--out", str(out)]
    if only:
        command += ["--only", only]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"build failed: {completed.stderr.strip()}")


@contextmanager
def lesson_page(site: Path, lesson: str, ready: str) -> Iterator:
    """A Playwright page on `lesson` of the served `site`, once `ready` (a selector) is drawn."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Debian's chromium is not installed (make browser)")
    server = start_server(site, isolated=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{server.url}{lesson}/")
            page.wait_for_selector(ready)
            yield page
            browser.close()
    finally:
        server.close()


@dataclass(frozen=True)
class Row:
    """One scenario measured once: per-edit redraw times and the baseline's, in ms."""

    scenario: str
    redraws: list[float]
    baselines: list[float]
    detail: str = ""  # what was drawn (rows, boundaries, ...), for the reader


def report(rows_per_run: list[list[Row]]) -> bool:
    """Prints each scenario's median over runs of (median, p90, baseline, ratio); True when every
    scenario's p90 stays within GOAL_MS in the median run."""
    within = True
    print(f"{'scenario':44} {'drawn':>18} {'median':>8} {'p90':>8} {'baseline':>9} {'ratio':>6}  runs")
    for index, first in enumerate(rows_per_run[0]):
        runs = [rows[index] for rows in rows_per_run]
        median = statistics.median(statistics.median(row.redraws) for row in runs)
        p90 = statistics.median(percentile(row.redraws, 0.9) for row in runs)
        baseline = statistics.median(statistics.median(row.baselines) for row in runs)
        within &= p90 <= GOAL_MS
        print(f"{first.scenario:44} {first.detail:>18} {median:>6.1f}ms {p90:>6.1f}ms {baseline:>7.1f}ms "
              f"{median / max(baseline, 0.1):>5.1f}x  {len(runs)}", flush=True)
    print(f"goal: p90 redraw <= {GOAL_MS:.0f} ms in every scenario: {'met' if within else 'NOT met'}")
    return within


def main(doc: str, measure: Callable[[object, int], list[Row]], lesson: str, ready: str) -> int:
    """The command line every widget bench shares: --rounds (edits per run), --runs (runs in the
    same page; each figure is the median over them), --site (an already built site)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25, help="timed edits per scenario and run")
    parser.add_argument("--runs", type=int, default=5, help="runs per scenario; the median run is reported")
    parser.add_argument("--site", type=Path, help=f"an already built site with {lesson} (default: build it alone)")
    arguments = parser.parse_args()

    def run(site: Path) -> bool:
        with lesson_page(site, lesson, ready) as page:
            return report([measure(page, arguments.rounds) for _ in range(arguments.runs)])

    if arguments.site:
        return 0 if run(arguments.site) else 1
    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary) / "_site"
        build_site(site, only=lesson)
        return 0 if run(site) else 1
