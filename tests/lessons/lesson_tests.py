"""The lessons whose lesson-level tests run, and each one's test folder (docs/authoring.md, "A lesson's tests").

Every lesson in checkpoints/ (a folder holding checkpoints.toml) gets every lesson-level test,
parametrized by its id; its golden files and test data live in tests/lessons/<id>/:

    page.html                   the rendered page (tests/builder/test_golden_page.py)
    transcripts/<wrong>.json    the feedback on each known-wrong solution (tests/runner_core/test_quality_gate.py)
    corpus/*.py                 extra submissions for the same-verdicts tests (optional)
    tests.toml                  optional: what this lesson's tests require beyond the rules for every lesson
    budget.json                 what grading the reference with every test may cost: calls, bytes, the
                                largest line (tests/lessons/test_grade_budget.py; made by record_budget.py)

A golden file is never written unasked: a missing or changed one fails with the command that
(re)creates it, `python tests/lessons/update_golden.py <id>` (which sets WERKPLAATS_UPDATE_GOLDEN=1).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.golden_versions import rendering_note

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS_DIR = ROOT / "checkpoints"
LESSON_TESTS_DIR = ROOT / "tests" / "lessons"
UPDATE_VARIABLE = "WERKPLAATS_UPDATE_GOLDEN"
SETTINGS_FILE = "tests.toml"


def discover_lesson_ids(checkpoints_dir: Path = CHECKPOINTS_DIR) -> list[str]:
    return sorted(path.parent.name for path in checkpoints_dir.glob("*/checkpoints.toml"))


LESSON_IDS = discover_lesson_ids()


@dataclass(frozen=True)
class LessonTestSettings:
    """tests.toml: what one lesson's tests require beyond the rules for every lesson."""

    min_known_wrong: int = 0  # known-wrong solutions in all ([quality_gate])
    min_compared: int = 0  # submissions the same-verdicts tests compare ([same_verdicts])
    # Known solutions or corpus files ("correct/x.py", "corpus/y.py") the browser and CPython
    # cannot judge alike, each with the reason ([same_verdicts.not_compared]).
    not_compared: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class LessonTests:
    id: str

    @property
    def checkpoints_dir(self) -> Path:
        return CHECKPOINTS_DIR / self.id

    @property
    def folder(self) -> Path:
        return LESSON_TESTS_DIR / self.id

    @property
    def page(self) -> Path:
        return self.folder / "page.html"

    @property
    def transcripts_dir(self) -> Path:
        return self.folder / "transcripts"

    @property
    def corpus_dir(self) -> Path:
        return self.folder / "corpus"

    @property
    def settings(self) -> LessonTestSettings:
        return read_settings(self.folder / SETTINGS_FILE)

    @property
    def update_command(self) -> str:
        return f"python tests/lessons/update_golden.py {self.id}"

    @property
    def budget(self) -> Path:
        return self.folder / "budget.json"

    @property
    def budget_command(self) -> str:
        return f"python tests/lessons/record_budget.py {self.id}"


LESSONS = [LessonTests(lesson_id) for lesson_id in LESSON_IDS]
# The tables and keys tests.toml may hold; a misspelt one must not be ignored silently.
SETTINGS_KEYS = {"quality_gate": {"min_known_wrong"}, "same_verdicts": {"min_compared", "not_compared"}}


class SettingsError(ValueError):
    """A tests.toml that does not say what it means: `path: reason`."""


def read_settings(path: Path) -> LessonTestSettings:
    if not path.is_file():
        return LessonTestSettings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{shown(path)}: {error}") from None
    for table, values in data.items():
        if table not in SETTINGS_KEYS or type(values) is not dict:
            raise SettingsError(f"{shown(path)}: unknown table [{table}] (known: {', '.join(sorted(SETTINGS_KEYS))})")
        for key in values:
            if key not in SETTINGS_KEYS[table]:
                raise SettingsError(f"{shown(path)}: unknown key {key!r} in [{table}] "
                                    f"(known: {', '.join(sorted(SETTINGS_KEYS[table]))})")
    gate, same_verdicts = data.get("quality_gate", {}), data.get("same_verdicts", {})
    settings = LessonTestSettings(
        min_known_wrong=gate.get("min_known_wrong", 0),
        min_compared=same_verdicts.get("min_compared", 0),
        not_compared=dict(same_verdicts.get("not_compared", {})),
    )
    if type(settings.min_known_wrong) is not int or type(settings.min_compared) is not int:
        raise SettingsError(f"{shown(path)}: min_known_wrong and min_compared must be whole numbers")
    if not all(type(reason) is str and reason for reason in settings.not_compared.values()):
        raise SettingsError(f"{shown(path)}: every entry of [same_verdicts.not_compared] needs its reason as text")
    return settings


def lesson_param(function):
    """Parametrize a test by `lesson` (a LessonTests), one case per lesson, named by its id."""
    return pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])(function)


def lesson_param_one_fast(function):
    """lesson_param for a dear run over a whole lesson (its quality gate, its mutants): the fast
    lane (`make test-fast`) keeps the first lesson, to show the machinery works; the others carry
    the slow marker, so `make test` (CI) still runs every lesson."""
    cases = [pytest.param(lesson, id=lesson.id, marks=() if index == 0 else pytest.mark.slow)
             for index, lesson in enumerate(LESSONS)]
    return pytest.mark.parametrize("lesson", cases)(function)


def updating() -> bool:
    return os.environ.get(UPDATE_VARIABLE) == "1"


def shown(path: Path) -> str:
    """A path as messages name it: relative to the project when it is inside."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def check_golden(path: Path, actual: str, lesson: LessonTests,
                 same: Callable[[str, str], bool] = lambda actual, expected: actual == expected) -> None:
    """`actual` must match the golden file; with WERKPLAATS_UPDATE_GOLDEN=1 it becomes the golden file."""
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(f"{shown(path)} is missing: create it with `{lesson.update_command}`, review it and commit it")
    expected = path.read_text(encoding="utf-8")
    assert same(actual, expected), (f"{shown(path)} no longer matches; {rendering_note()}; if the change is "
                                    f"intended, regenerate it with `{lesson.update_command}` and review the diff")
