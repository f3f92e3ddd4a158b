"""Each lesson's worked examples print what their comments say, run with its reference solution."""

from __future__ import annotations

from builder.verify_examples import verify_examples
from tests.lessons.lesson_tests import lesson_param


@lesson_param
def test_the_lessons_examples_print_what_their_comments_say(lesson, real_lessons):
    loaded = next((candidate for candidate in real_lessons if candidate.id == lesson.id), None)
    assert loaded is not None, f"checkpoints/{lesson.id}/ has no lesson: lessons/{lesson.id}.md is missing"
    verify_examples(loaded)  # raises a BuildError (file:line: what differs) for a wrong example
