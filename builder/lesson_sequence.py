"""Render stage: a lesson's place in its module, for the "Vorige les" / "Volgende les" links."""

from __future__ import annotations

from dataclasses import dataclass

from builder.model import Lesson


@dataclass(frozen=True)
class LessonNeighbours:
    previous: Lesson | None  # None for the module's first lesson
    next: Lesson | None  # None for its last


def neighbours_in_module(lessons: list[Lesson], lesson: Lesson) -> LessonNeighbours:
    """The lessons just before and after `lesson` among the built lessons of its module, by
    lesson number: only lessons that exist are linked."""
    in_module = sorted((other for other in lessons if other.module.id == lesson.module.id),
                       key=lambda other: other.number)
    at = next(index for index, other in enumerate(in_module) if other is lesson)
    return LessonNeighbours(
        previous=in_module[at - 1] if at > 0 else None,
        next=in_module[at + 1] if at + 1 < len(in_module) else None,
    )
