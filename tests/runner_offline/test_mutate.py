"""The mutation gate (issue 10): mechanically made wrong solutions must fail the checkpoints they break.

Every lesson in checkpoints/ is run here (a lesson-level test, tests/lessons/lesson_tests.py), so
`make test` fails on a survivor that is neither killed by a test nor listed as equivalent. The
gate's own behaviour is pinned on mutants-01
(tests/runner_offline/mutation_lessons/), whose tests leave two mutants alive on purpose.
"""

from __future__ import annotations

import functools
import mmap
import shutil
from pathlib import Path

import pytest
from offline_support import ROOT

from runner.core.bundle import load_bundle
from runner.core.model import CallOutcome
from runner.offline.cli import main
from runner.offline.commands import gates as gate_commands
from runner.offline.gates.differential_run import brief, differences_in_workers, same_outcome, same_value
from runner.offline.gates.mutant_grading import grade_fail_fast
from runner.offline.gates.mutants import make_mutants, reached_scopes
from runner.offline.gates.mutate import (
    MutationRun,
    render_mutation_report,
    run_in_fresh_process,
    run_mutation,
    run_mutation_checked,
)
from runner.offline.gates.mutation_files import (
    EQUIVALENT_FILE,
    INPUTS_FILE,
    MutationSetupError,
    mutated_files,
    read_equivalent_listings,
)
from tests.lessons.lesson_tests import LessonTests, lesson_param, lesson_param_one_fast

CHECKPOINTS = ROOT / "checkpoints"
FIXTURES = Path(__file__).resolve().parent / "mutation_lessons"
EQUIVALENT_KEY = "clamp: value > LIMIT -> value >= LIMIT"
NOT_EQUIVALENT_KEY = "clamp: type(value) is not int -> not isinstance(value, int)"
# Short, so the mutant of count_up that loops forever costs little; still ample for a correct call.
CALL_SECONDS = 0.5


# ---- every lesson of the project ----------------------------------------------------------------


_RUNS: dict[tuple[str, str], tuple[MutationRun, list[tuple[str, str]] | None]] = {}


def checked_mutation_run(lesson: LessonTests, part: str = "solution") -> tuple[MutationRun, list[tuple[str, str]] | None]:
    """One run per lesson and part for the tests below (each grades a few hundred mutants): the
    mutants of solution.py, with the killed ones the differential inputs cannot tell apart, or
    those of every correct style (`correct/*.py`). In a fresh interpreter: forking a test worker
    that has run other tests costs the gate several times its CPU (run_in_fresh_process). The tests
    of one lesson run in one xdist worker (tests/shared_fixtures.py, xdist_group), so once."""
    if (lesson.id, part) not in _RUNS:
        files = mutated_files(lesson.checkpoints_dir)
        files = files[:1] if part == "solution" else files[1:]
        _RUNS[lesson.id, part] = run_in_fresh_process(run_mutation_checked, lesson.checkpoints_dir, files,
                                                      part == "solution")
    return _RUNS[lesson.id, part]


def mutation_run(lesson: LessonTests, part: str = "solution") -> MutationRun:
    return checked_mutation_run(lesson, part)[0]


@lesson_param_one_fast
def test_no_mutant_of_any_lesson_survives_unexplained(lesson):
    run = mutation_run(lesson)
    assert run.problems == [], render_mutation_report(run)
    assert len(run.results) > 0


# Every correct style of every lesson: several times the mutants of solution.py, so in the slow
# lane (CI runs it; `make test-fast` leaves it out, and keeps solution.py's run of the first lesson above).
@pytest.mark.slow
@lesson_param
def test_no_mutant_of_any_correct_style_survives_unexplained(lesson, request):
    run = mutation_run(lesson, "correct")
    assert run.problems == [], render_mutation_report(run)
    assert {tally.file for tally in run.file_tallies()} == set(mutated_files(lesson.checkpoints_dir)[1:])
    assert all(tally.made > 0 for tally in run.file_tallies())


@lesson_param_one_fast  # shares the run above: the same lessons in each lane
def test_the_differential_inputs_tell_every_killed_mutant_apart(lesson):
    """Otherwise a listing of such a mutant as equivalent could not be refuted."""
    if not (lesson.checkpoints_dir / INPUTS_FILE).exists():
        assert not (lesson.checkpoints_dir / EQUIVALENT_FILE).exists()
        return
    assert checked_mutation_run(lesson)[1] == []


def test_a_lesson_without_tests_is_a_setup_error(clamp_lesson):
    shutil.rmtree(clamp_lesson / "tests")
    with pytest.raises(MutationSetupError) as raised:
        run_mutation(clamp_lesson)
    assert str(raised.value) == f"{clamp_lesson}/tests: no tests for any checkpoint"


