"""(Re)write the golden files of one lesson, or of every lesson: tests/lessons/<id>/page.html and
tests/lessons/<id>/transcripts/*.json, from what the builder and the grader produce now.

    python tests/lessons/update_golden.py rag-01      # one lesson
    python tests/lessons/update_golden.py --all       # every lesson in checkpoints/

It runs the golden-file tests with WERKPLAATS_UPDATE_GOLDEN=1 (which write instead of compare),
then once more without, so it ends green only when the files it wrote are what the tests expect.
Review the diff (`git diff tests/lessons/`) before committing: a golden file is only worth
something when someone read it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.golden_versions import write_record  # noqa: E402
from tests.lessons.lesson_tests import LESSON_IDS, UPDATE_VARIABLE  # noqa: E402

GOLDEN_TESTS = ["tests/builder/test_golden_page.py", "tests/runner_core/test_quality_gate.py"]
# The plugin fixture files hold rendered HTML too; they are rewritten with every lesson (--all).
FIXTURE_TESTS = ["tests/builder/test_plugins.py::test_fixture_case"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lesson", nargs="?", help=f"a lesson id ({', '.join(LESSON_IDS)})")
    parser.add_argument("--all", action="store_true", help="every lesson")
    args = parser.parse_args()
    if args.all == (args.lesson is not None):
        parser.error("give one lesson id or --all")
    if args.lesson is not None and args.lesson not in LESSON_IDS:
        parser.error(f"unknown lesson {args.lesson!r} (known: {', '.join(LESSON_IDS) or 'none'})")
    selection = [*GOLDEN_TESTS, *FIXTURE_TESTS] if args.all else [*GOLDEN_TESTS, "-k", args.lesson]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *selection]
    written = subprocess.run(command, cwd=ROOT, env={**os.environ, UPDATE_VARIABLE: "1"})
    if written.returncode != 0:
        return written.returncode
    checked = subprocess.run(command, cwd=ROOT, env={k: v for k, v in os.environ.items() if k != UPDATE_VARIABLE})
    if checked.returncode == 0 and args.all:
        write_record()  # every golden now matches these versions of the rendering packages
    return checked.returncode


if __name__ == "__main__":
    raise SystemExit(main())
