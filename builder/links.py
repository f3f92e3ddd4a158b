"""Links between lessons: warnings for ids that are neither a lesson nor planned."""

from __future__ import annotations

from collections.abc import Iterable

from builder.errors import BuildWarning
from builder.model import Lesson, PlannedLesson
from builder.planned_lessons import PLANNED_FILE
from runner.core.lesson_config import suggestion


def find_dangling_links(lessons: list[Lesson], planned: list[PlannedLesson] | None = None,
                        other_lesson_ids: Iterable[str] = ()) -> list[BuildWarning]:
    """Prerequisites, related labs and next steps may name lessons not written yet: the page
    shows them unlinked. A planned id (lessons/planned.yaml) is expected; any other unknown id is
    a warning (an error under --strict). `other_lesson_ids` exist but are not part of this build
    (`build.py --only`): links to them are fine too."""
    existing = {lesson.id for lesson in lessons} | set(other_lesson_ids)
    expected = existing | {lesson.id for lesson in planned or []}
    warnings: list[BuildWarning] = []
    for lesson in lessons:
        named = [("prerequisites", item.lesson_id) for item in lesson.prerequisites]
        if lesson.related:
            named.append(("related", lesson.related.lesson_id))
        if lesson.next_step:
            named.append(("next", lesson.next_step.lesson_id))
        for field, lesson_id in named:
            if lesson_id is not None and lesson_id not in expected:
                warnings.append(BuildWarning(lesson.path, lesson.field_lines[field],
                                             unknown_link(lesson_id, field, sorted(expected - {lesson.id}))))
    return warnings


def unknown_link(lesson_id: str, field: str, known: list[str]) -> str:
    close = suggestion(lesson_id, known)
    if close:
        return f"unknown lesson id '{lesson_id}' in {field}{close}"
    return f"unknown lesson id '{lesson_id}' in {field}: add it to lessons/{PLANNED_FILE} if it is planned"
