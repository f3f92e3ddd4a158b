"""Fixtures of the builder's tests: the project's real lessons, loaded once."""

from __future__ import annotations

import pytest

from builder.load_lessons import load_lessons
from tests.lessons.lesson_tests import ROOT


@pytest.fixture(scope="session")
def real_lessons():
    """Every lesson of lessons/ and checkpoints/, as the build loads them."""
    return load_lessons(ROOT / "lessons", ROOT / "checkpoints", root=ROOT)
