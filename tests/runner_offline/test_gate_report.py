"""The quality gate's report to the builder (runner.offline.gates.gate_report): one typed record
both ends import, and the shipped bundle the gate verified, which the build carries on instead
of executing the lesson again."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from builder.verify_checkpoints import gate_errors
from runner.core.bundle import load_bundle
from runner.offline.gates.gate_report import (
    GateFailureRecord,
    GateReport,
    GateReportError,
    LoadErrorRecord,
    VerifiedBundle,
)
from runner.offline.gates.quality_gate import shipped_part

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(path.parent.name for path in (ROOT / "checkpoints").glob("*/checkpoints.toml"))
LESSON = SimpleNamespace(checkpoints_shown_dir="checkpoints/les-01", checkpoints_dir=Path("/nowhere/les-01"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_shipped_part_of_the_full_bundle_is_what_a_fresh_load_gives(lesson):
    """The gate loads a lesson once; the part it reports as shipped is exactly what the browser gets."""
    lesson_dir = ROOT / "checkpoints" / lesson
    derived = shipped_part(load_bundle(lesson_dir, include_offline=True), lesson_dir)
    fresh = load_bundle(lesson_dir, include_offline=False)
    assert (derived.bundle_sha256, derived.files, derived.include_offline) == (
        fresh.bundle_sha256, fresh.files, fresh.include_offline)
    assert [(spec.id, [test.name for test in spec.tests], spec.shipped_test_count) for spec in derived.checkpoints] == [
        (spec.id, [test.name for test in spec.tests], spec.shipped_test_count) for spec in fresh.checkpoints]


def test_a_report_reads_back_as_it_was_written():
    report = GateReport(
        "les-01", known_solutions=3,
        failures=[GateFailureRecord("wrong/words__upper.py", "words", "known to be wrong, but passes checkpoint words",
                                    checkpoint="words", status="pass")],
        verified=VerifiedBundle("ab" * 32, ("solution.py", "tests/words.py")))
    assert GateReport.from_json(report.to_json()) == report
    broken = GateReport("les-01", load_error=LoadErrorRecord("tests/words.py:1: SyntaxError: x", "tests/words.py", 1, "x"))
    assert GateReport.from_json(broken.to_json()) == broken
    assert not broken.passed and not report.passed and GateReport("les-01", verified=report.verified).passed


@pytest.mark.parametrize("text, problem", [
    ("[]", "report: not an object"),
    ('{"lesson": "x", "known_solutions": 1}', "report.failures: not a list"),
    ('{"lesson": "x", "known_solutions": 1, "failures": [{"path": "a.py", "expected": 3}]}',
     "failures[0].expected: not a str"),
    ('{"lesson": "x", "known_solutions": 0, "failures": [], "verified": {"bundle_sha256": "0", "files": ["../x.py"]}}',
     "verified.files: a name outside the lesson's folder"),
])
def test_a_report_that_is_off_names_the_field(text, problem):
    with pytest.raises(GateReportError) as raised:
        GateReport.from_json(text)
    assert str(raised.value) == problem


def test_a_gate_that_broke_says_why_in_its_report_and_the_build_shows_that_line():
    report = GateReport("les-01", crash="the sandbox could not be set up: no cgroup")
    completed = subprocess.CompletedProcess([], 1, stdout=report.to_json(), stderr="Traceback (most recent call last):\n")
    assert [str(error) for error in gate_errors(LESSON, completed)] == [
        "checkpoints/les-01: quality gate: the sandbox could not be set up: no cgroup"]


def test_the_build_names_each_failure_by_the_teachers_path():
    failure = GateFailureRecord("tests/words.py", "pass", "solution.py fails its own test of words", line=7)
    completed = subprocess.CompletedProcess([], 1, stdout=GateReport("les-01", 1, [failure, replace(failure, line=None)]).to_json())
    assert [str(error) for error in gate_errors(LESSON, completed)] == [
        "checkpoints/les-01/tests/words.py:7: solution.py fails its own test of words",
        "checkpoints/les-01/tests/words.py: solution.py fails its own test of words"]
