"""Gradebook and report from result records: formulas stay text, learner strings stay text."""

from __future__ import annotations

import csv
import io
import re

import pytest

from runner.offline.grading.records import CheckpointRecord, ResultRecord, TestRecord
from runner.offline.outputs.class_view import latest_per_learner
from runner.offline.outputs.feedback import feedback_file_name, feedback_file_names
from runner.offline.outputs.gradebook import gradebook_csv, safe_cell
from runner.offline.outputs.report import CheckpointInfo, ReportInputs, render_report

ENGLISH = ReportInputs(language="en")

RECORDED = {"runner_version": "0.1.0", "bundle_sha256": "ab" * 32, "graded_at": "2026-11-30T10:00:00+00:00"}


def result(learner: str, path: str, statuses: dict[str, str], why: str = "", test_name: str | None = None,
           **extra) -> ResultRecord:
    checkpoints = tuple(
        CheckpointRecord(cid, status, (TestRecord(test_name or f"{cid} test", status, why, 1.0),))
        for cid, status in statuses.items()
    )
    return ResultRecord(
        submission=path, learner=learner, lesson="mini-01", status="graded",
        score=sum(s == "pass" for s in statuses.values()), max_score=len(statuses),
        code_sha256=None, source_sha256="", checkpoints=checkpoints, **RECORDED, **extra,
    )


def invalid(learner: str, path: str, message: str, max_score: int = 1) -> ResultRecord:
    return ResultRecord(submission=path, learner=learner, lesson="mini-01", status="invalid", score=0,
                        max_score=max_score, code_sha256=None, source_sha256="", message=message, **RECORDED)


@pytest.mark.parametrize(("value", "cell"), [
    ("=1+1", "'=1+1"), ("+31 6", "'+31 6"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "\\u0009x"), ("\rx", "\\u000dx"), ("Anna", "Anna"), (3, "3"), (None, ""),
    ("Anna\u202egnp.exe", "Anna\\u202egnp.exe"), ("a\x1b[31mb", "a\\u001b[31mb"), ("x\u2066y\u2069", "x\\u2066y\\u2069"),
    ("=\u202e", "'=\\u202e"),
])
def test_cells_that_a_spreadsheet_would_evaluate_become_text(value, cell):
    assert safe_cell(value) == cell


def test_latest_submission_per_learner_wins():
    old = result("noor", "/c/a.json", {"double": "fail"}, created_at="2026-11-01T10:00:00Z")
    new = result("noor", "/c/b.json", {"double": "pass"}, created_at="2026-11-02T10:00:00Z")
    other = result("Anna", "/c/anna.py", {"double": "pass"})
    assert latest_per_learner([new, other, old]) == [(other, 1), (new, 2)]


def test_gradebook_columns_follow_the_lesson():
    evil = result("-evil", "/c/e.py", {"double": "pass", "words": "timeout"})
    assert list(csv.reader(io.StringIO(gradebook_csv([evil], ["double", "words"])))) == [
        ["leerling", "inzending", "status", "checkpoints gehaald", "checkpoints", "double", "words", "inzendingen",
         "reden", "browser anders"],
        ["'-evil", "/c/e.py", "nagekeken", "1", "2", "gehaald", "te traag", "1", "", ""],
    ]
    rows = list(csv.reader(io.StringIO(gradebook_csv([evil], ["double", "words"], language="en"))))
    assert rows == [
        ["learner", "submission", "status", "score", "max_score", "double", "words", "submissions", "message",
         "browser_disagrees"],
        ["'-evil", "/c/e.py", "graded", "1", "2", "pass", "timeout", "1", "", ""],
    ]


def test_report_escapes_names_messages_and_reasons():
    graded = result('"><b>x</b>', "/c/x.py", {"double": "fail"}, why="<i>waarom</i>",
                    browser_verdicts={"double": "<u>pass</u>"})
    broken = invalid("<s>", "/c/<s>.py", "syntax error on line 1: <bad>")
    page = render_report([graded, broken], "mini-01", [CheckpointInfo("double", "Verdubbelen")],
                         "0.1.0", "ab" * 32, "2026-11-30T10:00:00+00:00", ENGLISH)
    for raw in ("<b>x</b>", "<i>waarom</i>", "<u>pass</u>", "<s>", "<bad>"):
        assert raw not in page
    assert "&quot;&gt;&lt;b&gt;x&lt;/b&gt;" in page
    assert "&lt;i&gt;waarom&lt;/i&gt;" in page
    assert "syntax error on line 1: &lt;bad&gt;" in page
    assert "0% (0/2)" in page  # pass rate over both learners; the invalid one counts as not passed


def render(results: list[dict], checkpoint_ids: tuple[str, ...] = ("double",)) -> str:
    return render_report(results, "mini-01", [CheckpointInfo(cid, cid) for cid in checkpoint_ids],
                         "0.1.0", "ab" * 32, "2026-11-30T10:00:00+00:00", ENGLISH)


def test_pass_rates_count_each_learner_once_by_their_latest_submission():
    old = result("noor", "/c/a.json", {"double": "fail"}, created_at="2026-11-01T10:00:00Z")
    new = result("noor", "/c/b.json", {"double": "pass"}, created_at="2026-11-02T10:00:00Z")
    page = render([old, new, result("anna", "/c/anna.py", {"double": "pass"})])
    assert "100% (2/2)" in page
    assert "No test failed." in page  # noor's superseded failure is not among the most-failed


