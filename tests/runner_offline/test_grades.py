"""Points, the Dutch grade and its rounding at the boundaries, and the teacher's corrections file."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from decimal import Decimal

import pytest

from runner.offline.grading.corrections import CorrectionsError, read_corrections
from runner.offline.grading.grades import Correction, LessonGrading, dutch_grade, format_grade
from runner.offline.grading.records import CheckpointRecord, ResultRecord, TestRecord
from runner.offline.outputs.gradebook import gradebook_csv

RECORDED = {"runner_version": "0.1.0", "bundle_sha256": "ab" * 32, "graded_at": "2026-11-30T10:00:00+00:00"}


@pytest.mark.parametrize("points, max_points, pass_percent, grade", [
    (0, 20, 55, "1.0"),
    (20, 20, 55, "10.0"),
    (11, 20, 55, "5.5"),  # exactly the pass mark
    (Decimal("10.9"), 20, 55, "5.4"),  # 5.459 would round to 5.5: below the pass mark it stays 5.4
    (Decimal("10.99"), 20, 55, "5.4"),
    (Decimal("11.01"), 20, 55, "5.5"),
    (Decimal("13.3"), 20, 55, "6.7"),  # 6.65 exactly: half up (floats would say 6.6499... -> 6.6)
    (Decimal("5.5"), 20, 55, "3.3"),  # 3.25 exactly, below the pass mark: half up
    (14, 20, 55, "7.0"),
    (3, 6, 50, "5.5"),
    (1, 3, 55, "3.7"),  # 1 + 4.5 * (1/3) / 0.55 = 3.727...
    (2, 3, 55, "6.7"),  # 5.5 + 4.5 * (2/3 - 0.55) / 0.45 = 6.666...
    (-2, 20, 55, "1.0"),  # clamped: corrections cannot go below the scale
    (25, 20, 55, "10.0"),
])
def test_dutch_grade_and_its_rounding(points, max_points, pass_percent, grade):
    assert dutch_grade(points, max_points, pass_percent) == Decimal(grade)


def test_every_share_below_the_pass_mark_fails_and_every_share_above_passes():
    for points in range(0, 1001):
        grade = dutch_grade(Decimal(points) / 10, 100, 55)
        assert (grade >= Decimal("5.5")) == (points >= 550), points


def test_grades_are_written_with_a_decimal_comma_for_dutch_readers():
    assert format_grade(Decimal("7.3"), True) == "7,3"
    assert format_grade(Decimal("10"), False) == "10.0"


def record(learner: str, statuses: dict[str, str], status: str = "graded") -> ResultRecord:
    return ResultRecord(
        submission=f"/klas/{learner}.py", learner=learner, lesson="mini-01", status=status,
        score=sum(s == "pass" for s in statuses.values()), max_score=3, code_sha256=None, source_sha256="",
        checkpoints=tuple(CheckpointRecord(cid, s, (TestRecord("t", s, "", 1.0),)) for cid, s in statuses.items()),
        message=None if status == "graded" else "empty file", **RECORDED,
    )


GRADING = LessonGrading("mini-01", {"double": 2, "words": 1, "total": 1}, pass_percent=55)


def test_points_follow_the_lesson_and_corrections_stay_within_a_checkpoint():
    anna = record("anna", {"double": "pass", "words": "fail", "total": "pass"})
    assert GRADING.grade(anna).points == 3
    corrected = LessonGrading("mini-01", GRADING.points, 55, (
        Correction("anna", "mini-01", "words", Decimal("0.5"), "bijna", 2),
        Correction("anna", "mini-01", "double", Decimal("1"), "extra", 3),  # already full: stays 2
        Correction("anna", "mini-01", "total", Decimal("-3"), "gekopieerd", 4),  # not below 0
        Correction("bram", "mini-01", "words", Decimal("1"), "niet anna", 5),
    ))
    grade = corrected.grade(anna)
    assert [(c.id, c.earned) for c in grade.checkpoints] == [("double", 2), ("words", Decimal("0.5")), ("total", 0)]
    assert grade.points == Decimal("2.5") and grade.grade == dutch_grade(Decimal("2.5"), 4, 55)
    assert [c.comment for c in grade.corrections] == ["extra", "bijna", "gekopieerd"]


def test_an_invalid_submission_has_no_grade_unless_the_teacher_gives_points():
    empty = record("kees", {}, status="invalid")
    assert GRADING.grade(empty) is None
    corrected = LessonGrading("mini-01", GRADING.points, 55, (Correction("kees", "mini-01", "double", Decimal(2), "", 2),))
    assert corrected.grade(empty).points == 2


def test_gradebook_has_points_grade_and_corrections_and_no_formulas():
    anna = record("=HYPERLINK(\"x\")", {"double": "pass", "words": "pass", "total": "fail"})
    grading = LessonGrading("mini-01", GRADING.points, 55, (
        Correction(anna.learner, "mini-01", "total", Decimal("0.5"), "=1+1 half goed", 2),))
    rows = list(csv.reader(io.StringIO(gradebook_csv([anna], ["double", "words", "total"], grading=grading))))
    assert rows[0] == ["leerling", "inzending", "status", "checkpoints gehaald", "checkpoints", "punten", "max punten",
                       "cijfer", "voldoende", "double", "words", "total", "inzendingen", "reden", "browser anders",
                       "correcties"]
    assert rows[1] == ["'=HYPERLINK(\"x\")", "/klas/=HYPERLINK(\"x\").py", "nagekeken", "2", "3", "3.5", "4", "8.8",
                       "ja", "gehaald", "gehaald", "niet gehaald", "1", "", "", "total +0.5: =1+1 half goed"]
    rows = list(csv.reader(io.StringIO(gradebook_csv([anna], ["double", "words", "total"], grading=grading,
                                                     language="en"))))
    assert rows[0] == ["learner", "submission", "status", "score", "max_score", "points", "max_points", "grade",
                       "passed", "double", "words", "total", "submissions", "message", "browser_disagrees",
                       "corrections"]
    assert rows[1] == ["'=HYPERLINK(\"x\")", "/klas/=HYPERLINK(\"x\").py", "graded", "2", "3", "3.5", "4", "8.8",
                       "yes", "pass", "pass", "fail", "1", "", "", "total +0.5: =1+1 half goed"]
    excel = list(csv.reader(io.StringIO(gradebook_csv([anna], ["double", "words", "total"], ";", grading)),
                            delimiter=";"))
    assert excel[1][5:8] == ["3,5", "4", "8,8"]


CHECKPOINTS = {"mini-01": ("double", "words", "total")}


def write(tmp_path, text: str):
    path = tmp_path / "corrections.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_corrections_file_is_read_with_commas_or_semicolons_and_a_decimal_comma(tmp_path):
    path = write(tmp_path, "learner,lesson,checkpoint,points,comment\nanna,mini-01,words,+0.5,\"goed, bijna\"\n")
    assert read_corrections(path, CHECKPOINTS) == (Correction("anna", "mini-01", "words", Decimal("0.5"), "goed, bijna", 2),)
    path.write_bytes("\ufefflearner;lesson;checkpoint;points;comment\nanna;mini-01;total;-1,5;te kort\n".encode())
    assert read_corrections(path, CHECKPOINTS)[0].points == Decimal("-1.5")
    assert read_corrections(tmp_path / "none.csv", CHECKPOINTS) == ()


@pytest.mark.parametrize("line, message", [
    ("anna,mini-01,word,1,x", "lesson mini-01 has no checkpoint 'word' (did you mean 'words'?)"),
    ("anna,mini-02,words,1,x", "lesson 'mini-02' is not graded here (graded: mini-01) (did you mean 'mini-01'?)"),
    ("anna,mini-01,words,een,x", "points must be a number such as +1, -0.5 or 2, not 'een'"),
    ("anna,mini-01,words,1", "expected 5 columns (learner,lesson,checkpoint,points,comment), found 4"),
    (",mini-01,words,1,x", "the learner is empty"),
])
def test_corrections_mistakes_name_the_file_and_line(tmp_path, line, message):
    path = write(tmp_path, f"learner,lesson,checkpoint,points,comment\nanna,mini-01,double,1,ok\n{line}\n")
    with pytest.raises(CorrectionsError) as raised:
        read_corrections(path, CHECKPOINTS)
    assert str(raised.value) == f"{path}:3: {message}"


def test_corrections_need_their_header(tmp_path):
    path = write(tmp_path, "naam,punten\n")
    with pytest.raises(CorrectionsError) as raised:
        read_corrections(path, CHECKPOINTS)
    assert str(raised.value) == f"{path}:1: the header must be learner,lesson,checkpoint,points,comment, not naam,punten"


def test_an_invalid_submission_has_an_empty_grade_and_its_reason_in_the_gradebook():
    broken = replace(record("kees", {}, status="invalid"), message="syntax error on line 4: expected ':'")
    rows = list(csv.DictReader(io.StringIO(gradebook_csv([broken], ["double", "words", "total"], grading=GRADING))))
    assert [rows[0][k] for k in ("status", "checkpoints gehaald", "punten", "max punten", "cijfer", "voldoende",
                                 "reden")] == ["ongeldig", "", "", "4", "", "", "syntaxfout op regel 4: hier ontbreekt een ':'"]
    rows = list(csv.DictReader(io.StringIO(gradebook_csv([broken], ["double"], grading=GRADING, language="en"))))
    assert [rows[0][k] for k in ("status", "grade", "passed", "message")] == [
        "invalid", "", "", "syntax error on line 4: expected ':'"]
