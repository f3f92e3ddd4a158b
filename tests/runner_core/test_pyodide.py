"""The same core, the same tests, in Pyodide: the browser's interpreter reaches the same verdicts.

Runs the runner core and a lesson's shipped tests inside Pyodide under Node (no browser needed)
on the lesson's known solutions, and compares every checkpoint status with CPython's in process,
which places a difference in the core rather than in the page. A lesson's tests.toml names the
solutions the two cannot judge alike (`[same_verdicts.not_compared]`).

On the first lesson only: every lesson's known solutions (and its corpus) are graded in Pyodide in
the real page and compared with the offline grader by tests/browser/test_same_verdicts.py, which
CI runs too; this Node run of all of them cost about 90 s of CPU more (issue 20). To compare
another lesson here while you work on it: `WERKPLAATS_PYODIDE_LESSONS=rag-02 pytest
tests/runner_core/test_pyodide.py` (ids separated by commas, `all` for every lesson).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.gates.quality_gate import known_solutions
from tests.lessons.lesson_tests import LESSONS, ROOT

SCRIPT = Path(__file__).resolve().parent / "pyodide_grade.mjs"

pytestmark = pytest.mark.slow


def compared_lessons() -> list:
    wanted = os.environ.get("WERKPLAATS_PYODIDE_LESSONS", "").strip()
    if wanted == "all":
        return LESSONS
    if not wanted:
        return LESSONS[:1]
    ids = {lesson_id.strip() for lesson_id in wanted.split(",") if lesson_id.strip()}
    unknown = ids - {lesson.id for lesson in LESSONS}
    if unknown:
        raise pytest.UsageError(f"WERKPLAATS_PYODIDE_LESSONS: no lesson {', '.join(sorted(unknown))}")
    return [lesson for lesson in LESSONS if lesson.id in ids]


def submissions(lesson, folder: Path) -> list[Path]:
    """The known solutions as graded (variations composed with the reference), written to folder."""
    files = []
    not_compared = lesson.settings.not_compared
    for known in known_solutions(lesson.checkpoints_dir):
        if f"{known.path.parent.name}/{known.path.name}" in not_compared:
            continue
        target = folder / f"{known.path.parent.name}__{known.path.name}"
        target.write_text(known.source, encoding="utf-8")
        files.append(target)
    return files


@pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir(), reason="needs node and node_modules/pyodide")
@pytest.mark.parametrize("lesson", compared_lessons(), ids=lambda lesson: lesson.id)
def test_pyodide_and_cpython_reach_the_same_verdicts(lesson, tmp_path):
    files = submissions(lesson, tmp_path)
    completed = subprocess.run(
        ["node", str(SCRIPT), str(ROOT), lesson.id, *map(str, files)], cwd=ROOT, capture_output=True, text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    in_pyodide = json.loads(completed.stdout.strip().splitlines()[-1])
    assert in_pyodide["python"].startswith("3.1")

    bundle = load_bundle(lesson.checkpoints_dir, include_offline=False)
    assert in_pyodide["bundle_sha256"] == bundle.bundle_sha256
    in_cpython = {str(f): grade(bundle, InProcessHost(call_timeout=10), f.read_text(encoding="utf-8")).statuses() for f in files}
    assert in_pyodide["verdicts"] == in_cpython
