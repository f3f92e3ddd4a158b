"""The one reader of `checkpoints/<lesson-id>/checkpoints.toml`, for the builder and the runner.

    lesson = "woorden-01"        # optional; default: the folder's name

    [settings]                   # optional, every key too (defaults: DEFAULT_SETTINGS)
    run_seconds = 10             # the editor's Uitvoeren in the page
    check_seconds = 5            # all tests of one checkpoint together, in the page and offline
    offline_call_seconds = 10    # one call of learner code offline (--call-timeout overrides)
    offline_submission_seconds = 120  # one whole submission offline (--submission-timeout overrides)
    offline_modules = ["sqlite3"]     # importable offline on top of runner.offline.sandbox.host's list
    browser_packages = ["numpy"]      # Pyodide packages the page loads before anything runs
    pass_percent = 55            # share of the points that makes a 5.5 (docs/grading.md, "Grades")

    [[checkpoint]]               # in the lesson's order; the id is the function's name
    id = "word_counts"
    title = "..."                # Dutch, plain text
    task = '''...'''             # Dutch, inline Markdown
    hint = '''...'''
    uses = ["words"]             # optional: earlier checkpoints this one builds on
    check_seconds = 8            # optional: this checkpoint's own check limit
    points = 2                   # optional: what passing it is worth offline (default 1)

Strict: every mistake is a `LessonConfigError` with the file, the line of the offending key or
table and one English sentence (did-you-mean for unknown keys). Standard library only: this
module ships into the browser with the rest of runner/core/.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

CONFIG_FILE = "checkpoints.toml"
CHECKPOINT_TEXTS = ("id", "title", "task", "hint")
CHECKPOINT_OPTIONS = ("uses", "check_seconds", "points")
TOP_LEVEL_KEYS = ("lesson", "settings", "checkpoint")
FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
PACKAGE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")
TOML_POSITION = re.compile(r"\s*\(at (line \d+, column \d+|end of document)\)")


class LessonConfigError(Exception):
    """A teacher's mistake in checkpoints.toml; `str()` is the one line `file:line: message`."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return f"{self.file}: {self.message}" if self.line is None else f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class SecondsRange:
    """Whole seconds, so the page, the offline grader and the docs all say the same number."""

    low: int
    high: int


SECONDS_RANGES = {
    "run_seconds": SecondsRange(1, 600),
    "check_seconds": SecondsRange(1, 600),
    "offline_call_seconds": SecondsRange(1, 600),
    "offline_submission_seconds": SecondsRange(1, 7200),
}


@dataclass(frozen=True)
class LessonSettings:
    """Per-lesson limits and modules; the defaults are what every lesson had before settings."""

    run_seconds: int = 10
    check_seconds: int = 5
    offline_call_seconds: int = 10
    offline_submission_seconds: int = 120
    offline_modules: tuple[str, ...] = ()
    browser_packages: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {item.name: list(value) if isinstance(value := getattr(self, item.name), tuple) else value
                for item in fields(self)}


DEFAULT_SETTINGS = LessonSettings()
DEFAULT_POINTS = 1
MAX_POINTS = 100  # per checkpoint


@dataclass(frozen=True)
class GradingSettings:
    """How the offline grader turns points into a grade (docs/grading.md, "Points and grades").
    Kept apart from LessonSettings: the page never grades, so these are not in its meta.json."""

    pass_percent: int = 55  # share of the points (whole percent) that makes exactly a 5.5


DEFAULT_GRADING = GradingSettings()
GRADING_SETTING_NAMES = tuple(item.name for item in fields(GradingSettings))
PASS_PERCENT_RANGE = (1, 99)  # 100 would leave no room above the pass mark
SETTING_NAMES = tuple(item.name for item in fields(LessonSettings)) + GRADING_SETTING_NAMES


@dataclass(frozen=True)
class CheckpointConfig:
    id: str  # the function name
    number: int  # 1-based position in the lesson
    title: str
    task: str  # inline Markdown
    hint: str  # inline Markdown
    uses: tuple[str, ...] = ()  # earlier checkpoints this one builds on, in the order written
    check_seconds: int = DEFAULT_SETTINGS.check_seconds  # all its shipped tests together, page and offline
    line: int = 1  # of its [[checkpoint]] header
    points: int = DEFAULT_POINTS  # what passing it is worth in the offline grade


