"""The same core, the same tests, in Pyodide: the browser's interpreter reaches the same verdicts.

Runs the runner core and the shipped rag-01 tests inside Pyodide under Node (no browser needed)
and compares every checkpoint status with CPython's.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.quality_gate import known_solutions

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = ROOT / "checkpoints" / "rag-01"
SCRIPT = Path(__file__).resolve().parent / "pyodide_grade.mjs"

pytestmark = pytest.mark.slow


def submissions(folder: Path) -> list[Path]:
    """The known solutions as graded (variations composed with the reference), written to folder."""
    files = []
    for known in known_solutions(LESSON_DIR):
        # numpy is not in the Pyodide core; the endless loop needs the browser's interrupt.
        if "numpy" in known.path.stem or "overlap_may_equal_window" in known.path.stem:
            continue
        target = folder / f"{known.path.parent.name}__{known.path.name}"
        target.write_text(known.source, encoding="utf-8")
        files.append(target)
    return files


@pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir(), reason="needs node and node_modules/pyodide")
def test_pyodide_and_cpython_reach_the_same_verdicts(tmp_path):
    files = submissions(tmp_path)
    completed = subprocess.run(
        ["node", str(SCRIPT), str(ROOT), *map(str, files)], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    in_pyodide = json.loads(completed.stdout.strip().splitlines()[-1])
    assert in_pyodide["python"].startswith("3.1")

    bundle = load_bundle(LESSON_DIR, include_offline=False)
    assert in_pyodide["bundle_sha256"] == bundle.bundle_sha256
    in_cpython = {str(f): grade(bundle, InProcessHost(call_timeout=10), f.read_text(encoding="utf-8")).statuses() for f in files}
    assert in_pyodide["verdicts"] == in_cpython
