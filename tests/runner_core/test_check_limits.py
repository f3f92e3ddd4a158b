"""runner.core.grade's check limits: a checkpoint's shipped tests share the page's check limit,
counted in the grading process around each call (the offline grader passes them)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost

MINI_LESSON = Path(__file__).resolve().parents[1] / "runner_offline" / "lessons" / "mini-01"
CORRECT = '''
import time

def double(x):
    time.sleep(SLEEP)
    return 2 * x

def words(text):
    return text.split()

def total(numbers):
    return sum(numbers)
'''


@pytest.fixture(scope="module")
def bundle():
    return load_bundle(MINI_LESSON, include_offline=False)


def graded(bundle, sleep: float, limits):
    return grade(bundle, InProcessHost(call_timeout=10), CORRECT.replace("SLEEP", str(sleep)), check_limits=limits)


def test_within_the_limit_nothing_changes(bundle):
    report = graded(bundle, 0.0, bundle.check_limits())
    assert [checkpoint.status for checkpoint in report.checkpoints] == ["pass", "pass", "pass"]


def test_calls_that_together_take_too_long_are_a_timeout_with_the_limit_named(bundle):
    # double's 3 tests make 5 calls of 0.15 s: 0.75 s together, over 0.5 s; each call is far below 10 s.
    report = graded(bundle, 0.15, {"double": 0.5, "words": 5, "total": 5})
    double = report.checkpoints[0]
    assert [(test.name, test.status) for test in double.tests] == [
        ("voorbeeld: double(2)", "pass"), ("negatieve getallen", "timeout"), ("grote getallen", "timeout")]
    assert double.tests[1].message == (
        "double was te traag: de tests van dit checkpoint mogen samen 0.5 seconden rekenen, net als in de browser.")
    assert [checkpoint.status for checkpoint in report.checkpoints[1:]] == ["pass", "pass"]


def test_without_check_limits_only_the_call_limit_counts(bundle):
    report = graded(bundle, 0.15, None)
    assert report.checkpoints[0].status == "pass"


def test_offline_only_tests_are_not_counted(bundle):
    # As if double's last two tests were offline-only: the page never runs them, so only the
    # example's one call (0.15 s) counts against 0.3 s.
    specs = list(bundle.checkpoints)
    specs[0] = dataclasses.replace(specs[0], shipped_test_count=1)
    offline = dataclasses.replace(bundle, checkpoints=tuple(specs))
    report = graded(offline, 0.15, {"double": 0.3, "words": 5, "total": 5})
    assert report.checkpoints[0].status == "pass"
    assert graded(bundle, 0.15, {"double": 0.3, "words": 5, "total": 5}).checkpoints[0].status == "timeout"