@dataclass(frozen=True)
class LessonConfig:
    lesson: str
    checkpoints: tuple[CheckpointConfig, ...]
    settings: LessonSettings
    file: str  # as messages name it
    setting_lines: dict[str, int] = field(default_factory=dict, compare=False)  # for later checks (builder)
    grading: GradingSettings = DEFAULT_GRADING

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(checkpoint.id for checkpoint in self.checkpoints)

    def checkpoint(self, checkpoint_id: str) -> CheckpointConfig:
        for checkpoint in self.checkpoints:
            if checkpoint.id == checkpoint_id:
                return checkpoint
        raise KeyError(checkpoint_id)


def suggestion(name: str, known: list[str] | tuple[str, ...]) -> str:
    """" (did you mean 'title'?)" for a near miss, else ""."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def describe(value: Any) -> str:
    """A TOML value as the teacher wrote it, for "got ..." in a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def read_lesson_config(lesson_dir: Path | str, shown_file: str | None = None) -> LessonConfig:
    """Read and validate `lesson_dir/checkpoints.toml`. `shown_file` names it in messages
    (the builder's "checkpoints/woorden-01/checkpoints.toml"); default: its path."""
    lesson_dir = Path(lesson_dir)
    path = lesson_dir / CONFIG_FILE
    shown = shown_file or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LessonConfigError(shown, None, "not found") from None
    except UnicodeDecodeError as error:
        raise LessonConfigError(shown, None, f"the file is not UTF-8 text ({error.reason})") from None
    return parse_lesson_config(text, shown, default_lesson=lesson_dir.name)


def parse_lesson_config(text: str, shown: str, default_lesson: str) -> LessonConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = TOML_LINE.search(str(error))
        line = int(found.group(1)) if found else max(1, len(text.splitlines()))
        raise LessonConfigError(shown, line, f"invalid TOML: {TOML_POSITION.sub('', str(error)).strip()}") from None
    lines = locate_lines(text)
    reader = _Reader(shown, lines)
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            reader.fail(lines.root.line_of(key), f"unknown key '{key}'{suggestion(key, TOP_LEVEL_KEYS)}")
    lesson = data.get("lesson", default_lesson)
    if not isinstance(lesson, str) or not lesson.strip():
        reader.fail(lines.root.line_of("lesson"), f"'lesson' must be a non-empty text, got {describe(lesson)}")
    settings, grading, setting_lines = reader.settings(data.get("settings", {}))
    checkpoints = reader.checkpoints(data.get("checkpoint"), settings)
    if not any(checkpoint.points for checkpoint in checkpoints):
        reader.fail(checkpoints[0].line, "every checkpoint has 'points = 0': at least one must be worth a point")
    return LessonConfig(lesson=lesson, checkpoints=checkpoints, settings=settings, file=shown,
                        setting_lines=setting_lines, grading=grading)