def test_rag_01_makes_every_kind_of_mutant():
    solution = (CHECKPOINTS / "rag-01" / "solution.py").read_text(encoding="utf-8")
    operators = {mutant.operator for mutant in make_mutants(solution)}
    assert operators >= {
        "compare", "constant", "and-or", "drop-condition", "drop-guard", "type-check", "slice-bound",
        "default", "drop-key", "wrong-key", "early-exit", "regex-count", "range-bound", "drop-call",
    }


# ---- making mutants ---------------------------------------------------------------------------------

SMALL = '''\
"""Module docstring: never mutated."""
import re

WORDS = re.compile(r"\\w{2,5}")  # café: a comment with non-ASCII before code on a later line
KEYS = {"a", "b"}


def pick(item, size=3):
    if type(item) is not dict or set(item) != KEYS:
        raise ValueError("é")
    total = 0
    for value in item["a"][1:size]:
        total += value
    return {"a": item["a"], "b": item["b"], "n": total / 2}
'''


def test_mutants_are_single_changes_that_keep_the_rest_of_the_text():
    mutants = {mutant.key: mutant for mutant in make_mutants(SMALL)}
    expected = {
        "WORDS: '\\\\w{2,5}' -> '\\\\w{1,5}'",
        "KEYS: drop 'a' from {'a', 'b'}",
        "pick: no default for size",
        "pick: type(item) is not dict -> not isinstance(item, dict)",
        "pick: drop set(item) != KEYS from type(item) is not dict or set(item) != KEYS",
        "pick: type(item) is not dict or set(item) != KEYS -> type(item) is not dict and set(item) != KEYS",
        "pick: remove guard `if type(item) is not dict or set(item) != KEYS: raise`",
        "pick: slice upper size -> size + 1",
        "pick: total += value -> total = value",
        "pick: return {'a': item['a'], 'b': item['b'], 'n': total / 2} inside the loop `for value in item['a'][1:size]`",
        "pick: in the value of 'a': item['a'] -> item['b']",
        "pick: in item['a'][1:size]: item['a'] -> item['b']",
        "pick: drop key 'n' from dict",
        "pick: total / 2 -> total // 2",
        "pick: default of size: 3 -> 4",
    }
    assert expected <= set(mutants)
    guard = mutants["pick: remove guard `if type(item) is not dict or set(item) != KEYS: raise`"]
    assert guard.diff(SMALL) == (
        "--- solution.py\n+++ solution.py (mutant)\n@@ -8,4 +8,3 @@\n"
        " def pick(item, size=3):\n"
        "-    if type(item) is not dict or set(item) != KEYS:\n"
        "-        raise ValueError(\"é\")\n"
        "+    pass\n"
        "     total = 0\n"
    )
    # Byte offsets after non-ASCII text land on the right characters; comments stay.
    regex = mutants["WORDS: '\\\\w{2,5}' -> '\\\\w{1,5}'"]
    assert 'WORDS = re.compile(\'\\\\w{1,5}\')  # café: a comment' in regex.source
    assert not any("Module docstring" in key for key in mutants)
    assert len(mutants) == len(make_mutants(SMALL))  # keys are unique


def test_the_checkpoints_a_mutant_reaches_follow_the_names_a_function_uses():
    reached = reached_scopes(SMALL)
    assert reached["pick"] == {"pick", "KEYS"}
    assert reached["WORDS"] == {"WORDS"}


def test_values_compare_with_exact_types():
    assert same_value({"a": [1, 2.5]}, {"a": [1, 2.5]})
    assert not same_value(1, 1.0) and not same_value(1, True) and not same_value([1], (1,))
    assert not same_value({"a": 1, "b": 2}, {"b": 2, "a": 1.0})
    assert same_value(float("nan"), float("nan"))
    assert brief("x" * 50) == "'xxxxxxxxxxxxxxxxxxxxxxxx'+26 chars"
    assert brief([1, 2, 3, 4, 5]) == "[1, 2, 3, ... 5 items]"


# ---- the gate on a lesson with known survivors ----------------------------------------------------


@pytest.fixture
def clamp_lesson(tmp_path) -> Path:
    copy = tmp_path / "mutants-01"
    shutil.copytree(FIXTURES / "mutants-01", copy)
    return copy


def listing(*entries: tuple[str, str]) -> str:
    return "".join(f'\n[[mutant]]\nkey = "{key}"\nreason = "{reason}"\n' for key, reason in entries)


