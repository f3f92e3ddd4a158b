"""The quality gate on the rag-01 tests themselves (issue 3, part 3).

The reference and every correct solution must pass everything, offline-only tests included;
every known-wrong solution must fail exactly its named checkpoint with the shipped tests alone
(the ones the browser runs). `runner.offline.quality_gate` decides that; here it must hold for rag-01.
The known-wrong solutions are variations of the reference (`# after: solution.py`), graded
composed. Their JSON verdicts are kept as golden transcripts so any drift in statuses or
messages shows up in review; regenerate them with
`WERKPLAATS_UPDATE_GOLDEN=1 pytest tests/runner_core/test_quality_gate.py`.
"""

import ast
import json
import os
from pathlib import Path

import pytest

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.quality_gate import AFTER_SOLUTION_MARKER, GATE_CALL_SECONDS, check_quality_gate, known_solutions

LESSON_DIR = Path(__file__).resolve().parents[2] / "checkpoints" / "rag-01"
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_GOLDEN = os.environ.get("WERKPLAATS_UPDATE_GOLDEN") == "1"

KNOWN = known_solutions(LESSON_DIR)
CORRECT = [known for known in KNOWN if known.must_pass and known.path.parent.name == "correct"]
WRONG = [known for known in KNOWN if not known.must_pass]


@pytest.fixture(scope="module")
def shipped_bundle():
    return load_bundle(LESSON_DIR, include_offline=False)


def test_the_gate_has_enough_solutions_in_both_directions(shipped_bundle):
    assert len(CORRECT) >= 3
    assert len(WRONG) >= 25
    for known in WRONG:
        mistake = known.path.stem.partition("__")[2]
        assert known.expected in shipped_bundle.function_names and mistake, known.path.name
    # Every checkpoint has several known mistakes to catch.
    for checkpoint in shipped_bundle.function_names:
        assert sum(known.expected == checkpoint for known in WRONG) >= 5


def test_the_quality_gate_holds_for_rag_01():
    assert check_quality_gate(LESSON_DIR) == []


def top_level_sources(text: str) -> dict[str, str]:
    """Name -> source of each top-level def, to spot a variation that repeats the reference."""
    tree = ast.parse(text)
    return {node.name: ast.get_source_segment(text, node) for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("known", WRONG, ids=lambda known: known.path.stem)
def test_a_wrong_solution_writes_down_only_its_mistake(known):
    text = known.path.read_text(encoding="utf-8")
    assert text.startswith(AFTER_SOLUTION_MARKER + "\n")
    reference = top_level_sources((LESSON_DIR / "solution.py").read_text(encoding="utf-8"))
    repeated = [name for name, source in top_level_sources(text).items() if reference.get(name) == source]
    assert repeated == []


def golden_view(report):
    """The verdict without timings or hashes: what a learner sees, and nothing that drifts by itself."""
    checkpoints = []
    for checkpoint in report.to_json()["checkpoints"]:
        tests = [{key: value for key, value in test.items() if key != "duration_ms"} for test in checkpoint["tests"]]
        checkpoints.append({"id": checkpoint["id"], "status": checkpoint["status"], "tests": tests})
    return {"score": report.score, "max_score": report.max_score, "checkpoints": checkpoints}


@pytest.mark.parametrize("known", WRONG, ids=lambda known: known.path.stem)
def test_wrong_solution_feedback_matches_its_golden_transcript(known, shipped_bundle):
    report = grade(shipped_bundle, InProcessHost(call_timeout=GATE_CALL_SECONDS), known.source)
    assert report.statuses()[known.expected] != "pass"
    # The learner is told which rule broke, in a sentence, and hidden inputs stay hidden.
    first = report.checkpoint(known.expected).first_failure
    assert first.message.endswith((".", "time-out"))
    for test in report.checkpoint(known.expected).tests:
        if not test.visible:
            assert test.expected is None and test.actual is None
            assert "{'" not in test.message and len(test.message) <= 300

    golden_file = GOLDEN_DIR / f"{known.path.stem}.json"
    view = golden_view(report)
    if UPDATE_GOLDEN or not golden_file.exists():
        GOLDEN_DIR.mkdir(exist_ok=True)
        golden_file.write_text(json.dumps(view, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if not UPDATE_GOLDEN:
            pytest.fail(f"wrote missing golden file {golden_file.name}; review and commit it")
    assert view == json.loads(golden_file.read_text(encoding="utf-8"))


def test_no_stale_golden_files():
    stems = {known.path.stem for known in WRONG}
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.json") if p.stem not in stems) == []