class _Reader:
    def __init__(self, shown: str, lines: TomlLines) -> None:
        self.shown = shown
        self.lines = lines

    def fail(self, line: int, message: str) -> None:
        raise LessonConfigError(self.shown, line, message)

    # -- [settings] -------------------------------------------------------------------------

    def settings(self, table: Any) -> tuple[LessonSettings, GradingSettings, dict[str, int]]:
        located = self.lines.table("settings")
        if not isinstance(table, dict):
            self.fail(self.lines.root.line_of("settings"), f"'settings' must be a table ([settings]), got {describe(table)}")
        values: dict[str, Any] = {}
        grading: dict[str, Any] = {}
        key_lines = {}
        for key, value in table.items():
            line = located.line_of(key) if located else self.lines.root.line_of("settings")
            key_lines[key] = line
            if key not in SETTING_NAMES:
                self.fail(line, f"unknown setting '{key}'{suggestion(key, SETTING_NAMES)}")
            if key == "pass_percent":
                grading[key] = self.whole(line, f"setting '{key}'", value, *PASS_PERCENT_RANGE, "percent")
            elif key in SECONDS_RANGES:
                values[key] = self.seconds(line, f"setting '{key}'", value, SECONDS_RANGES[key])
            elif key == "offline_modules":
                values[key] = self.names(line, key, value, MODULE_NAME, "a module name (like 'sqlite3' or 'xml.etree')")
            else:
                values[key] = self.names(line, key, value, PACKAGE_NAME, "a package name (like 'numpy')")
        settings = LessonSettings(**values)
        if settings.offline_submission_seconds < settings.offline_call_seconds:
            blamed = "offline_submission_seconds" if "offline_submission_seconds" in key_lines else "offline_call_seconds"
            self.fail(key_lines[blamed], f"setting 'offline_submission_seconds' ({settings.offline_submission_seconds}) "
                                         f"must be at least 'offline_call_seconds' ({settings.offline_call_seconds})")
        return settings, GradingSettings(**grading), key_lines

    def seconds(self, line: int, what: str, value: Any, allowed: SecondsRange) -> int:
        if type(value) is not int or not allowed.low <= value <= allowed.high:
            self.fail(line, f"{what} must be a whole number of seconds from {allowed.low} to {allowed.high}, "
                            f"got {describe(value)}")
        seconds: int = value
        return seconds

    def whole(self, line: int, what: str, value: Any, low: int, high: int, unit: str) -> int:
        if type(value) is not int or not low <= value <= high:
            self.fail(line, f"{what} must be a whole number of {unit} from {low} to {high}, got {describe(value)}")
        number: int = value
        return number

    def names(self, line: int, key: str, value: Any, pattern: re.Pattern[str], kind: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.fail(line, f"setting '{key}' must be a list of names, got {describe(value)}")
        seen: list[str] = []
        for name in value:
            if not isinstance(name, str) or not pattern.fullmatch(name):
                self.fail(line, f"setting '{key}' has {describe(name)}, which is not {kind}")
            if name in seen:
                self.fail(line, f"setting '{key}' lists '{name}' twice")
            seen.append(name)
        return tuple(seen)

    # -- [[checkpoint]] ---------------------------------------------------------------------

    def checkpoints(self, entries: Any, settings: LessonSettings) -> tuple[CheckpointConfig, ...]:
        if not isinstance(entries, list) or not entries or not all(isinstance(entry, dict) for entry in entries):
            self.fail(self.lines.root.line_of("checkpoint") if "checkpoint" in self.lines.root.keys else 1,
                      "expected [[checkpoint]] tables with id, title, task and hint")
        tables = self.lines.tables("checkpoint")
        result: list[CheckpointConfig] = []
        for position, entry in enumerate(entries):
            number = position + 1
            located = tables[position] if position < len(tables) else TableLines(1)
            line = located.line
            # Unknown keys first: a mistyped `titel` explains the missing 'title' that follows from it.
            for key in entry:
                if key not in CHECKPOINT_TEXTS + CHECKPOINT_OPTIONS:
                    self.fail(located.line_of(key), f"checkpoint {number} has unknown key '{key}'"
                                                    f"{suggestion(key, CHECKPOINT_TEXTS + CHECKPOINT_OPTIONS)}")
            for key in CHECKPOINT_TEXTS:
                value = entry.get(key)
                if not isinstance(value, str) or not value.strip():
                    self.fail(line, f"checkpoint {number} needs a non-empty text '{key}'")
            checkpoint_id = entry["id"]
            if not FUNCTION_NAME.fullmatch(checkpoint_id):
                self.fail(located.line_of("id"), f"checkpoint {number} id '{checkpoint_id}' is not a function name "
                                                 "(letters, digits and '_', not starting with a digit)")
            earlier = [checkpoint.id for checkpoint in result]
            if checkpoint_id in earlier:
                self.fail(line, f"checkpoint id '{checkpoint_id}' appears twice")
            check_seconds = settings.check_seconds
            if "check_seconds" in entry:
                check_seconds = self.seconds(located.line_of("check_seconds"), f"checkpoint {number} 'check_seconds'",
                                             entry["check_seconds"], SECONDS_RANGES["check_seconds"])
            points = DEFAULT_POINTS
            if "points" in entry:
                points = self.whole(located.line_of("points"), f"checkpoint {number} 'points'", entry["points"],
                                    0, MAX_POINTS, "points")
            uses = self.uses(located.line_of("uses"), number, checkpoint_id, entry.get("uses", []), earlier,
                             [entry.get("id") for entry in entries[position + 1:]])
            result.append(CheckpointConfig(
                id=checkpoint_id, number=number, title=entry["title"], task=entry["task"], hint=entry["hint"],
                uses=uses, check_seconds=check_seconds, line=line, points=points,
            ))
        return tuple(result)

    def uses(self, line: int, number: int, checkpoint_id: str, value: Any, earlier: list[str],
             later: list[Any]) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.fail(line, f"checkpoint {number} 'uses' must be a list of checkpoint ids, got {describe(value)}")
        seen: list[str] = []
        for used in value:
            if used == checkpoint_id:
                self.fail(line, f"checkpoint {number} uses itself")
            if used in later:
                self.fail(line, f"checkpoint {number} uses '{used}', which must be listed before it")
            if used not in earlier:
                self.fail(line, f"checkpoint {number} uses unknown checkpoint '{used}'{suggestion(used, earlier)}")
            if used in seen:
                self.fail(line, f"checkpoint {number} uses '{used}' twice")
            seen.append(used)
        return tuple(seen)


# -- where things are: tomllib keeps no positions -----------------------------------------------


@dataclass
class TableLines:
    line: int  # of the table's header (1 for the document's top level)
    keys: dict[str, int] = field(default_factory=dict)  # first line of each key (its first dotted part)

    def line_of(self, key: str) -> int:
        return self.keys.get(key, self.line)


@dataclass
class TomlLines:
    root: TableLines
    headers: list[tuple[str, TableLines]]  # every [table] and [[array]] header, in order

    def tables(self, name: str) -> list[TableLines]:
        return [lines for header, lines in self.headers if header == name]

    def table(self, name: str) -> TableLines | None:
        found = self.tables(name)
        return found[0] if found else None


HEADER = re.compile(r"\[\[?\s*(?P<name>[^\]]+?)\s*\]\]?")
KEY = re.compile(r"""(?P<key>[A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*[.=]""")


def locate_lines(text: str) -> TomlLines:
    """Header and key lines of a document tomllib has accepted, skipping multi-line strings and
    the continuation lines of multi-line arrays (whose lines may look like keys or headers)."""
    root = TableLines(1)
    current = root
    headers: list[tuple[str, TableLines]] = []
    open_string: str | None = None  # the delimiter of a multi-line string that is still open
    depth = 0  # open brackets of a multi-line array
    for number, line in enumerate(text.splitlines(), start=1):
        if open_string is None and depth == 0:
            stripped = line.strip()
            header = HEADER.match(stripped)
            key = KEY.match(stripped)
            if header and stripped.startswith("["):
                current = TableLines(number)
                headers.append((header.group("name").strip().strip("\"'"), current))
                continue
            if key:
                current.keys.setdefault(key.group("key").strip("\"'"), number)
        open_string, depth = _scan(line, open_string, depth)
    return TomlLines(root, headers)


def _scan(line: str, open_string: str | None, depth: int) -> tuple[str | None, int]:
    """After this line: the still-open multi-line string delimiter and the bracket depth."""
    index = 0
    in_value = False  # brackets count only after '=' (or inside an open array)
    while index < len(line):
        if open_string is not None:
            end = line.find(open_string, index)
            if end < 0:
                return open_string, depth
            index = end + 3
            open_string = None
            continue
        char = line[index]
        if char == "#":
            break
        if line.startswith('"""', index) or line.startswith("'''", index):
            open_string = line[index:index + 3]
            index += 3
            continue
        if char in "\"'":
            end = index + 1
            while end < len(line) and line[end] != char:
                end += 2 if char == '"' and line[end] == "\\" else 1
            index = end + 1
            continue
        if char == "=":
            in_value = True
        elif char in "[{" and (in_value or depth > 0):
            depth += 1
        elif char in "]}" and depth > 0:
            depth -= 1
        index += 1
    return open_string, depth
