"""Stage 2 of the build, verify: run each loaded lesson's code, its examples
(builder/verify_examples.py) and then the quality gate on its tests (builder/verify_checkpoints.py).

Nothing is written here. The mistakes of every lesson are returned together, so that the build
reports them with the load stage's in one go. What the gate verified of each lesson's shipped
tests (a `VerifiedBundle`) is carried on to the render and write stages, which never execute
the lesson's code themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.errors import BuildError, each_error
from builder.model import Lesson
from builder.verify_checkpoints import PassedGates, verify_checkpoints
from builder.verify_examples import verify_examples
from runner.offline.gates.gate_report import VerifiedBundle


@dataclass
class VerifiedLessons:
    """The verify stage's outcome: every mistake, and per lesson id the shipped tests verified."""

    errors: list[BuildError] = field(default_factory=list)
    bundles: dict[str, VerifiedBundle] = field(default_factory=dict)


def verify_site(lessons: list[Lesson], passed_gates: PassedGates | None = None) -> VerifiedLessons:
    """Every lesson's mistakes in its examples and its gate, and what its gate verified.
    `passed_gates` (the dev server's) skips the gate of lessons that passed it unchanged."""
    verified = VerifiedLessons()
    for lesson in lessons:
        errors, bundle = verify_lesson(lesson, passed_gates)
        verified.errors.extend(errors)
        if bundle is not None:
            verified.bundles[lesson.id] = bundle
    return verified


def verify_lessons(lessons: list[Lesson], passed_gates: PassedGates | None = None) -> list[BuildError]:
    """`verify_site`'s mistakes alone."""
    return verify_site(lessons, passed_gates).errors


def verify_lesson(lesson: Lesson, passed_gates: PassedGates | None) -> tuple[list[BuildError], VerifiedBundle | None]:
    """The examples' and the quality gate's mistakes, and what the gate verified; the gate is left
    out when the reference solution itself cannot run, which the examples already report."""
    try:
        verify_examples(lesson)
        errors: list[BuildError] = []
    except BuildError as error:
        errors = each_error(error)
    solution = f"{lesson.checkpoints_shown_dir}/solution.py"
    if any(error.path == solution for error in errors):
        return errors, None
    try:
        return errors, verify_checkpoints(lesson, passed_gates)
    except BuildError as error:
        return [*errors, *each_error(error)], None
