"""The build refuses tests it cannot trust: the quality gate on rag-01's known solutions (issue 3)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLD_SITE = "<p>the previous, good build</p>\n"


@pytest.fixture
def project(tmp_path) -> Path:
    """The real lesson and its checkpoints, copied so one known solution can be broken."""
    root = tmp_path / "project"
    for part in ("lessons", "checkpoints"):
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "_site").mkdir()
    (root / "_site" / "index.html").write_text(OLD_SITE)
    return root


def build(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(root)],
                          capture_output=True, text=True, cwd=ROOT)


def test_a_known_wrong_solution_that_passes_stops_the_build(project):
    wrong = project / "checkpoints/rag-01/wrong/word_chunks__not_really_wrong.py"
    shutil.copy(project / "checkpoints/rag-01/solution.py", wrong)
    run = build(project)
    assert run.stderr.splitlines()[-1] == (
        "checkpoints/rag-01/wrong/word_chunks__not_really_wrong.py: "
        "known to be wrong, but passes checkpoint word_chunks")
    assert run.returncode == 1
    assert (project / "_site" / "index.html").read_text() == OLD_SITE


def test_a_correct_solution_that_fails_a_test_stops_the_build(project):
    correct = project / "checkpoints/rag-01/correct/forgets_the_revision_check.py"
    correct.write_text("# after: solution.py\n\ndef check_document(document):\n    pass\n")
    run = build(project)
    last = run.stderr.splitlines()[-1]
    assert last.startswith("checkpoints/rag-01/correct/forgets_the_revision_check.py: should pass but fails ")
    assert run.returncode == 1
    assert (project / "_site" / "index.html").read_text() == OLD_SITE
