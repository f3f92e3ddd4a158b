"""Feedback files (`grade --feedback`): one self-contained Dutch HTML page per learner.

What a teacher can mail or upload as it is: the learner's verdict per checkpoint with its title,
every test that did not pass with the message the learner saw in the page, the teacher's
corrections with their comments, the points and the grade, and the code with line numbers. Like
the report: inline CSS, no script, nothing loaded from elsewhere, every string escaped, the code
shown and never run. The learner's most recent submission counts (as in the gradebook).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from runner.offline.grading.grades import LearnerGrade, format_grade, format_points
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.html_kit import code_block, e, failures_list, html_document, status_badge
from runner.offline.outputs.reasons import reason_text, syntax_line
from runner.offline.outputs.texts import FEEDBACK_TEXTS, TEXTS

FEEDBACK_DIR = "feedback"
NL = TEXTS["nl"]  # the report's words for what both show (badges, failures)
F = FEEDBACK_TEXTS


@dataclass(frozen=True)
class FeedbackCheckpoint:
    id: str
    title: str


def feedback_file_name(learner: str, digits: int = 8) -> str:
    """A learner's page: the name in letters, digits and '-', then the first hex digits of the
    SHA-256 of the exact name ("anna-de-vries-1f0c9a2b.html"). It depends on that learner's name
    alone: stable from run to run, and "!Anna de Vries" or "anna de vries" never gets
    "Anna de Vries"'s page, whoever else is in the class."""
    plain = unicodedata.normalize("NFKD", learner).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60] or "leerling"
    digest = hashlib.sha256(learner.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{slug}-{digest[:digits]}.html"


def feedback_file_names(learners: Sequence[str]) -> dict[str, str]:
    """learner -> file name (`feedback_file_name`), unique: learners whose short names collide
    (two names with the same first 32 bits of their hash, which takes a deliberate search) both
    get the full hash instead."""
    unique = sorted(set(learners), key=lambda name: (name.casefold(), name))
    short = {learner: feedback_file_name(learner) for learner in unique}
    counts: dict[str, int] = {}
    for name in short.values():
        counts[name] = counts.get(name, 0) + 1
    return {learner: name if counts[name] == 1 else feedback_file_name(learner, 64) for learner, name in short.items()}


def feedback_body(result: ResultRecord, checkpoints: Sequence[FeedbackCheckpoint], grade: LearnerGrade | None,
                  not_started: bool = False, level: int = 2) -> list[str]:
    """The parts of one lesson's feedback; headings at `level` (2 on its own page, 3 in a module's)."""
    h = f"h{level}"
    rows = []
    by_id = {c.id: c for c in result.checkpoints}
    points = {c.id: c for c in grade.checkpoints} if grade is not None else {}
    # Work that was not tested has no verdict per checkpoint (unless the teacher gave points by hand).
    for checkpoint in checkpoints if result.graded or grade is not None else ():
        record = by_id.get(checkpoint.id)
        status = record.status if record is not None else "invalid"
        earned = points.get(checkpoint.id)
        worth = (F["points_of"].format(points=format_points(earned.earned, True), worth=earned.worth)
                 if earned is not None else "")
        rows.append(f"<tr><td>{e(checkpoint.title)}<span class=\"why\">{e(checkpoint.id)}</span></td>"
                    f"<td>{status_badge(status, NL)}</td><td class=\"num\">{e(worth)}</td></tr>")
    parts = []
    if grade is not None:
        verdict = F["passed"] if grade.passed else F["failed"]
        parts.append(f'<div class="cards"><div class="card"><b>{e(format_grade(grade.grade, True))}</b>{F["grade"]} '
                     f"({verdict})</div><div class=\"card\"><b>{e(format_points(grade.points, True))} {F['of']} "
                     f"{grade.max_points}</b>{F['points']}</div></div>")
    elif not result.graded:
        parts.append(f'<div class="cards"><div class="card"><b>{F["no_grade"]}</b>{F["invalid"]}</div></div>')
    if not result.graded:
        parts.append(f"<{h}>{F['not_graded']}</{h}><p>{e(reason_text(result.message))}."
                     f"{F['marked_below'] if syntax_line(result.message) else ''}</p>")
    elif not_started:
        parts.append(f"<{h}>{F['not_started']}</{h}><p>{F['not_started_text']}</p>")
    if rows:
        parts.append(f"<{h}>{F['checkpoints']}</{h}>")
        head = "".join(f"<th>{header}</th>" for header in F["checkpoint_headers"])
        parts.append(f'<div class="table-scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
    if result.graded:
        parts.append(f"<{h}>{F['not_yet_right']}</{h}>")
        parts.append(failures_list(result, NL))
    if grade is not None and grade.corrections:
        items = "".join(f"<li><b>{e(c.checkpoint)}</b> {e(_signed(c))}<span class=\"why\">{e(c.comment)}</span></li>"
                        for c in grade.corrections)
        parts.append(f'<{h}>{F["teacher_notes"]}</{h}><ul class="feedback">{items}</ul>')
    parts.append(f"<{h}>{F['your_code']}</{h}>")
    marked = syntax_line(result.message) if not result.graded else None
    parts.append(code_block(result.code, shared={marked} if marked else set())
                 if result.code is not None else f"<p>{e(NL['no_code'])}</p>")
    return parts


def _page(title: str, body: list[str]) -> str:
    return html_document(title, NL, body)


def feedback_unavailable(learner: str) -> str:
    """The page a learner gets when theirs could not be made (the teacher has a note about it)."""
    return _page(f"{F['title']}: {e(learner)}", [
        f"<h1>{F['title']}</h1>",
        f'<p class="meta">{F["for"]} <b>{e(learner)}</b>.</p>',
        f"<p>{F['unavailable']}</p>",
    ])


def render_feedback(result: ResultRecord, lesson: str, checkpoints: Sequence[FeedbackCheckpoint],
                    grade: LearnerGrade | None, generated_at: str, not_started: bool = False) -> str:
    return _page(f"{F['title']} {e(lesson)}: {e(result.learner)}", [
        f"<h1>{F['title']} {e(lesson)}</h1>",
        f'<p class="meta">{F["for"]} <b>{e(result.learner)}</b>; '
        f"{F['graded_on'].format(graded=e(result.graded_at[:10]), made=e(generated_at[:10]))}.</p>",
        *feedback_body(result, checkpoints, grade, not_started),
    ])


@dataclass(frozen=True)
class LessonFeedback:
    lesson: str
    result: ResultRecord
    checkpoints: Sequence[FeedbackCheckpoint]
    grade: LearnerGrade | None
    not_started: bool = False
    counted: bool = True  # False: a lesson no total counts (runner.offline.grading.modules)


@dataclass(frozen=True)
class ModuleFeedbackTotal:
    module: str
    lessons: Sequence[str]  # the lessons that count, handed in or not
    grade: LearnerGrade | None  # None: no gradable work in them


def _total_card(total: ModuleFeedbackTotal) -> str:
    lessons = ", ".join(total.lessons)
    if total.grade is None:
        return (f'<div class="card"><b>{F["no_grade"]}</b>'
                f"{F['module_nothing'].format(module=e(total.module), lessons=e(lessons))}</div>")
    verdict = F["passed"] if total.grade.passed else F["failed"]
    return (f'<div class="card"><b>{e(format_grade(total.grade.grade, True))}</b>'
            + F["module_grade"].format(module=e(total.module), verdict=verdict,
                                       points=e(format_points(total.grade.points, True)),
                                       max_points=total.grade.max_points, lessons=e(lessons))
            + "</div>")


def render_module_feedback(learner: str, lessons: Sequence[LessonFeedback], totals: Sequence[ModuleFeedbackTotal],
                           generated_at: str) -> str:
    """One page for a learner's work in several lessons: each module's total (over the lessons
    that count, with a lesson not handed in as 0 points), then each lesson."""
    names = ", ".join(part.lesson for part in lessons if part.lesson)
    body = [
        f"<h1>{F['title']} {e(names)}</h1>",
        f'<p class="meta">{F["for"]} <b>{e(learner)}</b>; {F["made_on"].format(made=e(generated_at[:10]))}.</p>',
    ]
    if totals:
        body.append('<div class="cards">' + "".join(_total_card(total) for total in totals) + "</div>")
        handed_in = {part.lesson for part in lessons}
        missing = [lesson for total in totals for lesson in total.lessons if lesson not in handed_in]
        if missing:
            body.append(f"<p>{F['nothing_handed_in'].format(lessons=e(', '.join(missing)))}</p>")
    for part in lessons:
        body.append(f"<h2>{F['lesson']} {e(part.lesson)}</h2>" if part.lesson else f"<h2>{F['no_lesson']}</h2>")
        if not part.counted:
            body.append(f"<p>{F['not_counted']}</p>")
        body.extend(feedback_body(part.result, part.checkpoints, part.grade, part.not_started, level=3))
    return _page(f"{F['title']}: {e(learner)}", body)


def _signed(correction) -> str:
    text = format_points(abs(correction.points), True)
    unit = F["point"] if abs(correction.points) == 1 else F["points_unit"]
    return f"{'-' if correction.points < 0 else '+'}{text} {unit}"
