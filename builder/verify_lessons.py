"""Stage 2 of the build, verify: run each loaded lesson's code, its examples
(builder/verify_examples.py) and then the quality gate on its tests (builder/verify_checkpoints.py).

Nothing is written here. The mistakes of every lesson are returned together, so that the build
reports them with the load stage's in one go.
"""

from __future__ import annotations

from builder.errors import BuildError, each_error
from builder.model import Lesson
from builder.verify_checkpoints import PassedGates, verify_checkpoints
from builder.verify_examples import verify_examples


def verify_lessons(lessons: list[Lesson], passed_gates: PassedGates | None = None) -> list[BuildError]:
    """Every lesson's mistakes in its examples and its gate. `passed_gates` (the dev server's)
    skips the gate of lessons that passed it unchanged."""
    return [error for lesson in lessons for error in verify_lesson(lesson, passed_gates)]


def verify_lesson(lesson: Lesson, passed_gates: PassedGates | None) -> list[BuildError]:
    """The examples' and the quality gate's mistakes; the gate is left out when the reference
    solution itself cannot run, which the examples already report."""
    try:
        verify_examples(lesson)
        errors: list[BuildError] = []
    except BuildError as error:
        errors = each_error(error)
    solution = f"{lesson.checkpoints_shown_dir}/solution.py"
    if any(error.path == solution for error in errors):
        return errors
    try:
        verify_checkpoints(lesson, passed_gates)
    except BuildError as error:
        errors.extend(each_error(error))
    return errors