def test_an_unlisted_survivor_is_a_problem_with_its_line_and_diff(clamp_lesson):
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    assert run.problems == [
        f"{clamp_lesson}/solution.py:7: mutant survives clamp: {NOT_EQUIVALENT_KEY}",
        f"{clamp_lesson}/solution.py:9: mutant survives clamp: {EQUIVALENT_KEY}",
    ]
    report = render_mutation_report(run)
    assert "clamp                        6       4           0          2" in report
    assert "count_up                     8       8           0          0" in report
    assert "  differs on clamp(True): reference raises ValueError, mutant returns True" in report
    assert "-    if value > LIMIT:\n+    if value >= LIMIT:\n" in report


def test_mutants_are_graded_against_the_unmutated_reference(clamp_lesson):
    """The tests expect reference.clamp(50): a mutant of LIMIT is killed only because the
    reference keeps LIMIT = 10 while the mutant is graded."""
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    statuses = {result.mutant.key: result.statuses.get("clamp") for result in run.results}
    assert statuses["LIMIT: 10 -> 9"] == "fail" and statuses["LIMIT: 10 -> 11"] == "fail"
    assert "LIMIT = 10" in (clamp_lesson / "solution.py").read_text(encoding="utf-8")


def test_a_mutant_that_loops_forever_is_stopped_by_the_call_time_limit(clamp_lesson):
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    looping = next(result for result in run.results if result.mutant.key == "count_up: index += 1 -> index = 1")
    assert looping.statuses["count_up"] == "timeout"


CHAIN_LESSON = ROOT / "tests" / "fixtures" / "chain" / "checkpoints" / "chain-01"  # word_counts uses words


def test_a_checkpoint_that_uses_one_the_mutant_already_fails_is_not_graded():
    """It cannot survive either way (a pass there is caught upstream, a failure is a kill), and a
    mutant that loops would wait out its time limit once more for it."""
    bundle = load_bundle(CHAIN_LESSON, include_offline=False)
    solution = (CHAIN_LESSON / "solution.py").read_text(encoding="utf-8")
    looping = solution.replace("    return text.lower().split()", "    while True:\n        pass")
    assert looping != solution
    assert grade_fail_fast(bundle, looping, ("words", "word_counts", "longest_line"), CALL_SECONDS) == {
        "words": "timeout", "longest_line": "pass"}
    # Reached alone, it is graded; and the reference run (no selection) grades every checkpoint.
    assert grade_fail_fast(bundle, looping, ("word_counts",), CALL_SECONDS) == {"word_counts": "timeout"}
    assert grade_fail_fast(bundle, looping, None, CALL_SECONDS) == {
        "words": "timeout", "word_counts": "timeout", "longest_line": "pass"}


def test_a_listed_equivalent_mutant_passes_the_gate(clamp_lesson):
    (clamp_lesson / EQUIVALENT_FILE).write_text(listing((EQUIVALENT_KEY, "At LIMIT both return LIMIT.")), encoding="utf-8")
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    assert run.problems == [f"{clamp_lesson}/solution.py:7: mutant survives clamp: {NOT_EQUIVALENT_KEY}"]
    assert [tally.equivalent for tally in run.tallies()] == [1, 0]


def test_a_listing_that_the_differential_run_refutes_is_invalid(clamp_lesson):
    (clamp_lesson / EQUIVALENT_FILE).write_text(
        listing((EQUIVALENT_KEY, "At LIMIT both return LIMIT."), (NOT_EQUIVALENT_KEY, "Looks the same.")), encoding="utf-8")
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    assert run.problems == [
        f"{clamp_lesson}/{EQUIVALENT_FILE}:6: not equivalent, clamp(True) gives returns True instead of raises "
        f"ValueError: '{NOT_EQUIVALENT_KEY}'",
    ]


def test_a_listing_needs_the_inputs_that_can_check_it(clamp_lesson):
    (clamp_lesson / "mutant_inputs.py").unlink()
    (clamp_lesson / EQUIVALENT_FILE).write_text(listing((EQUIVALENT_KEY, "At LIMIT both return LIMIT.")), encoding="utf-8")
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    assert f"{clamp_lesson}/{EQUIVALENT_FILE}:2: cannot be checked without mutant_inputs.py: '{EQUIVALENT_KEY}'" in run.problems


def test_stale_listings_are_problems(clamp_lesson):
    (clamp_lesson / EQUIVALENT_FILE).write_text(
        listing(("LIMIT: 10 -> 9", "Wrong: the tests kill it."), ("clamp: gone", "No such mutant.")), encoding="utf-8")
    run = run_mutation(clamp_lesson, call_seconds=CALL_SECONDS)
    assert f"{clamp_lesson}/{EQUIVALENT_FILE}:6: no such mutant (any more): 'clamp: gone'" in run.problems
    assert f"{clamp_lesson}/{EQUIVALENT_FILE}:2: listed as equivalent, but the tests kill it: 'LIMIT: 10 -> 9'" in run.problems


