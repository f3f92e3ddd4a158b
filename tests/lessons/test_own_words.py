"""Every lesson is written in its own words: no run of 8 words shared with a Dutch source text.

The source texts and the checking tool are not part of the repository: CI clones `shared/` next to
it (`../shared/reference/`, `../shared/tools/own_words.py`). A contributor's clone without them
skips this test; under CI (the `CI` variable set) a missing `shared/` fails instead, so the check
cannot silently stop running. `WERKPLAATS_SHARED_DIR` points at another copy of `shared/`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("WERKPLAATS_SHARED_DIR") or REPO.parent / "shared")
TOOL = SHARED / "tools" / "own_words.py"
REFERENCE = SHARED / "reference"
RUN_LENGTH = 8

# One line per shared run: "rag-04.md ~ later-hybrid-search-blog-nl.txt: 25 words: ..."
RUN_LINE = re.compile(r"^(?P<lesson>\S+\.md) ~ (?P<source>\S+): (?P<words>\d+) words: (?P<run>.*)$")


def shared_runs(output: str) -> list[str]:
    return [f"{match['lesson']} shares {match['words']} words with {match['source']}: “{match['run']}”"
            for match in map(RUN_LINE.match, output.splitlines()) if match]


def test_the_run_lines_of_the_tool_are_read():
    output = ("rag-04.md ~ later-hybrid-search-blog-nl.txt: 9 words: valt de semantische zoekweg uit\n"
              "shared runs of 8+ words with a Dutch source: 1\n")
    assert shared_runs(output) == [
        "rag-04.md shares 9 words with later-hybrid-search-blog-nl.txt: “valt de semantische zoekweg uit”"]


def test_no_lesson_shares_a_run_of_eight_words_with_a_dutch_source():
    if not (TOOL.is_file() and REFERENCE.is_dir()):
        reason = f"{TOOL} and {REFERENCE} are not there: clone shared/ next to the repository"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the own-words check, but {reason}")
        pytest.skip(reason)
    run = subprocess.run([sys.executable, str(TOOL), str(REPO), str(REFERENCE), str(RUN_LENGTH)],
                         capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert run.returncode in (0, 1), f"own_words.py failed:\n{run.stderr}"
    runs = shared_runs(run.stdout)
    assert (run.returncode, runs) == (0, []), (
        "lessons repeat a source sentence; write these passages in your own words:\n" + "\n".join(runs)
        + ("" if runs else f"\n{run.stdout}"))
