"""The quality gate on the rag-01 tests themselves (issue 3, part 3).

The reference and every correct solution must pass everything, offline-only tests included;
every known-wrong solution must fail exactly its named checkpoint with the shipped tests alone
(the ones the browser runs). The JSON verdicts for the wrong solutions are kept as golden
transcripts so any drift in statuses or messages shows up in review; regenerate them with
`WERKPLAATS_UPDATE_GOLDEN=1 pytest tests/runner_core/test_quality_gate.py`.
"""

import json
import os
from pathlib import Path

import pytest

from runner.bundle import load_bundle
from runner.grade import grade
from runner.host import InProcessHost

LESSON_DIR = Path(__file__).resolve().parents[2] / "checkpoints" / "rag-01"
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_GOLDEN = os.environ.get("WERKPLAATS_UPDATE_GOLDEN") == "1"
CALL_TIMEOUT = 2.0  # seconds for the learner function alone; one wrong solution loops forever on purpose

CORRECT = sorted((LESSON_DIR / "correct").glob("*.py"))
WRONG = sorted((LESSON_DIR / "wrong").glob("*.py"))


@pytest.fixture(scope="module")
def full_bundle():
    return load_bundle(LESSON_DIR, include_offline=True)


@pytest.fixture(scope="module")
def shipped_bundle():
    return load_bundle(LESSON_DIR, include_offline=False)


def test_the_gate_has_enough_solutions_in_both_directions(shipped_bundle):
    assert len(CORRECT) >= 3
    assert len(WRONG) >= 25
    for path in WRONG:
        checkpoint, _, mistake = path.stem.partition("__")
        assert checkpoint in shipped_bundle.function_names and mistake, path.name
    # Every checkpoint has several known mistakes to catch.
    for checkpoint in shipped_bundle.function_names:
        assert sum(p.stem.startswith(checkpoint + "__") for p in WRONG) >= 5


@pytest.mark.parametrize("path", [LESSON_DIR / "solution.py", *CORRECT], ids=lambda p: p.stem)
def test_correct_solution_passes_every_test(path, full_bundle):
    report = grade(full_bundle, InProcessHost(call_timeout=10), path.read_text(encoding="utf-8"))
    failures = [(c.id, t.name, t.status, t.message) for c in report.checkpoints for t in c.tests if t.status != "pass"]
    assert failures == []


def golden_view(report):
    """The verdict without timings or hashes: what a learner sees, and nothing that drifts by itself."""
    checkpoints = []
    for checkpoint in report.to_json()["checkpoints"]:
        tests = [{key: value for key, value in test.items() if key != "duration_ms"} for test in checkpoint["tests"]]
        checkpoints.append({"id": checkpoint["id"], "status": checkpoint["status"], "tests": tests})
    return {"score": report.score, "max_score": report.max_score, "checkpoints": checkpoints}


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_wrong_solution_fails_exactly_its_checkpoint(path, shipped_bundle):
    target = path.stem.split("__")[0]
    report = grade(shipped_bundle, InProcessHost(call_timeout=CALL_TIMEOUT), path.read_text(encoding="utf-8"))
    statuses = report.statuses()
    assert statuses[target] != "pass"
    assert {cid: s for cid, s in statuses.items() if cid != target} == {cid: "pass" for cid in statuses if cid != target}
    # The learner is told which rule broke, in a sentence, and hidden inputs stay hidden.
    first = report.checkpoint(target).first_failure
    assert first.message.endswith((".", "time-out"))
    for test in report.checkpoint(target).tests:
        if not test.visible:
            assert test.expected is None and test.actual is None
            assert "{'" not in test.message and len(test.message) <= 300

    golden_file = GOLDEN_DIR / f"{path.stem}.json"
    view = golden_view(report)
    if UPDATE_GOLDEN or not golden_file.exists():
        GOLDEN_DIR.mkdir(exist_ok=True)
        golden_file.write_text(json.dumps(view, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if not UPDATE_GOLDEN:
            pytest.fail(f"wrote missing golden file {golden_file.name}; review and commit it")
    assert view == json.loads(golden_file.read_text(encoding="utf-8"))


def test_no_stale_golden_files():
    stems = {p.stem for p in WRONG}
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.json") if p.stem not in stems) == []