def test_every_disagreement_with_the_browser_is_listed_even_on_a_superseded_submission():
    old = result("kees", "/c/kees.json", {"double": "fail"}, created_at="2026-11-01T10:00:00Z",
                 browser_verdicts={"double": "pass"})
    new = result("kees", "/c/kees-v2.json", {"double": "pass"}, created_at="2026-11-02T10:00:00Z",
                 browser_verdicts={"double": "pass"})
    page = render([old, new])
    section = page.split("<h2>Browser and grader disagree</h2>")[1].split("<h2>")[0]
    assert "kees.json" in section and "kees-v2.json" not in section
    assert '<span class="status pass">pass</span></td><td><span class="status fail">fail</span>' in section


def test_code_that_did_not_load_is_one_problem_not_one_per_checkpoint():
    ids = ("double", "words", "total")
    stuck = result("gijs", "/c/gijs.py", dict.fromkeys(ids, "timeout"), why="Je code werd niet geladen.",
                   test_name="code laden")
    page = render([stuck], ids)
    most_failed = page.split("<h2>Most-failed tests</h2>")[1].split("<h2>")[0]
    assert most_failed.count("<tr><td>") == 1 and "<td>(all)</td><td>code laden</td>" in most_failed
    learners = page.split("<h2>Learners</h2>")[1].split("<h2>")[0]
    assert learners.count("Je code werd niet geladen.") == 1


def test_feedback_lists_every_failing_test_of_the_latest_submission():
    learner = result("femke", "/c/femke.py", {"double": "pass", "words": "fail", "total": "error"},
                     why="De regel klopt niet.")
    page = render([learner], ("double", "words", "total"))
    feedback = page.split("<h2>Feedback per learner</h2>")[1]
    assert "<summary>femke: 1/3</summary>" in feedback
    assert "<b>words</b>, words test" in feedback and "<b>total</b>, total test" in feedback
    assert "<b>double</b>" not in feedback


def test_gradebook_names_the_checkpoints_where_the_browser_disagreed():
    learner = result("kees", "/c/kees.json", {"double": "fail", "words": "pass"},
                     browser_verdicts={"double": "pass", "words": "pass"})
    rows = list(csv.DictReader(io.StringIO(gradebook_csv([learner], ["double", "words"]))))
    assert rows[0]["browser anders"] == "double"


def test_every_submission_of_a_learner_with_several_is_listed_with_the_one_that_counts():
    honest = result("alice", "/c/alice.py", {"double": "pass"})
    claim = result("alice", "/c/zz.json", {"double": "fail"}, created_at="2099-01-01T00:00:00Z")
    page = render([honest, claim])
    section = page.split("<h2>Learners with more than one submission</h2>")[1].split("<h2>")[0]
    assert "alice.py" in section and "zz.json" in section and "2099-01-01T00:00:00Z" in section
    assert section.count("<td>yes</td>") == 1
    assert section.index("zz.json") < section.index("<td>yes</td>")


def test_browser_verdicts_for_checkpoints_the_lesson_lacks_are_not_disagreements():
    learner = result("kees", "/c/kees.json", {"double": "pass"}, browser_verdicts={"tripple": "pass"})
    section = render([learner]).split("<h2>Browser and grader disagree</h2>")[1].split("<h2>")[0]
    assert "None:" in section


def test_an_invalid_earlier_submission_is_listed_as_invalid():
    broken = invalid("noor", "/c/a.py", "empty file")
    later = result("noor", "/c/b.py", {"double": "pass"}, created_at="2026-11-02T10:00:00Z")
    section = render([broken, later]).split("<h2>Learners with more than one submission</h2>")[1].split("<h2>")[0]
    assert '<td><span class="status invalid">invalid</span></td><td></td>' in section


def test_names_with_control_and_bidi_characters_reach_no_output_raw():
    sly = "Anna\u202e\x1b[2Jsirv ed\u2066"
    rows = list(csv.reader(io.StringIO(gradebook_csv([result(sly, "/c/a\u202e.py", {"double": "pass"})], ["double"]))))
    assert rows[1][:2] == ["Anna\\u202e\\u001b[2Jsirv ed\\u2066", "/c/a\\u202e.py"]
    page = render([result(sly, "/c/a.py", {"double": "fail"}, why="fout\u202e")])
    assert "\u202e" not in page and "\x1b" not in page and "\u2066" not in page
    assert "Anna\\u202e\\u001b[2Jsirv ed\\u2066" in page


def test_feedback_file_names_are_unique_per_learner_and_stable():
    anna = feedback_file_name("Anna de Vries")
    assert re.fullmatch(r"anna-de-vries-[0-9a-f]{8}\.html", anna)
    alone = feedback_file_names(["Anna de Vries"])
    crowded = feedback_file_names(["!Anna de Vries", "anna de vries", "Anna de Vries", "Anna de Vriës"])
    assert alone["Anna de Vries"] == crowded["Anna de Vries"] == anna
    assert len(set(crowded.values())) == 4 and all(name.startswith("anna-de-vries-") for name in crowded.values())
    assert feedback_file_name("\u202e\x00").startswith("leerling-")
