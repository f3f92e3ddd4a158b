"""Gradebook and report from result objects: formulas stay text, learner strings stay text."""

from __future__ import annotations

import csv
import io

import pytest

from runner.gradebook import gradebook_csv, latest_per_learner, safe_cell
from runner.report import CheckpointInfo, render_report


def result(learner: str, path: str, statuses: dict[str, str], **extra) -> dict:
    checkpoints = [
        {"id": cid, "status": status,
         "tests": [{"name": f"{cid} test", "status": status, "message": extra.get("why", ""),
                    "duration_ms": 1.0}]}
        for cid, status in statuses.items()
    ]
    return {
        "submission": path, "learner": learner, "lesson": "mini-01", "status": "graded",
        "score": sum(s == "pass" for s in statuses.values()), "max_score": len(statuses),
        "checkpoints": checkpoints, **{k: v for k, v in extra.items() if k != "why"},
    }


@pytest.mark.parametrize(("value", "cell"), [
    ("=1+1", "'=1+1"), ("+31 6", "'+31 6"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("Anna", "Anna"), (3, "3"), (None, ""),
])
def test_cells_that_a_spreadsheet_would_evaluate_become_text(value, cell):
    assert safe_cell(value) == cell


def test_latest_submission_per_learner_wins():
    old = result("noor", "/c/a.json", {"double": "fail"}, created_at="2026-11-01T10:00:00Z")
    new = result("noor", "/c/b.json", {"double": "pass"}, created_at="2026-11-02T10:00:00Z")
    other = result("Anna", "/c/anna.py", {"double": "pass"})
    assert latest_per_learner([new, other, old]) == [(other, 1), (new, 2)]


def test_gradebook_columns_follow_the_lesson():
    rows = list(csv.reader(io.StringIO(gradebook_csv(
        [result("-evil", "/c/e.py", {"double": "pass", "words": "timeout"})], ["double", "words"]))))
    assert rows == [
        ["learner", "submission", "status", "score", "max_score", "double", "words", "submissions", "message"],
        ["'-evil", "/c/e.py", "graded", "1", "2", "pass", "timeout", "1", ""],
    ]


def test_report_escapes_names_messages_and_reasons():
    graded = result('"><b>x</b>', "/c/x.py", {"double": "fail"}, why="<i>waarom</i>",
                    browser_verdicts={"double": "<u>pass</u>"})
    invalid = {"submission": "/c/<s>.py", "learner": "<s>", "lesson": "mini-01", "status": "invalid",
               "message": "syntax error on line 1: <bad>", "score": 0, "max_score": 1, "checkpoints": []}
    page = render_report([graded, invalid], "mini-01", [CheckpointInfo("double", "Verdubbelen")],
                         "0.1.0", "ab" * 32, "2026-11-30T10:00:00+00:00")
    for raw in ("<b>x</b>", "<i>waarom</i>", "<u>pass</u>", "<s>", "<bad>"):
        assert raw not in page
    assert "&quot;&gt;&lt;b&gt;x&lt;/b&gt;" in page
    assert "&lt;i&gt;waarom&lt;/i&gt;" in page
    assert "syntax error on line 1: &lt;bad&gt;" in page
    assert "0% (0/1)" in page  # the pass-rate bar of the one graded submission
