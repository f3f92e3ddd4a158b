"""runner.core.lesson_config: the one strict reader of checkpoints.toml (builder and runner).

Every mistake is asserted as its exact line `file:line: message`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.core.lesson_config import (
    DEFAULT_SETTINGS,
    LessonConfigError,
    LessonSettings,
    locate_lines,
    read_lesson_config,
)

ROOT = Path(__file__).resolve().parents[2]
SHOWN = "checkpoints/les-01/checkpoints.toml"

TWO_CHECKPOINTS = '''\
lesson = "les-01"

[[checkpoint]]
id = "count_words"
title = "Tel de woorden"
task = "Schrijf `count_words(text)`."
hint = "Gebruik `split()`."

[[checkpoint]]
id = "longest_word"
title = "Het langste woord"
task = \'\'\'
Schrijf `longest_word(text)`.
id = "not_a_key"
[[checkpoint]]
\'\'\'
hint = "Gebruik `max`."
'''


def write(tmp_path: Path, text: str) -> Path:
    lesson_dir = tmp_path / "les-01"
    lesson_dir.mkdir(exist_ok=True)
    (lesson_dir / "checkpoints.toml").write_text(text, encoding="utf-8")
    return lesson_dir


def mistake(tmp_path: Path, text: str) -> str:
    with pytest.raises(LessonConfigError) as raised:
        read_lesson_config(write(tmp_path, text), SHOWN)
    return str(raised.value)


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if fragment in line)


def test_rag_01_reads_with_the_default_settings():
    config = read_lesson_config(ROOT / "checkpoints" / "rag-01")
    assert config.lesson == "rag-01"
    assert config.ids == ("document_snapshots", "word_chunks", "chunk_coverage")
    assert [checkpoint.number for checkpoint in config.checkpoints] == [1, 2, 3]
    assert config.settings == DEFAULT_SETTINGS == LessonSettings(
        run_seconds=10, check_seconds=5, offline_call_seconds=10, offline_submission_seconds=120,
        offline_modules=(), browser_packages=())


def test_lines_skip_multi_line_strings(tmp_path):
    config = read_lesson_config(write(tmp_path, TWO_CHECKPOINTS), SHOWN)
    assert [checkpoint.line for checkpoint in config.checkpoints] == [3, 9]
    assert config.checkpoint("longest_word").task.startswith("Schrijf `longest_word(text)`.")
    lines = locate_lines(TWO_CHECKPOINTS)
    assert lines.tables("checkpoint")[1].keys == {"id": 10, "title": 11, "task": 12, "hint": 17}


def test_settings_uses_and_a_checkpoint_limit(tmp_path):
    text = TWO_CHECKPOINTS.replace('lesson = "les-01"\n', '''lesson = "les-01"

[settings]
run_seconds = 20
check_seconds = 3
offline_call_seconds = 4
offline_submission_seconds = 60
offline_modules = [
  "sqlite3",
  "xml.etree",
]
browser_packages = ["numpy"]
''').replace('hint = "Gebruik `max`."', 'hint = "Gebruik `max`."\nuses = ["count_words"]\ncheck_seconds = 8')
    config = read_lesson_config(write(tmp_path, text), SHOWN)
    assert config.settings == LessonSettings(run_seconds=20, check_seconds=3, offline_call_seconds=4,
                                             offline_submission_seconds=60,
                                             offline_modules=("sqlite3", "xml.etree"), browser_packages=("numpy",))
    first, second = config.checkpoints
    assert (first.uses, first.check_seconds) == ((), 3)  # the lesson's check limit
    assert (second.uses, second.check_seconds) == (("count_words",), 8)  # its own
    assert config.setting_lines["browser_packages"] == line_of(text, "browser_packages")
    assert config.settings.to_json() == {
        "run_seconds": 20, "check_seconds": 3, "offline_call_seconds": 4, "offline_submission_seconds": 60,
        "offline_modules": ["sqlite3", "xml.etree"], "browser_packages": ["numpy"]}


def test_missing_file(tmp_path):
    with pytest.raises(LessonConfigError) as raised:
        read_lesson_config(tmp_path, SHOWN)
    assert str(raised.value) == f"{SHOWN}: not found"


def test_invalid_toml(tmp_path):
    text = TWO_CHECKPOINTS.replace('title = "Tel de woorden"', 'title = "Tel de woorden')
    assert mistake(tmp_path, text) == f"{SHOWN}:5: invalid TOML: Illegal character '\\n'"


def test_no_checkpoints(tmp_path):
    assert mistake(tmp_path, 'lesson = "les-01"\n') == (
        f"{SHOWN}:1: expected [[checkpoint]] tables with id, title, task and hint")


def test_unknown_top_level_key(tmp_path):
    text = "setings = {}\n" + TWO_CHECKPOINTS
    assert mistake(tmp_path, text) == f"{SHOWN}:1: unknown key 'setings' (did you mean 'settings'?)"


def test_lesson_must_be_text(tmp_path):
    text = TWO_CHECKPOINTS.replace('lesson = "les-01"', "lesson = 1")
    assert mistake(tmp_path, text) == f"{SHOWN}:1: 'lesson' must be a non-empty text, got 1"


def test_unknown_checkpoint_key_with_did_you_mean(tmp_path):
    text = TWO_CHECKPOINTS.replace('title = "Het langste woord"', 'titel = "Het langste woord"')
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:{line_of(text, 'titel =')}: checkpoint 2 has unknown key 'titel' (did you mean 'title'?)")


def test_missing_text(tmp_path):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `split()`."\n', "")
    assert mistake(tmp_path, text) == f"{SHOWN}:3: checkpoint 1 needs a non-empty text 'hint'"


def test_id_must_be_a_function_name(tmp_path):
    text = TWO_CHECKPOINTS.replace('id = "count_words"', 'id = "count-words"')
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:4: checkpoint 1 id 'count-words' is not a function name "
        "(letters, digits and '_', not starting with a digit)")


def test_duplicate_id(tmp_path):
    text = TWO_CHECKPOINTS.replace('id = "longest_word"', 'id = "count_words"')
    assert mistake(tmp_path, text) == f"{SHOWN}:9: checkpoint id 'count_words' appears twice"


@pytest.mark.parametrize("uses, message", [
    ('"count_words"', "checkpoint 2 'uses' must be a list of checkpoint ids, got 'count_words'"),
    ('["longest_word"]', "checkpoint 2 uses itself"),
    ('["count_word"]', "checkpoint 2 uses unknown checkpoint 'count_word' (did you mean 'count_words'?)"),
    ('["count_words", "count_words"]', "checkpoint 2 uses 'count_words' twice"),
])
def test_uses_mistakes(tmp_path, uses, message):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `max`."', f'hint = "Gebruik `max`."\nuses = {uses}')
    assert mistake(tmp_path, text) == f"{SHOWN}:{line_of(text, 'uses =')}: {message}"


def test_uses_a_later_checkpoint(tmp_path):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `split()`."', 'hint = "Gebruik `split()`."\nuses = ["longest_word"]')
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:{line_of(text, 'uses =')}: checkpoint 1 uses 'longest_word', which must be listed before it")


def test_checkpoint_limit_out_of_bounds(tmp_path):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `max`."', 'hint = "Gebruik `max`."\ncheck_seconds = 0')
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:{line_of(text, 'check_seconds')}: checkpoint 2 'check_seconds' must be a whole number "
        "of seconds from 1 to 600, got 0")


def with_settings(body: str) -> str:
    return TWO_CHECKPOINTS.replace('lesson = "les-01"\n', f'lesson = "les-01"\n\n[settings]\n{body}\n')


@pytest.mark.parametrize("body, message", [
    ("check_second = 3", "unknown setting 'check_second' (did you mean 'check_seconds'?)"),
    ("run_seconds = 'tien'", "setting 'run_seconds' must be a whole number of seconds from 1 to 600, got 'tien'"),
    ("run_seconds = true", "setting 'run_seconds' must be a whole number of seconds from 1 to 600, got true"),
    ("check_seconds = 2.5", "setting 'check_seconds' must be a whole number of seconds from 1 to 600, got 2.5"),
    ("offline_call_seconds = 601",
     "setting 'offline_call_seconds' must be a whole number of seconds from 1 to 600, got 601"),
    ("offline_submission_seconds = 7201",
     "setting 'offline_submission_seconds' must be a whole number of seconds from 1 to 7200, got 7201"),
    ("offline_submission_seconds = 5",
     "setting 'offline_submission_seconds' (5) must be at least 'offline_call_seconds' (10)"),
    ("offline_modules = 'sqlite3'", "setting 'offline_modules' must be a list of names, got 'sqlite3'"),
    ("offline_modules = ['sql lite']",
     "setting 'offline_modules' has 'sql lite', which is not a module name (like 'sqlite3' or 'xml.etree')"),
    ("offline_modules = ['sqlite3', 'sqlite3']", "setting 'offline_modules' lists 'sqlite3' twice"),
    ("browser_packages = [3]", "setting 'browser_packages' has 3, which is not a package name (like 'numpy')"),
])
def test_setting_mistakes(tmp_path, body, message):
    text = with_settings(body)
    assert mistake(tmp_path, text) == f"{SHOWN}:{line_of(text, body.split()[0])}: {message}"


def test_settings_must_be_a_table(tmp_path):
    text = "settings = 3\n" + TWO_CHECKPOINTS
    assert mistake(tmp_path, text) == f"{SHOWN}:1: 'settings' must be a table ([settings]), got 3"


def test_the_submission_limit_blames_the_call_limit_when_only_that_is_set(tmp_path):
    text = with_settings("offline_call_seconds = 200")
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:{line_of(text, 'offline_call_seconds')}: setting 'offline_submission_seconds' (120) "
        "must be at least 'offline_call_seconds' (200)")


# ---- points and the pass mark (docs/grading.md, "Points and grades") ----------------------------


def test_points_default_to_one_per_checkpoint_and_the_pass_mark_to_55(tmp_path):
    config = read_lesson_config(write(tmp_path, TWO_CHECKPOINTS), SHOWN)
    assert [checkpoint.points for checkpoint in config.checkpoints] == [1, 1]
    assert config.grading.pass_percent == 55


def test_points_per_checkpoint_and_the_pass_mark_are_read(tmp_path):
    text = with_settings("pass_percent = 60").replace('hint = "Gebruik `split()`."',
                                                      'hint = "Gebruik `split()`."\npoints = 3')
    config = read_lesson_config(write(tmp_path, text), SHOWN)
    assert [checkpoint.points for checkpoint in config.checkpoints] == [3, 1]
    assert config.grading.pass_percent == 60
    assert "pass_percent" not in config.settings.to_json()  # the page never grades


@pytest.mark.parametrize("body, message", [
    ("pass_percent = 100", "setting 'pass_percent' must be a whole number of percent from 1 to 99, got 100"),
    ("pass_percent = 55.5", "setting 'pass_percent' must be a whole number of percent from 1 to 99, got 55.5"),
    ("pass_procent = 55", "unknown setting 'pass_procent' (did you mean 'pass_percent'?)"),
])
def test_pass_mark_mistakes(tmp_path, body, message):
    text = with_settings(body)
    assert mistake(tmp_path, text) == f"{SHOWN}:{line_of(text, body.split()[0])}: {message}"


@pytest.mark.parametrize("value, message", [
    ("-1", "checkpoint 1 'points' must be a whole number of points from 0 to 100, got -1"),
    ("1.5", "checkpoint 1 'points' must be a whole number of points from 0 to 100, got 1.5"),
    ("'twee'", "checkpoint 1 'points' must be a whole number of points from 0 to 100, got 'twee'"),
])
def test_point_mistakes(tmp_path, value, message):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `split()`."', f'hint = "Gebruik `split()`."\npoints = {value}')
    assert mistake(tmp_path, text) == f"{SHOWN}:{line_of(text, 'points =')}: {message}"


def test_a_lesson_worth_no_points_is_refused(tmp_path):
    text = TWO_CHECKPOINTS.replace('hint = "Gebruik `split()`."', 'hint = "Gebruik `split()`."\npoints = 0').replace(
        'hint = "Gebruik `max`."', 'hint = "Gebruik `max`."\npoints = 0')
    assert mistake(tmp_path, text) == (
        f"{SHOWN}:3: every checkpoint has 'points = 0': at least one must be worth a point")
