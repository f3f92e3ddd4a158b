"""Links between lessons: which ids exist, and warnings for ids that point nowhere (yet)."""

from __future__ import annotations

from builder.errors import BuildWarning
from builder.model import Lesson


def find_dangling_links(lessons: list[Lesson]) -> list[BuildWarning]:
    """Prerequisites, related labs and next steps may name lessons not written yet: the page
    shows them unlinked, and the build says so (an error under --strict)."""
    known = {lesson.id for lesson in lessons}
    warnings: list[BuildWarning] = []
    for lesson in lessons:
        named = [("prerequisites", item.lesson_id) for item in lesson.prerequisites]
        if lesson.related:
            named.append(("related", lesson.related.lesson_id))
        if lesson.next_step:
            named.append(("next", lesson.next_step.lesson_id))
        for field, lesson_id in named:
            if lesson_id is not None and lesson_id not in known:
                warnings.append(BuildWarning(lesson.path, lesson.field_lines[field],
                                             f"unknown lesson id '{lesson_id}' in {field}"))
    return warnings
