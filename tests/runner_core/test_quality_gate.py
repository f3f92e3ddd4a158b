"""The quality gate on every lesson's own tests (issue 3, part 3), one case per lesson in checkpoints/.

The reference and every correct solution must pass everything, offline-only tests included;
every known-wrong solution must fail its named checkpoint with the shipped tests alone (the ones
the browser runs), and pass the others except those that use it (checkpoints.toml `uses`). `runner.offline.gates.quality_gate` decides that; here it must hold for each
lesson. The known-wrong solutions are variations of the reference (`# after: solution.py`), graded
composed. Their JSON verdicts are kept as golden transcripts in tests/lessons/<id>/transcripts/ so
any drift in statuses or messages shows up in review; regenerate them with
`python tests/lessons/update_golden.py <id>`.
"""

import ast
import functools
import json
import os
from pathlib import Path

import pytest

from builder.cli import GATE_CACHE_VARIABLE
from builder.load_lessons import load_lessons
from builder.model import Lesson
from builder.verify_checkpoints import PassedGates, verify_checkpoints
from runner.core.bundle import Bundle, load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.gates.quality_gate import (
    AFTER_SOLUTION_MARKER,
    CAUGHT_BY_PREFIX,
    GATE_CALL_SECONDS,
    header_lines,
    header_value,
    known_solutions,
)
from tests.lessons.lesson_tests import LESSONS, ROOT, check_golden, lesson_param, lesson_param_one_fast, shown

# The rules for every lesson; a lesson's tests.toml may ask for more known-wrong solutions in all.
MIN_CORRECT = 3
MIN_WRONG_PER_CHECKPOINT = 5

KNOWN = {lesson.id: known_solutions(lesson.checkpoints_dir) for lesson in LESSONS}
WRONG_CASES = [(lesson, known) for lesson in LESSONS for known in KNOWN[lesson.id] if not known.must_pass]
WRONG_IDS = [f"{lesson.id}/{known.path.stem}" for lesson, known in WRONG_CASES]


def correct_solutions(lesson):
    return [known for known in KNOWN[lesson.id] if known.must_pass and known.path.parent.name == "correct"]


def wrong_solutions(lesson):
    return [known for known in KNOWN[lesson.id] if not known.must_pass]


@functools.cache
def shipped_bundle(lesson) -> Bundle:
    """The tests the browser runs, loaded once per lesson."""
    return load_bundle(lesson.checkpoints_dir, include_offline=False)


@lesson_param
def test_the_gate_has_enough_solutions_in_both_directions(lesson):
    bundle, wrong = shipped_bundle(lesson), wrong_solutions(lesson)
    assert len(correct_solutions(lesson)) >= MIN_CORRECT
    assert len(wrong) >= lesson.settings.min_known_wrong
    for known in wrong:
        mistake = known.path.stem.partition("__")[2]
        assert known.expected in bundle.function_names and mistake, known.path.name
    # Every checkpoint has several known mistakes to catch.
    for checkpoint in bundle.function_names:
        assert sum(known.expected == checkpoint for known in wrong) >= MIN_WRONG_PER_CHECKPOINT, checkpoint


@functools.cache
def built_lessons() -> dict[str, Lesson]:
    """The lessons as the build loads them."""
    return {lesson.id: lesson for lesson in load_lessons(ROOT / "lessons", ROOT / "checkpoints", root=ROOT)}


# The gate exactly as every build runs it (`python -m runner gate --json` in a child interpreter,
# builder/verify_checkpoints.py), keeping its report in the run's folder of passed gates
# (tests/shared_fixtures.py `kept_gates`): the shared site's build and this test gate a lesson's
# inputs once between them, whichever comes first. A failing gate raises its `file:line` mistakes.
@lesson_param_one_fast
def test_the_quality_gate_holds(lesson):
    kept = PassedGates(kept_in=Path(os.environ[GATE_CACHE_VARIABLE]))
    verified = verify_checkpoints(built_lessons()[lesson.id], kept)
    assert verified is not None and verified.files



def top_level_sources(text: str) -> dict[str, str]:
    """Name -> source of each top-level def, to spot a variation that repeats the reference."""
    tree = ast.parse(text)
    return {node.name: ast.get_source_segment(text, node) for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize(("lesson", "known"), WRONG_CASES, ids=WRONG_IDS)
def test_a_wrong_solution_writes_down_only_its_mistake(lesson, known):
    text = known.path.read_text(encoding="utf-8")
    assert AFTER_SOLUTION_MARKER in header_lines(text)
    # Each names the test that must catch it (the gate checks that this test does).
    assert header_value(text, CAUGHT_BY_PREFIX)
    reference = top_level_sources((lesson.checkpoints_dir / "solution.py").read_text(encoding="utf-8"))
    repeated = [name for name, source in top_level_sources(text).items() if reference.get(name) == source]
    assert repeated == []


def golden_view(report):
    """The verdict without timings or hashes: what a learner sees, and nothing that drifts by itself."""
    checkpoints = []
    for checkpoint in report.to_json()["checkpoints"]:
        tests = [{key: value for key, value in test.items() if key != "duration_ms"} for test in checkpoint["tests"]]
        view = {"id": checkpoint["id"], "status": checkpoint["status"], "tests": tests}
        if "uses_failing" in checkpoint:  # the note a dependent checkpoint gets
            view["uses_failing"] = checkpoint["uses_failing"]
        checkpoints.append(view)
    return {"score": report.score, "max_score": report.max_score, "checkpoints": checkpoints}


@pytest.mark.parametrize(("lesson", "known"), WRONG_CASES, ids=WRONG_IDS)
def test_wrong_solution_feedback_matches_its_golden_transcript(lesson, known):
    report = grade(shipped_bundle(lesson), InProcessHost(call_timeout=GATE_CALL_SECONDS), known.source)
    assert report.statuses()[known.expected] != "pass"
    # The learner is told which rule broke, in a sentence, and hidden inputs stay hidden.
    first = report.checkpoint(known.expected).first_failure
    assert first.message.endswith((".", "time-out"))
    for test in report.checkpoint(known.expected).tests:
        if not test.visible:
            assert test.expected is None and test.actual is None
            assert "{'" not in test.message and len(test.message) <= 300

    check_golden(lesson.transcripts_dir / f"{known.path.stem}.json",
                 json.dumps(golden_view(report), ensure_ascii=False, indent=1) + "\n", lesson,
                 same=lambda actual, expected: json.loads(actual) == json.loads(expected))


@lesson_param
def test_no_stale_golden_transcripts(lesson):
    stems = {known.path.stem for known in wrong_solutions(lesson)}
    stale = [shown(path) for path in sorted(lesson.transcripts_dir.glob("*.json")) if path.stem not in stems]
    assert stale == [], "transcripts of known-wrong solutions that no longer exist: delete them"
