"""Checkpoints that build on each other (issue 9, part 3), on the fixture lesson chain-01.

In tests/fixtures/chain/, `word_counts` uses `words` (checkpoints.toml `uses`), and
`longest_line` stands alone. A known-wrong `words` fails `word_counts` too, which the gate
accepts; anything else it breaks is a failure, said with the test, its message and the difference.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.core import web
from runner.core.bundle import BundleError, load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.gates.quality_gate import check_quality_gate, known_solutions

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS = ROOT / "tests" / "fixtures" / "chain" / "checkpoints"
LESSON_DIR = CHECKPOINTS / "chain-01"
USES_NOTE = "Checkpoint words, die deze checkpoint gebruikt, slaagt nog niet: los die eerst op."


@pytest.fixture
def lesson(tmp_path) -> Path:
    """A copy of chain-01 to add known solutions to."""
    copy = tmp_path / "checkpoints" / "chain-01"
    shutil.copytree(LESSON_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def composed(name: str) -> str:
    return next(known.source for known in known_solutions(LESSON_DIR) if known.path.name == name)


def test_uses_reaches_the_bundle_with_its_closure_both_ways():
    bundle = load_bundle(LESSON_DIR)
    assert [spec.uses for spec in bundle.checkpoints] == [(), ("words",), ()]
    assert bundle.used_by_closure("word_counts") == ("words",)
    assert bundle.dependents("words") == ("word_counts",)
    assert bundle.dependents("longest_line") == ()


def test_a_wrong_first_checkpoint_may_fail_the_one_that_uses_it():
    report = grade(load_bundle(LESSON_DIR, include_offline=False), InProcessHost(call_timeout=2),
                   composed("words__keeps_capitals.py"))
    assert report.statuses() == {"words": "fail", "word_counts": "fail", "longest_line": "pass"}
    assert check_quality_gate(LESSON_DIR) == []


def test_without_uses_the_same_chain_stops_the_gate(lesson):
    toml = lesson / "checkpoints.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('uses = ["words"]\n', ""), encoding="utf-8")
    assert [failure.reason for failure in check_quality_gate(lesson)] == [
        "should fail only words, but also fails word_counts: test 'hetzelfde woord met en zonder hoofdletter' "
        "(fail): Een woord met en zonder hoofdletters is hetzelfde woord. [at ['kat']: expected 3, got 1]"]


def test_a_wrong_solution_that_breaks_an_unrelated_checkpoint_stops_the_gate(lesson):
    breaks_more = lesson / "wrong" / "words__also_breaks_lines.py"
    breaks_more.write_text("# after: solution.py\n# caught by: voorbeeld: De kat en de hond\n\ndef words(text):\n    return text.split()\n\n\n"
                           "def longest_line(text):\n    return text.splitlines()[0]\n", encoding="utf-8")
    failures = check_quality_gate(lesson)
    assert [(failure.path.name, failure.reason) for failure in failures] == [(
        "words__also_breaks_lines.py",
        "should fail only words and what uses it (word_counts), but also fails longest_line: "
        "test 'voorbeeld: drie regels' (fail): De langste regel van het voorbeeld klopt niet. "
        "[expected 'drie', got 'een']")]
    failure = failures[0]
    assert (failure.expected, failure.checkpoint, failure.test, failure.status) == (
        "words", "longest_line", "voorbeeld: drie regels", "fail")
    assert (failure.expected_value, failure.actual_value) == ("'drie'", "'een'")


def test_a_correct_solution_that_fails_says_which_test_and_where_it_differs_hidden_tests_too(lesson):
    (lesson / "correct" / "counts_twice.py").write_text(
        "# after: solution.py\n\ndef word_counts(text):\n    counts = {}\n    for word in words(text):\n"
        "        counts[word] = counts.get(word, 0) + 1\n    counts[word] += 1\n    return counts\n",
        encoding="utf-8")
    failures = check_quality_gate(lesson)
    # Every failing checkpoint is listed, each with its first failing test (here a hidden one).
    assert [failure.reason for failure in failures] == [
        "should pass but fails word_counts: test 'voorbeeld: de kat en de hond' (fail): "
        "De tellingen van het voorbeeld kloppen niet. [at ['hond']: expected 1, got 2]"]
    (lesson / "correct" / "counts_twice.py").write_text(
        "# after: solution.py\n\ndef word_counts(text):\n    counts = {}\n    for word in text.split():\n"
        "        counts[word] = counts.get(word, 0) + 1\n    return counts\n", encoding="utf-8")
    assert [failure.reason for failure in check_quality_gate(lesson)] == [
        "should pass but fails word_counts: test 'hetzelfde woord met en zonder hoofdletter' (fail): "
        "Een woord met en zonder hoofdletters is hetzelfde woord. [at ['kat']: expected 3, got 1]"]


def test_a_test_that_crashes_is_explained_to_the_teacher(lesson):
    tests = lesson / "tests" / "longest_line.py"
    tests.write_text(tests.read_text(encoding="utf-8") + (
        '\n\n@test("longest_line", "kapotte test")\ndef broken(learner):\n    learner.longest_line("a").upper(1)\n'),
        encoding="utf-8")
    line = len(tests.read_text(encoding="utf-8").splitlines())
    # The reference fails its own test: one root cause, told once, at the test's definition
    # (no known solution is judged against tests that fail the reference).
    assert [(failure.path, failure.line, failure.reason) for failure in check_quality_gate(lesson)] == [(
        tests, line - 2,
        "solution.py fails its own test of longest_line: test 'kapotte test' (error): De test zelf kon niet worden "
        "uitgevoerd (TypeError); meld dit aan je docent. [the test raised TypeError: "
        f"str.upper() takes no arguments (1 given) at longest_line.py:{line}]")]


def run_gate_command(checkpoints: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner", "gate", "--lesson", "chain-01",
                           "--checkpoints-dir", str(checkpoints), *options],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_gate_answers_in_json_one_record_per_failure(lesson):
    (lesson / "wrong" / "longest_line__passes.py").write_text("# after: solution.py\n", encoding="utf-8")
    (lesson / "correct" / "forgets_lower.py").write_text(
        "# after: solution.py\n\ndef words(text):\n    return text.split()\n", encoding="utf-8")
    completed = run_gate_command(lesson.parent, "--json")
    assert completed.returncode == 1 and completed.stderr == ""
    answer = json.loads(completed.stdout)
    assert (answer["lesson"], answer["known_solutions"], answer["load_error"]) == ("chain-01", 7, None)
    assert answer["failures"] == [
        {"path": "correct/forgets_lower.py", "expected": "pass", "line": None,
         "reason": "should pass but fails words: test 'voorbeeld: De kat en de hond' (fail): "
                   "De woorden van het voorbeeld kloppen niet. [at [0]: expected 'de', got 'De']",
         "checkpoint": "words", "test": "voorbeeld: De kat en de hond", "status": "fail",
         "message": "De woorden van het voorbeeld kloppen niet.",
         "expected_value": "['de', 'kat', 'en', 'de', 'hond']", "actual_value": "['De', 'kat', 'en', 'de', 'hond']",
         "difference": "at [0]: expected 'de', got 'De'"},
        {"path": "correct/forgets_lower.py", "expected": "pass", "line": None,
         "reason": "should pass but fails word_counts: test 'hetzelfde woord met en zonder hoofdletter' (fail): "
                   "Een woord met en zonder hoofdletters is hetzelfde woord. [at ['kat']: expected 3, got 1]",
         "checkpoint": "word_counts", "test": "hetzelfde woord met en zonder hoofdletter", "status": "fail",
         "message": "Een woord met en zonder hoofdletters is hetzelfde woord.",
         "expected_value": "{'kat': 3, 'hond': 1}", "actual_value": "{'Kat': 1, 'kat': 1, 'KAT': 1, 'hond': 1}",
         "difference": "at ['kat']: expected 3, got 1"},
        {"path": "wrong/longest_line__passes.py", "expected": "longest_line", "line": None,
         "reason": "known to be wrong, but passes checkpoint longest_line",
         "checkpoint": "longest_line", "test": None, "status": "pass", "message": "",
         "expected_value": None, "actual_value": None, "difference": None},
    ]
    # The same failures for people, one line each, naming the files.
    human = run_gate_command(lesson.parent)
    assert human.returncode == 1
    assert human.stderr.splitlines() == [
        f"{lesson}/correct/forgets_lower.py: {answer['failures'][0]['reason']}",
        f"{lesson}/correct/forgets_lower.py: {answer['failures'][1]['reason']}",
        f"{lesson}/wrong/longest_line__passes.py: {answer['failures'][2]['reason']}",
        "quality gate of chain-01: 2 of 7 known solutions are off",
    ]


def test_the_gate_in_json_names_a_test_file_that_cannot_be_loaded(lesson):
    (lesson / "tests" / "words.py").write_text("def (\n", encoding="utf-8")
    completed = run_gate_command(lesson.parent, "--json")
    assert completed.returncode == 1
    assert json.loads(completed.stdout)["load_error"] == {
        "file": "tests/words.py", "line": 1, "reason": "SyntaxError: invalid syntax",
        "text": "tests/words.py:1: SyntaxError: invalid syntax"}


@pytest.mark.parametrize("uses, problem", [
    ('"words"', "checkpoint 2 'uses' must be a list of checkpoint ids, got 'words'"),
    ('["longest_line"]', "checkpoint 2 uses 'longest_line', which must be listed before it"),
    ('["word_counts"]', "checkpoint 2 uses itself"),
])
def test_the_runner_refuses_uses_that_are_not_earlier_checkpoints(lesson, uses, problem):
    # The runner reads checkpoints.toml with the builder's reader (runner.core.lesson_config): same messages.
    toml = lesson / "checkpoints.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('uses = ["words"]', f"uses = {uses}"), encoding="utf-8")
    line = toml.read_text(encoding="utf-8").splitlines().index(f"uses = {uses}") + 1
    with pytest.raises(BundleError) as raised:
        load_bundle(lesson)
    assert str(raised.value) == f"{toml}:{line}: {problem}"
    assert (raised.value.file, raised.value.line, raised.value.reason) == ("checkpoints.toml", line, problem)


# ---- what the learner is told ------------------------------------------------------------


def test_the_page_notes_a_used_checkpoint_that_fails_and_only_then():
    answer = web.check(composed("words__keeps_capitals.py"), str(LESSON_DIR), only=["word_counts", "longest_line"])
    counts, lines = answer["checkpoints"]
    assert (counts["status"], counts["uses_failing"], counts["note"]) == ("fail", ["words"], USES_NOTE)
    assert counts["message"] == "Een woord met en zonder hoofdletters is hetzelfde woord."
    assert (lines["status"], lines["uses_failing"], lines["note"]) == ("pass", [], "")
    # word_counts itself wrong while words is right: no note, the cause is word_counts.
    own_mistake = composed("word_counts__returns_counter.py")
    (counts,) = web.check(own_mistake, str(LESSON_DIR), only=["word_counts"])["checkpoints"]
    assert (counts["status"], counts["uses_failing"], counts["note"]) == ("fail", [], "")


def test_a_whole_grading_marks_the_dependent_checkpoint():
    report = grade(load_bundle(LESSON_DIR), InProcessHost(call_timeout=2), composed("words__keeps_capitals.py"))
    assert [result.uses_failing for result in report.checkpoints] == [(), ("words",), ()]
    assert report.to_json()["checkpoints"][1]["uses_failing"] == ["words"]
    assert "uses_failing" not in report.to_json()["checkpoints"][0]


def test_a_missing_function_gets_no_note_its_absence_is_the_cause():
    source = "def words(text):\n    return text.split()\n\n\ndef longest_line(text):\n    return text\n"
    report = grade(load_bundle(LESSON_DIR), InProcessHost(call_timeout=2), source)
    assert report.checkpoint("word_counts").status == "error"
    assert report.checkpoint("word_counts").uses_failing == ()


def test_runner_check_prints_the_note_under_the_dependent_checkpoint(tmp_path):
    main = tmp_path / "main.py"
    main.write_text(composed("words__keeps_capitals.py"), encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "runner", "check", str(main), "--lesson", "chain-01",
                                "--checkpoints-dir", str(CHECKPOINTS)],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 1, completed.stderr
    lines = completed.stdout.splitlines()
    counts = lines.index("✗ word_counts — Woorden tellen  niet gehaald, 1/2 tests")
    assert lines[counts + 1:counts + 3] == [
        "    hetzelfde woord met en zonder hoofdletter: Een woord met en zonder hoofdletters is hetzelfde woord.",
        f"    {USES_NOTE}",
    ]
    assert lines.count(f"    {USES_NOTE}") == 1


def test_the_teachers_report_shows_the_note_the_learner_got(tmp_path):
    submissions = tmp_path / "klas"
    submissions.mkdir()
    (submissions / "anna.py").write_text(composed("words__keeps_capitals.py"), encoding="utf-8")
    out = tmp_path / "graded"
    completed = subprocess.run([sys.executable, "-m", "runner", "grade", "--lesson", "chain-01",
                                "--checkpoints-dir", str(CHECKPOINTS), str(submissions), "--out", str(out), "--jobs", "1"],
                               cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    (record,) = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [checkpoint.get("uses_failing") for checkpoint in record["checkpoints"]] == [None, ["words"], None]
    report = (out / "report.html").read_text(encoding="utf-8")
    assert f'<li><b>word_counts</b><span class="why">{USES_NOTE}</span></li>' in report
    # Run again: the record is read back (resumed), note and all, not refused as unreadable.
    again = subprocess.run(completed.args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "unreadable" not in again.stderr, again.stderr
    assert "0 new this run, 1 kept from an earlier run" in again.stdout
    assert f'<li><b>word_counts</b><span class="why">{USES_NOTE}</span></li>' in (out / "report.html").read_text(
        encoding="utf-8")


def test_a_correct_solution_that_returns_a_counter_is_told_to_return_a_dict(lesson):
    (lesson / "correct" / "counter.py").write_text(
        "# after: solution.py\nfrom collections import Counter\n\n\ndef word_counts(text):\n"
        "    return Counter(words(text))\n", encoding="utf-8")
    assert [failure.reason for failure in check_quality_gate(lesson)] == [
        "should pass but fails word_counts: test 'voorbeeld: de kat en de hond' (fail): "
        "Je functie word_counts gaf een Counter terug; geef een gewone dict terug."]
