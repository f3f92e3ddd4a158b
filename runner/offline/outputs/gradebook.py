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
from typing import Sequence

from runner.offline.grading.grades import LearnerGrade, LessonGrading, format_grade, format_points
from runner.offline.grading.records import ResultRecord

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def submission_order(result: ResultRecord) -> tuple[str, str]:
    """Oldest first: by the export's `created_at` (none sorts first), then by path."""
    return (result.created_at or "", result.submission)


def latest_per_learner(results: Sequence[ResultRecord]) -> list[tuple[ResultRecord, int]]:
    """(result, number of submissions) for each learner, sorted by learner name."""
    groups: dict[str, list[ResultRecord]] = {}
    for result in results:
        groups.setdefault(result.learner, []).append(result)
    chosen = []
    for learner in sorted(groups, key=lambda name: (name.casefold(), name)):
        group = groups[learner]
        chosen.append((max(group, key=submission_order), len(group)))
    return chosen


def gradebook_csv(results: Sequence[ResultRecord], checkpoint_ids: Sequence[str], delimiter: str = ",",
                  grading: LessonGrading | None = None) -> str:
    """With `grading`, also `points`, `max_points`, `grade` (one decimal; a decimal comma with the
    `;` of Excel's Dutch settings) and `passed` after `max_score`, and `corrections` at the end."""
    comma = delimiter == ";"
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n", delimiter=delimiter)
    graded_columns = ["points", "max_points", "grade", "passed"] if grading is not None else []
    writer.writerow(["learner", "submission", "status", "score", "max_score", *graded_columns, *checkpoint_ids,
                     "submissions", "message", "browser_disagrees", *(["corrections"] if grading else [])])
    for result, count in latest_per_learner(results):
        grade_cells: list[object] = []
        correction_cells: list[object] = []
        if grading is not None:
            grade = grading.grade(result)
            grade_cells = [format_points(grade.points, comma), grade.max_points, format_grade(grade.grade, comma),
                           "yes" if grade.passed else "no"]
            correction_cells = ["; ".join(f"{c.checkpoint} {'+' if c.points >= 0 else ''}"
                                          f"{format_points(c.points, comma)}: {c.comment}" for c in grade.corrections)]
        statuses = result.statuses()
        # Checkpoints where the learner's browser showed another verdict than the grader's.
        disagrees = [checkpoint_id for checkpoint_id, verdict in sorted(result.browser_verdicts.items())
                     if verdict != statuses.get(checkpoint_id)]
        row = [
            result.learner,
            result.submission,
            result.status,
            result.score,
            result.max_score,
            *grade_cells,
            *(statuses.get(checkpoint_id, "") for checkpoint_id in checkpoint_ids),
            count,
            result.message or "",
            " ".join(disagrees),
            *correction_cells,
        ]
        writer.writerow([safe_cell(cell) for cell in row])
    return output.getvalue()


def module_gradebook_csv(results_by_lesson: dict[str, Sequence[ResultRecord]], gradings: dict[str, LessonGrading],
                         totals: dict[str, LearnerGrade], delimiter: str = ",") -> str:
    """A module's gradebook: per learner, for each lesson its points and grade (empty when the learner
    handed in nothing for it), then the points, maximum and grade of all lessons together."""
    comma = delimiter == ";"
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n", delimiter=delimiter)
    lessons = list(results_by_lesson)
    writer.writerow(["learner", *(f"{lesson} {column}" for lesson in lessons for column in ("points", "grade")),
                     "points", "max_points", "grade", "passed"])
    per_lesson = {lesson: {result.learner: gradings[lesson].grade(result)
                           for result, _count in latest_per_learner(results_by_lesson[lesson])} for lesson in lessons}
    for learner in sorted(totals, key=lambda name: (name.casefold(), name)):
        cells: list[object] = [learner]
        for lesson in lessons:
            grade = per_lesson[lesson].get(learner)
            cells += ["", ""] if grade is None else [format_points(grade.points, comma), format_grade(grade.grade, comma)]
        total = totals[learner]
        cells += [format_points(total.points, comma), total.max_points, format_grade(total.grade, comma),
                  "yes" if total.passed else "no"]
        writer.writerow([safe_cell(cell) for cell in cells])
    return output.getvalue()