@pytest.mark.parametrize(("text", "message"), [
    ('\n[[mutant]]\nkey = "x"\n', ":2: a [[mutant]] has exactly a key and a reason (and a file for a correct style)"),
    ('[[mutant]]\nkey = "x"\nreason = ""\n', ":1: key and reason are strings; the reason is one line"),
    ('[[mutant]]\nkey = "x"\nreason = "a"\n[[mutant]]\nkey = "x"\nreason = "b"\n', ":4: mutant listed twice: 'x'"),
    ('mutants = []\n', ":1: unknown top-level key 'mutants' (only [[mutant]] entries)"),
])
def test_a_broken_listing_file_is_one_line_with_its_place(clamp_lesson, text, message):
    (clamp_lesson / EQUIVALENT_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(MutationSetupError) as raised:
        read_equivalent_listings(clamp_lesson)
    assert str(raised.value) == f"{clamp_lesson}/{EQUIVALENT_FILE}{message}"


def test_the_command_exits_1_on_a_survivor_and_0_when_all_are_explained(clamp_lesson, capsys, monkeypatch):
    # The short call limit (as in the tests above): the mutant of count_up that loops forever
    # would otherwise burn the gate's full limit in each of the three runs.
    monkeypatch.setattr(gate_commands, "run_mutation", functools.partial(run_mutation, call_seconds=CALL_SECONDS))
    args = ["mutate", "--lesson", "mutants-01", "--checkpoints-dir", str(clamp_lesson.parent), "--jobs", "1"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == "mutation gate of mutants-01: 2 problems"
    assert f"survives: solution.py: clamp: {EQUIVALENT_KEY}" in captured.out
    (clamp_lesson / EQUIVALENT_FILE).write_text(listing(
        (EQUIVALENT_KEY, "At LIMIT both return LIMIT."),
        (NOT_EQUIVALENT_KEY, "Not really, but the tests of this clamp_lesson leave True out on purpose.")), encoding="utf-8")
    (clamp_lesson / "mutant_inputs.py").write_text(
        "def inputs(checkpoint, rng):\n    return [([3], {}), ([50], {})] if checkpoint == 'clamp' else [([2], {})]\n",
        encoding="utf-8")
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "mutation gate of mutants-01: every mutant is killed or listed as equivalent"
    # Inputs too weak to refute that listing are themselves reported with --check-inputs.
    assert main([*args, "--check-inputs"]) == 1
    assert "mutant_inputs.py: no input tells this killed mutant apart on clamp: clamp: remove guard `if type(value) is not int: raise`" in capsys.readouterr().err


def test_the_differential_run_stops_a_mutant_that_loops_on_an_input(clamp_lesson):
    """It runs in memory-capped workers with the call limit: count_up(2) never ends in this mutant."""
    solution = (clamp_lesson / "solution.py").read_text(encoding="utf-8")
    looping = next(mutant for mutant in make_mutants(solution) if mutant.key == "count_up: index += 1 -> index = 1")
    [found] = differences_in_workers(clamp_lesson, solution, ("clamp", "count_up"), [(looping, ["count_up"])],
                                     jobs=1, call_seconds=CALL_SECONDS)
    assert [(difference.checkpoint, difference.mutant) for difference in found] == [("count_up", "timeout")]


def test_the_worker_memory_cap_counts_from_what_the_parent_already_maps():
    # A pytest worker with a browser driver loaded maps gigabytes; a cap of the whole address
    # space would leave a forked worker no room, and every mutant would "fail" for that alone.
    fixture = FIXTURES / "mutants-01"
    plain = run_mutation(fixture)
    reserve = mmap.mmap(-1, 3 << 30)  # address space only: never touched
    try:
        crowded = run_mutation(fixture)
    finally:
        reserve.close()
    assert crowded.problems == plain.problems
    assert [result.statuses for result in crowded.results] == [result.statuses for result in plain.results]


def test_a_mutant_that_shares_one_list_between_chunks_is_not_the_same_outcome():
    """The tests can see it (expect_no_shared_objects), so the differential run must too: equal
    values, but the second chunk's headings is the first chunk's list."""
    value = [{"headings": ["a"]}, {"headings": ["a"]}]
    reference = CallOutcome(kind="return", value=value, args_after=[], kwargs_after={})
    sharing = CallOutcome(kind="return", value=value, args_after=[], kwargs_after={}, shared_paths=((1, "headings"),))
    assert same_outcome(reference, reference)
    assert not same_outcome(reference, sharing)
