"""gradebook.csv: one row per learner with the status of every checkpoint, the score, the points
and the grade (runner.offline.grading.grades; the teacher's corrections included).

A learner with several submissions in the batch gets the row of the most recent one (by the
submission's `created_at`, then by path); the `submissions` column says how many there were.
Every cell that a spreadsheet could read as a formula (starting with =, +, -, @, tab or carriage
return) gets a leading apostrophe, so a learner named `=HYPERLINK(...)` stays text.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

from runner.offline.grading.grades import LearnerGrade, LessonGrading, format_grade, format_points
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.class_view import ClassView, class_view
from runner.offline.outputs.reasons import reason_text

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Control characters (terminal escapes, NUL, line breaks inside a name) and the Unicode marks that
# reorder text (bidi overrides, isolates, embeddings): a learner's name or message must not
# reorder or hide what a teacher reads, in a spreadsheet or a page. They are shown as \uXXXX.
HIDDEN_CHARACTERS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
LINE_BREAKS = re.compile("[\t\n]")


def visible_text(text: str, keep_lines: bool = True) -> str:
    """`text` with every hidden or reordering character as a visible escape (`\u202e`); tabs and
    newlines kept when `keep_lines` (a test's message), escaped too when not (a name, a cell)."""
    text = HIDDEN_CHARACTERS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if not keep_lines:
        text = LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def safe_cell(value: object) -> str:
    text = visible_text("" if value is None else str(value), keep_lines=False)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


# Column names and cell words per language: Dutch for a Dutch teacher (the default), English with
# --report-language en (the names this runner always wrote).
GRADEBOOK_TEXTS: dict[str, dict[str, Any]] = {
    "nl": {
        "columns": ("leerling", "inzending", "status", "checkpoints gehaald", "checkpoints", "punten", "max punten",
                    "cijfer", "voldoende", "inzendingen", "reden", "browser anders", "correcties"),
        "status": {"graded": "nagekeken", "invalid": "ongeldig"},
        "checkpoint": {"pass": "gehaald", "fail": "niet gehaald", "error": "fout", "timeout": "te traag"},
        "yes": "ja", "no": "nee",
        "lesson_points": "{lesson} punten", "lesson_grade": "{lesson} cijfer",
        "module_column": "{module} {column}",
    },
    "en": {
        "columns": ("learner", "submission", "status", "score", "max_score", "points", "max_points", "grade",
                    "passed", "submissions", "message", "browser_disagrees", "corrections"),
        "status": {"graded": "graded", "invalid": "invalid"},
        "checkpoint": {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout"},
        "yes": "yes", "no": "no",
        "lesson_points": "{lesson} points", "lesson_grade": "{lesson} grade",
        "module_column": "{module} {column}",
    },
}


def gradebook_csv(results: Sequence[ResultRecord], checkpoint_ids: Sequence[str], delimiter: str = ",",
                  grading: LessonGrading | None = None, language: str = "nl", view: ClassView | None = None) -> str:
    """With `grading`, also points, maximum, grade (one decimal; a decimal comma with the `;` of
    Excel's Dutch settings) and passed after the checkpoint counts, and the corrections at the
    end. An invalid submission has no grade: those cells stay empty and the reason says why.
    `view`: the class view of `results` with `grading` when the caller has it (computed here if not)."""
    if view is None:
        view = class_view(results, grading)
    t = GRADEBOOK_TEXTS[language]
    (learner_h, submission_h, status_h, score_h, max_score_h, points_h, max_points_h, grade_h, passed_h,
     submissions_h, message_h, disagrees_h, corrections_h) = t["columns"]
    comma = delimiter == ";"
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n", delimiter=delimiter)
    graded_columns = [points_h, max_points_h, grade_h, passed_h] if grading is not None else []
    writer.writerow([learner_h, submission_h, status_h, score_h, max_score_h, *graded_columns, *checkpoint_ids,
                     submissions_h, message_h, disagrees_h, *([corrections_h] if grading else [])])
    for learner in view.learners:
        result, count = learner.result, learner.submissions
        grade_cells: list[object] = []
        correction_cells: list[object] = []
        if grading is not None:
            grade = learner.grade
            if grade is None:
                grade_cells = ["", grading.max_points, "", ""]
                correction_cells = [""]
            else:
                grade_cells = [format_points(grade.points, comma), grade.max_points, format_grade(grade.grade, comma),
                               t["yes"] if grade.passed else t["no"]]
                correction_cells = ["; ".join(f"{c.checkpoint} {'+' if c.points >= 0 else ''}"
                                              f"{format_points(c.points, comma)}: {c.comment}"
                                              for c in grade.corrections)]
        statuses = result.statuses()
        # Checkpoints where the learner's browser showed another verdict than the grader's.
        disagrees = [checkpoint_id for checkpoint_id, verdict in sorted(result.browser_verdicts.items())
                     if verdict != statuses.get(checkpoint_id)]
        row = [
            result.learner,
            result.submission,
            t["status"].get(result.status, result.status),
            result.score if result.graded else "",
            result.max_score,
            *grade_cells,
            *(t["checkpoint"].get(statuses.get(checkpoint_id, ""), "") for checkpoint_id in checkpoint_ids),
            count,
            "" if result.graded else reason_text(result.message, language),
            " ".join(disagrees),
            *correction_cells,
        ]
        writer.writerow([safe_cell(cell) for cell in row])
    return output.getvalue()


def module_gradebook_csv(learners: Sequence[str], modules: Sequence, grades: dict[str, dict[str, LearnerGrade | None]],
                         delimiter: str = ",", language: str = "nl") -> str:
    """A module run's gradebook: per learner, for each module its counted lessons' points and grade
    (empty when the learner handed in nothing gradable for it), then the module's total. With one
    module the total's columns are plain (`punten`, `cijfer`...), with several each is prefixed
    with its module. `modules`: runner.offline.outputs.ModuleTotal."""
    t = GRADEBOOK_TEXTS[language]
    columns = t["columns"]
    total_columns = (columns[5], columns[6], columns[7], columns[8])
    comma = delimiter == ";"
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n", delimiter=delimiter)
    header = [columns[0]]
    for module in modules:
        for lesson in module.counted.lessons:
            header += [t["lesson_points"].format(lesson=lesson), t["lesson_grade"].format(lesson=lesson)]
        header += [column if len(modules) == 1 else t["module_column"].format(module=module.counted.module, column=column)
                   for column in total_columns]
    writer.writerow(header)
    for learner in learners:
        cells: list[object] = [learner]
        for module in modules:
            for lesson in module.counted.lessons:
                grade = grades.get(lesson, {}).get(learner)
                cells += (["", ""] if grade is None else
                          [format_points(grade.points, comma), format_grade(grade.grade, comma)])
            total = module.totals.get(learner)
            cells += (["", module.max_points, "", ""] if total is None else
                      [format_points(total.points, comma), total.max_points, format_grade(total.grade, comma),
                       t["yes"] if total.passed else t["no"]])
        writer.writerow([safe_cell(cell) for cell in cells])
    return output.getvalue()
