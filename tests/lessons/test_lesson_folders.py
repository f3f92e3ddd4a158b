"""Every lesson in checkpoints/ gets the lesson-level tests, and each is told how to make its golden files."""

from __future__ import annotations

import pytest

from tests.lessons.lesson_tests import (
    LESSON_IDS,
    LESSON_TESTS_DIR,
    LessonTests,
    SettingsError,
    check_golden,
    discover_lesson_ids,
    lesson_param,
    read_settings,
    shown,
)


def test_lessons_are_found_by_their_checkpoints_folder(tmp_path):
    for name in ("b-02", "a-01"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "checkpoints.toml").write_text("")
    (tmp_path / "notes").mkdir()  # no checkpoints.toml: not a lesson
    assert discover_lesson_ids(tmp_path) == ["a-01", "b-02"]
    assert "rag-01" in LESSON_IDS


def test_every_lesson_test_folder_belongs_to_a_lesson():
    folders = sorted(path.name for path in LESSON_TESTS_DIR.iterdir() if path.is_dir() and path.name != "__pycache__")
    assert [name for name in folders if name not in LESSON_IDS] == [], "test folders of lessons that do not exist"


@lesson_param
def test_the_lessons_test_settings_are_readable(lesson):
    lesson.settings  # noqa: B018 - raises SettingsError for a misspelt table or key


def test_a_missing_golden_file_says_how_to_create_it():
    lesson = LessonTests("nieuw-01")
    with pytest.raises(pytest.fail.Exception) as raised:
        check_golden(lesson.page, "<main>\n", lesson)
    assert str(raised.value) == ("tests/lessons/nieuw-01/page.html is missing: create it with "
                                 "`python tests/lessons/update_golden.py nieuw-01`, review it and commit it")
    assert not lesson.folder.exists()


def test_a_changed_golden_file_says_how_to_regenerate_it(tmp_path, monkeypatch):
    golden = tmp_path / "page.html"
    golden.write_text("<main>\n", encoding="utf-8")
    lesson = LessonTests("rag-01")
    check_golden(golden, "<main>\n", lesson)
    with pytest.raises(AssertionError) as raised:
        check_golden(golden, "<main class=x>\n", lesson)
    assert str(raised.value).startswith(
        f"{shown(golden)} no longer matches; none of the packages that render it changed since the goldens were "
        "made, so the change is ours; if the change is intended, regenerate it with "
        "`python tests/lessons/update_golden.py rag-01` and review the diff")
    monkeypatch.setenv("WERKPLAATS_UPDATE_GOLDEN", "1")
    check_golden(golden, "<main class=x>\n", lesson)
    assert golden.read_text(encoding="utf-8") == "<main class=x>\n"


@pytest.mark.parametrize(("text", "message"), [
    ("[quality_gate]\nmin_known_wong = 3\n", "unknown key 'min_known_wong' in [quality_gate] (known: min_known_wrong)"),
    ("[gate]\n", "unknown table [gate] (known: quality_gate, same_verdicts)"),
    ("[same_verdicts]\nmin_compared = '30'\n", "min_known_wrong and min_compared must be whole numbers"),
    ('[same_verdicts.not_compared]\n"correct/x.py" = ""\n',
     "every entry of [same_verdicts.not_compared] needs its reason as text"),
])
def test_a_misspelt_test_setting_is_an_error(tmp_path, text, message):
    path = tmp_path / "tests.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError) as raised:
        read_settings(path)
    assert str(raised.value) == f"{path}: {message}"
