"""What goes back to the LMS: the grade file each LMS imports, the feedback pages packed as its
bulk feedback upload expects, and lms-overzicht.csv for the teacher."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from runner.offline.grading.grades import LearnerGrade, format_grade
from runner.offline.lms.attempts import Chosen
from runner.offline.lms.class_list import (
    MOODLE_FEEDBACK,
    MOODLE_FULL_NAME,
    MOODLE_GRADE,
    MOODLE_IDENTIFIER,
    MOODLE_MAXIMUM,
    MOODLE_MODIFIED_GRADE,
    MOODLE_PARTICIPANT,
    ClassList,
    ClassMember,
    column_index,
)
from runner.offline.lms.download import LMS_NAMES, Download
from runner.offline.outputs.gradebook import safe_cell, visible_text

IMPORT_FILES = {"brightspace": "brightspace-cijfers.csv", "canvas": "canvas-cijfers.csv",
                "moodle": "moodle-beoordelingsblad.csv"}


FEEDBACK_PACKAGES = {lms: f"{lms}-terugkoppeling.zip" for lms in LMS_NAMES}


FEEDBACK_PAGE = "terugkoppeling.html"


@dataclass(frozen=True)
class LmsGrade:
    """What goes back for one learner: the grade (None: nothing gradable), a one-paragraph
    Dutch comment, and the feedback page."""

    chosen: Chosen
    grade: LearnerGrade | None
    comment: str
    page: bytes | None


def _csv_text(rows: Sequence[Sequence[object]], delimiter: str = ",", formulas: bool = True) -> str:
    """CSV for an LMS; `formulas`: cells a spreadsheet would evaluate get a leading "'" (files a
    teacher may open first). Moodle's worksheet is read by Moodle as text, where a "'" would end up
    in the grade or comment: there only hidden characters are escaped."""
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\r\n", delimiter=delimiter)
    for row in rows:
        writer.writerow([safe_cell(cell) if formulas else visible_text("" if cell is None else str(cell),
                                                                       keep_lines=False) for cell in row])
    return output.getvalue()


def brightspace_import(grades: Sequence[LmsGrade], item: str) -> tuple[str, list[str]]:
    """`OrgDefinedId,Username,<item> Points Grade <Numeric MaxPoints:10>,End-of-Line Indicator`:
    the grade 1.0-10.0 as points of 10, ids with Brightspace's own leading '#'. Learners without
    an OrgDefinedId (not on the class list) cannot be imported: named in the notes."""
    rows: list[list[object]] = [["OrgDefinedId", "Username", f"{item} Points Grade <Numeric MaxPoints:10>",
                                 "End-of-Line Indicator"]]
    notes = []
    for entry in grades:
        member = entry.chosen.member
        if member is None:
            notes.append(f"{entry.chosen.learner}: not on the class list, so not in {IMPORT_FILES['brightspace']}")
            continue
        rows.append([f"#{member.ids['OrgDefinedId']}", f"#{member.ids['Username']}" if member.ids["Username"] else "",
                     format_grade(entry.grade.grade, False) if entry.grade is not None else "", "#"])
    return _csv_text(rows), notes


def canvas_import(grades: Sequence[LmsGrade], item: str) -> str:
    """`Student,ID,SIS User ID,SIS Login ID,Section,<item>` with a `Points Possible` row of 10;
    Canvas matches a learner by ID, which its download carries."""
    rows: list[list[object]] = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", item],
                                ["    Points Possible", "", "", "", "", "10"]]
    for entry in grades:
        member = entry.chosen.member
        ids = member.ids if member is not None else {}
        rows.append([entry.chosen.learner, entry.chosen.attempt.key, ids.get("SIS User ID", ""),
                     ids.get("SIS Login ID", ""), ids.get("Section", ""),
                     format_grade(entry.grade.grade, False) if entry.grade is not None else ""])
    return _csv_text(rows)


def moodle_worksheet(grades: Sequence[LmsGrade], class_list: ClassList | None, language: str) -> str:
    """The grading worksheet Moodle imports: with the teacher's own downloaded worksheet as class
    list, exactly its columns and rows (in its language, its `Last modified (grade)` kept) with
    the grade and the feedback comment filled in; without one, the columns Moodle needs in
    `language`. Grades with a decimal comma in Dutch, as Moodle reads them for a Dutch user."""
    comma = language == "nl"
    by_key = {entry.chosen.attempt.key: entry for entry in grades}
    if class_list is not None and class_list.header:
        header = class_list.header
        grade_column = column_index(header, *MOODLE_GRADE.values(), "Beoordeling")
        feedback_column = column_index(header, *MOODLE_FEEDBACK.values())
        rows: list[list[object]] = [list(header)]
        for member in class_list.members:
            row: list[object] = [member.row.get(name, "") for name in header]
            entry = by_key.get(member.key)
            if entry is not None:
                if grade_column is not None and entry.grade is not None:
                    row[grade_column] = format_grade(entry.grade.grade, comma)
                if feedback_column is not None:
                    row[feedback_column] = entry.comment
            rows.append(row)
        return "\ufeff" + _csv_text(rows, formulas=False)
    rows = [[MOODLE_IDENTIFIER[language], MOODLE_FULL_NAME[language], MOODLE_GRADE[language],
             MOODLE_MAXIMUM[language], MOODLE_MODIFIED_GRADE[language], MOODLE_FEEDBACK[language]]]
    for entry in grades:
        rows.append([f"{MOODLE_PARTICIPANT[language]}{entry.chosen.attempt.key}", entry.chosen.learner,
                     format_grade(entry.grade.grade, comma) if entry.grade is not None else "",
                     format_grade(Decimal(10), comma), "",
                     entry.comment])
    return "\ufeff" + _csv_text(rows, formulas=False)


def feedback_package(grades: Sequence[LmsGrade], download: Download) -> bytes:
    """The feedback pages packed as the LMS's bulk feedback upload takes them: Brightspace and
    Moodle in the download's own folder names, Canvas as files named like the download's."""
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry in sorted(grades, key=lambda g: g.chosen.attempt.entry):
            if entry.page is None:
                continue
            attempt = entry.chosen.attempt
            if download.lms == "canvas":
                name = f"{attempt.entry}_{FEEDBACK_PAGE}"
            else:
                name = f"{attempt.entry}/{FEEDBACK_PAGE}"
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, entry.page, compress_type=zipfile.ZIP_DEFLATED)
        if download.lms == "brightspace" and download.index_html is not None:
            info = zipfile.ZipInfo("index.html", date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, download.index_html)
    return output.getvalue()


LATENESS_NL = {"on_time": "op tijd", "late": "te laat", "no_deadline": "geen deadline opgegeven",
               "unknown": "onbekend: Moodle geeft geen inlevertijd"}


def overview_csv(chosen: Sequence[Chosen], missing: Sequence[ClassMember], unmatched: Sequence[Chosen],
                 staged: dict[int, Path]) -> str:
    """lms-overzicht.csv: per learner the LMS id, the file graded, when (where the LMS says),
    late or not, every attempt, and whether they are on the class list; then who is missing."""
    rows: list[list[object]] = [["leerling", "lms-id", "bestand", "ingeleverd op", "te laat", "pogingen",
                                 "op de klaslijst"]]
    unmatched_ids = {id(item) for item in unmatched}
    for item in sorted(chosen, key=lambda c: (c.learner.casefold(), c.learner)):
        attempt = item.attempt
        rows.append([item.learner, attempt.key, str(staged.get(id(item), "")),
                     attempt.submitted_at.strftime("%Y-%m-%d %H:%M") if attempt.submitted_at else "",
                     LATENESS_NL[item.lateness.status],
                     "; ".join(a.submitted_at.strftime("%Y-%m-%d %H:%M") if a.submitted_at else a.entry
                               for a in item.attempts),
                     "nee" if id(item) in unmatched_ids else ("ja" if item.member is not None else "")])
    for member in missing:
        rows.append([member.name, member.key if member.key.isdigit() else member.ids.get("OrgDefinedId", ""),
                     "", "", "", "niets ingeleverd", "ja"])
    return "\ufeff" + _csv_text(rows)
