"""Known mistakes caught for the right reason, and one line per root cause (issue 24, parts 3 and 4).

A known-wrong file names the test that must catch it (`# caught by: <test name>` in its header);
the quality gate refuses one that is caught by another test only, or by a crash, a recursion limit
or a time-out it does not name (`# ends in: ...`). A lesson whose tests cannot be trusted at all (a
checkpoint without tests, a test module that does not load, a reference that fails its own test)
gets one line naming the cause, in the gate, the mutation gate and the build alike.
On a copy of the chain-01 fixture (tests/fixtures/chain/).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.offline.cli import main
from runner.offline.gates.quality_gate import check_quality_gate

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ROOT / "tests" / "fixtures" / "chain"


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(CHAIN, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def lesson(project) -> Path:
    return project / "checkpoints" / "chain-01"


def write_wrong(lesson: Path, name: str, header: str, body: str) -> Path:
    path = lesson / "wrong" / name
    path.write_text(header + "\n\n" + body, encoding="utf-8")
    return path


TIE_TEST = "bij gelijke lengte de eerste"
# Passes the example ("een\ndrie\ntwee"), fails only on the tie ("ab\ncd\ne"), each in its own way.
CRASHES = "def longest_line(text):\n    return 1 / 0 if text.startswith('ab') else max(text.splitlines(), key=len)\n"
RECURSES = ("def longest_line(text):\n    return longest_line(text) if text.startswith('ab') "
            "else max(text.splitlines(), key=len)\n")
LOOPS = ("def longest_line(text):\n    while text.startswith('ab'):\n        pass\n"
         "    return max(text.splitlines(), key=len)\n")
LAST_ON_TIE = "def longest_line(text):\n    return sorted(text.splitlines(), key=len)[-1]\n"
# Fails the example only (a long text), not the tie.
EMPTY_WHEN_LONG = "def longest_line(text):\n    return max(text.splitlines(), key=len) if len(text) < 10 else ''\n"


def gate_lines(lesson: Path, call_seconds: float = 2.0) -> list[str]:
    return [f"{failure.path.name}: {failure.reason}" for failure in check_quality_gate(lesson, call_seconds)]


def test_a_mistake_caught_by_the_test_it_names_passes_the_gate_in_either_header_order(lesson):
    write_wrong(lesson, "longest_line__last.py", f"# after: solution.py\n# caught by: {TIE_TEST}", LAST_ON_TIE)
    write_wrong(lesson, "longest_line__last_again.py", f"# caught by: {TIE_TEST}\n# after: solution.py", LAST_ON_TIE)
    assert gate_lines(lesson) == []


def test_a_mistake_caught_by_a_crash_it_does_not_name_is_refused(lesson):
    write_wrong(lesson, "longest_line__crashes.py", f"# after: solution.py\n# caught by: {TIE_TEST}", CRASHES)
    assert gate_lines(lesson) == [
        "longest_line__crashes.py: should be caught by test 'bij gelijke lengte de eerste', but is caught by a "
        "crash (ZeroDivisionError) it does not name ('# ends in: ...'): test 'bij gelijke lengte de eerste' "
        "(error): longest_line gaf een onverwachte fout: ZeroDivisionError: division by zero (regel 20).",
    ]


def test_a_crash_the_header_names_is_accepted(lesson):
    write_wrong(lesson, "longest_line__crashes.py",
                f"# after: solution.py\n# caught by: {TIE_TEST}\n# ends in: ZeroDivisionError", CRASHES)
    assert gate_lines(lesson) == []


def test_a_mistake_caught_by_a_recursion_limit_it_does_not_name_is_refused(lesson):
    write_wrong(lesson, "longest_line__recurses.py", f"# after: solution.py\n# caught by: {TIE_TEST}", RECURSES)
    (line,) = gate_lines(lesson)
    assert line.startswith("longest_line__recurses.py: should be caught by test 'bij gelijke lengte de eerste', "
                           "but is caught by a crash (RecursionError) it does not name ('# ends in: ...'): ")


def test_a_mistake_caught_by_a_time_out_it_does_not_name_is_refused(lesson):
    # 1 s per call: the limit also times each known solution's loading, which took over 0.3 s
    # on a busy CI machine.
    write_wrong(lesson, "longest_line__loops.py", f"# after: solution.py\n# caught by: {TIE_TEST}", LOOPS)
    assert gate_lines(lesson, call_seconds=1.0) == [
        "longest_line__loops.py: should be caught by test 'bij gelijke lengte de eerste', but is caught by a "
        "time-out it does not name ('# ends in: ...'): test 'bij gelijke lengte de eerste' (timeout): "
        "longest_line was niet binnen de tijdslimiet klaar (een oneindige lus?).",
    ]
    write_wrong(lesson, "longest_line__loops.py",
                f"# after: solution.py\n# caught by: {TIE_TEST}\n# ends in: time-out", LOOPS)
    assert gate_lines(lesson, call_seconds=1.0) == []


def test_a_mistake_stopped_before_the_test_it_names_says_what_stopped_it(lesson):
    # Not "no shipped test of that name": the test exists, the grader's signature check ran first.
    write_wrong(lesson, "longest_line__two_arguments.py", f"# after: solution.py\n# caught by: {TIE_TEST}",
                "def longest_line(text, width):\n    return max(text.splitlines(), key=len)\n")
    assert gate_lines(lesson) == [
        "longest_line__two_arguments.py: should be caught by test 'bij gelijke lengte de eerste', but the "
        "checkpoint stopped before it: test 'functie en parameters' (error): longest_line moet aan te roepen "
        "zijn als longest_line(text); de parameters van jouw functie passen daar niet bij.",
    ]


def test_a_mistake_caught_only_by_another_test_is_refused(lesson):
    write_wrong(lesson, "longest_line__empty_when_long.py", f"# after: solution.py\n# caught by: {TIE_TEST}",
                EMPTY_WHEN_LONG)
    assert gate_lines(lesson) == [
        "longest_line__empty_when_long.py: should be caught by test 'bij gelijke lengte de eerste', but that test "
        "passes; caught only by test 'voorbeeld: drie regels' (fail): De langste regel van het voorbeeld klopt niet.",
    ]


def test_a_mistake_that_names_no_test_or_an_unknown_one_is_refused(lesson):
    write_wrong(lesson, "longest_line__last.py", "# after: solution.py", LAST_ON_TIE)
    write_wrong(lesson, "longest_line__last_again.py", "# after: solution.py\n# caught by: gelijke lengte",
                LAST_ON_TIE)
    assert gate_lines(lesson) == [
        "longest_line__last.py: names no test that must catch it: add a header line "
        "'# caught by: <test name>' (now: 'voorbeeld: drie regels')",
        "longest_line__last_again.py: '# caught by: gelijke lengte': checkpoint longest_line has no shipped "
        "test of that name",
    ]


def test_the_verbose_gate_prints_the_deciding_test_of_each_known_solution(project, capsys):
    assert main(["gate", "--lesson", "chain-01", "--checkpoints-dir", str(project / "checkpoints"), "--verbose"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "solution.py: passes",
        "correct/with_counter.py: passes",
        "wrong/longest_line__last_on_tie.py: longest_line: 'voorbeeld: drie regels' (fail): "
        "De langste regel van het voorbeeld klopt niet.",
        "wrong/word_counts__returns_counter.py: word_counts: 'voorbeeld: de kat en de hond' (fail): "
        "Je functie word_counts gaf een Counter terug; geef een gewone dict terug.",
        "wrong/words__keeps_capitals.py: words: 'voorbeeld: De kat en de hond' (fail): "
        "De woorden van het voorbeeld kloppen niet.",
        "quality gate of chain-01: all 5 known solutions get their known verdict",
    ]


# ---- one root cause, one line ---------------------------------------------------------------------


def no_tests_for_longest_line(lesson: Path) -> str:
    (lesson / "tests" / "longest_line.py").unlink()
    return "checkpoints/chain-01/tests/longest_line.py: checkpoint longest_line has no tests"


def break_test_module_loading(lesson: Path) -> str:
    path = lesson / "tests" / "words.py"
    path.write_text(path.read_text(encoding="utf-8").replace("SIGNATURE = ", "SIGNATURE = undefined_name or "),
                    encoding="utf-8")
    return ("checkpoints/chain-01/tests/words.py:3: the tests cannot be loaded: "
            "NameError: name 'undefined_name' is not defined")


def reference_fails_its_test(lesson: Path) -> str:
    path = lesson / "solution.py"
    path.write_text(path.read_text(encoding="utf-8").replace('key=len, default="")', 'key=len, default="")[:3]'),
                    encoding="utf-8")
    return ("checkpoints/chain-01/tests/longest_line.py:6: solution.py fails its own test of longest_line: "
            "test 'voorbeeld: drie regels' (fail): De langste regel van het voorbeeld klopt niet. "
            "[expected 'drie', got 'dri']")


ROOT_CAUSES = [no_tests_for_longest_line, break_test_module_loading, reference_fails_its_test]


def shown(project: Path, text: str) -> list[str]:
    return text.replace(f"{project}/", "").splitlines()


@pytest.mark.parametrize("break_lesson", ROOT_CAUSES, ids=lambda function: function.__name__)
def test_one_root_cause_is_one_line_in_the_gate_and_the_mutation_gate(project, lesson, break_lesson, capsys):
    expected = break_lesson(lesson)
    checkpoints = str(project / "checkpoints")
    assert main(["gate", "--lesson", "chain-01", "--checkpoints-dir", checkpoints]) == 1
    gate = capsys.readouterr()
    assert main(["mutate", "--lesson", "chain-01", "--checkpoints-dir", checkpoints, "--jobs", "1"]) == 1
    mutate = capsys.readouterr()
    if break_lesson is break_test_module_loading:  # the runner's own words for a lesson it cannot load
        assert shown(project, gate.err) == [f"error: the tests of this lesson cannot be loaded: "
                                            f"{expected.removeprefix('checkpoints/chain-01/').replace(': the tests cannot be loaded', '')}"]
    else:
        assert (gate.out, shown(project, gate.err)) == ("", [expected])
    assert (mutate.out, shown(project, mutate.err)) == ("", [f"error: {expected}"])


@pytest.mark.slow
@pytest.mark.parametrize("break_lesson", ROOT_CAUSES, ids=lambda function: function.__name__)
def test_one_root_cause_is_one_line_in_the_build(project, lesson, break_lesson):
    expected = break_lesson(lesson)
    run = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(project)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [expected]
