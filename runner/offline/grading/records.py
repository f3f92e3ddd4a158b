"""Result records: what `results.jsonl` holds, one `ResultRecord` per line (docs/grading.md).

The one writer is `record_line` (a record as one JSON line), the one reader `read_results` (the
records of a file, each line validated). Everything else (the batch, the gradebook, the report,
the CLI) works with the dataclasses. The JSON form is the one this runner has always written;
files from before the `sandbox` record existed are read too (their records have `sandbox=None`).

A line that is not a valid record stops reading with `ResultsFileError`, whose text is one line
`path:line: reason`; a torn last line (no newline: a run killed while writing) is not an error,
it is cut off (with `repair`) or left out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeGuard, TypeVar, overload

from runner.core import wire
from runner.core.model import STATUSES, CheckpointResult, TestResult

ResultStatus = Literal["graded", "invalid"]
RESULT_STATUSES: tuple[str, ...] = ("graded", "invalid")

# (submission path, SHA-256 of the file, test bundle hash): a result is current when all match.
ResultKey = tuple[str, str, str]


class RecordError(ValueError):
    """A JSON value that is not a result record; the text names the field, e.g. `checkpoints[0].status`."""


class ResultsFileError(ValueError):
    """A line of a results file that is not a result record: `str()` is `path:line: reason`."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class TestRecord:
    """One test's verdict as recorded; `expected`/`actual` only for visible tests (worked examples)."""

    __test__ = False  # not a pytest test class

    name: str
    status: str  # one of STATUSES
    message: str = ""  # Dutch, as the learner saw it; empty on pass
    duration_ms: float = 0.0
    visible: bool = False
    expected: str | None = None
    actual: str | None = None

    @classmethod
    def from_result(cls, test: TestResult) -> TestRecord:
        return cls(
            name=test.name,
            status=test.status,
            message=test.message,
            duration_ms=round(test.duration_ms, 3),
            visible=test.visible,
            expected=test.expected if test.visible else None,
            actual=test.actual if test.visible else None,
        )

    @property
    def shows_values(self) -> bool:
        return self.expected is not None or self.actual is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name, "status": self.status, "message": self.message, "duration_ms": self.duration_ms,
        }
        if self.visible:
            data["visible"] = True
        if self.expected is not None:
            data["expected"] = self.expected
        if self.actual is not None:
            data["actual"] = self.actual
        return data

    @classmethod
    def from_json(cls, data: object, where: str) -> TestRecord:
        fields = _Fields(data, where, ("name", "status", "message", "duration_ms", "visible", "expected", "actual"))
        return cls(
            name=fields.text("name"),
            status=fields.choice("status", STATUSES),
            message=fields.text("message"),
            duration_ms=fields.number("duration_ms"),
            visible=fields.flag("visible", optional=True, default=False),
            expected=fields.text("expected", optional=True),
            actual=fields.text("actual", optional=True),
        )


@dataclass(frozen=True)
class CheckpointRecord:
    """A checkpoint's tests in their order; its status is that of the first test that did not pass."""

    id: str
    status: str  # one of STATUSES
    tests: tuple[TestRecord, ...] = ()
    uses_failing: tuple[str, ...] = ()  # checkpoints it uses that failed too (CheckpointResult)

    @classmethod
    def from_result(cls, checkpoint: CheckpointResult) -> CheckpointRecord:
        return cls(checkpoint.id, checkpoint.status, tuple(TestRecord.from_result(t) for t in checkpoint.tests),
                   checkpoint.uses_failing)

    @property
    def first_failure(self) -> TestRecord | None:
        return next((test for test in self.tests if test.status != "pass"), None)

    @property
    def failures(self) -> tuple[TestRecord, ...]:
        return tuple(test for test in self.tests if test.status != "pass")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "status": self.status, "tests": [test.to_json() for test in self.tests]}
        if self.uses_failing:
            data["uses_failing"] = list(self.uses_failing)
        return data

    @classmethod
    def from_json(cls, data: object, where: str) -> CheckpointRecord:
        fields = _Fields(data, where, ("id", "status", "tests", "uses_failing"))
        uses_failing = fields.texts("uses_failing")
        return cls(
            id=fields.text("id"),
            status=fields.choice("status", STATUSES),
            tests=tuple(TestRecord.from_json(test, f"{where}.tests[{index}]")
                        for index, test in enumerate(fields.array("tests"))),
            uses_failing=uses_failing,
        )


@dataclass(frozen=True)
class SandboxRecord:
    """Which of the sandbox's protections held while a submission's code ran (docs/grading.md,
    "The sandbox"). `cgroup_limits` is None unless they were asked for (--cgroup-limits)."""

    sandbox_user: bool
    private_filesystem: bool
    network_isolation: bool
    cgroup_limits: bool | None = None

    def missing(self) -> tuple[str, ...]:
        """The names (as recorded) of the protections that did not hold."""
        return tuple(name for name, held in self.to_json().items() if not held)

    def to_json(self) -> dict[str, bool]:
        data = {
            "sandbox_user": self.sandbox_user,
            "private_filesystem": self.private_filesystem,
            "network_isolation": self.network_isolation,
        }
        if self.cgroup_limits is not None:
            data["cgroup_limits"] = self.cgroup_limits
        return data

    @classmethod
    def from_json(cls, data: object, where: str) -> SandboxRecord:
        fields = _Fields(data, where, ("sandbox_user", "private_filesystem", "network_isolation", "cgroup_limits"))
        return cls(
            sandbox_user=fields.flag("sandbox_user"),
            private_filesystem=fields.flag("private_filesystem"),
            network_isolation=fields.flag("network_isolation"),
            cgroup_limits=fields.flag("cgroup_limits", optional=True),
        )


@dataclass(frozen=True)
class ResultRecord:
    """The result of grading one submission: one line of results.jsonl."""

    submission: str  # absolute path of the file
    learner: str
    lesson: str
    status: str  # one of RESULT_STATUSES
    score: int
    max_score: int
    code_sha256: str | None  # None when the file could not be decoded
    source_sha256: str  # "" when the file could not be read
    runner_version: str
    bundle_sha256: str
    graded_at: str
    checkpoints: tuple[CheckpointRecord, ...] = ()
    message: str | None = None  # why it is invalid
    sandbox: SandboxRecord | None = None  # graded submissions (None in files from before it existed)
    created_at: str | None = None  # copied from a JSON submission, like the next two
    lesson_revision: str | None = None
    browser_verdicts: dict[str, str] = field(default_factory=dict)
    code: str | None = None  # the code graded, for the report and feedback (None in older files)

    @property
    def key(self) -> ResultKey:
        return (self.submission, self.source_sha256, self.bundle_sha256)

    @property
    def graded(self) -> bool:
        return self.status == "graded"

    def statuses(self) -> dict[str, str]:
        """Checkpoint id -> status."""
        return {checkpoint.id: checkpoint.status for checkpoint in self.checkpoints}

    def checkpoint(self, checkpoint_id: str) -> CheckpointRecord | None:
        return next((c for c in self.checkpoints if c.id == checkpoint_id), None)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of one line, its fields in the order this runner has always written them."""
        data: dict[str, Any] = {
            "submission": self.submission,
            "learner": self.learner,
            "lesson": self.lesson,
            "status": self.status,
            "score": self.score,
            "max_score": self.max_score,
            "code_sha256": self.code_sha256,
            "source_sha256": self.source_sha256,
            "checkpoints": [checkpoint.to_json() for checkpoint in self.checkpoints],
        }
        if self.message is not None:
            data["message"] = self.message
        if self.sandbox is not None:
            data["sandbox"] = self.sandbox.to_json()
        if self.created_at is not None:
            data["created_at"] = self.created_at
        if self.lesson_revision is not None:
            data["lesson_revision"] = self.lesson_revision
        if self.browser_verdicts:
            data["browser_verdicts"] = dict(self.browser_verdicts)
        if self.code is not None:
            data["code"] = self.code
        data["runner_version"] = self.runner_version
        data["bundle_sha256"] = self.bundle_sha256
        data["graded_at"] = self.graded_at
        return data

    @classmethod
    def from_json(cls, data: object) -> ResultRecord:
        fields = _Fields(data, "", (
            "submission", "learner", "lesson", "status", "score", "max_score", "code_sha256", "source_sha256",
            "checkpoints", "message", "sandbox", "created_at", "lesson_revision", "browser_verdicts",
            "code", "runner_version", "bundle_sha256", "graded_at",
        ))
        # Checked in the order of the line, so the error names the first field that is wrong.
        submission, learner, lesson = fields.text("submission"), fields.text("learner"), fields.text("lesson")
        status = fields.choice("status", RESULT_STATUSES)
        raw_sandbox = fields.get("sandbox")
        return cls(
            submission=submission,
            learner=learner,
            lesson=lesson,
            status=status,
            score=fields.count("score"),
            max_score=fields.count("max_score"),
            code_sha256=fields.text("code_sha256", nullable=True),
            source_sha256=fields.text("source_sha256"),
            checkpoints=tuple(CheckpointRecord.from_json(checkpoint, f"checkpoints[{index}]")
                              for index, checkpoint in enumerate(fields.array("checkpoints"))),
            message=fields.text("message", optional=status == "graded"),
            sandbox=None if raw_sandbox is None else SandboxRecord.from_json(raw_sandbox, "sandbox"),
            created_at=fields.text("created_at", optional=True),
            lesson_revision=fields.text("lesson_revision", optional=True),
            browser_verdicts=fields.verdicts("browser_verdicts"),
            code=fields.text("code", optional=True),
            runner_version=fields.text("runner_version"),
            bundle_sha256=fields.text("bundle_sha256"),
            graded_at=fields.text("graded_at"),
        )


T = TypeVar("T")


class _Fields:
    """Typed access to one JSON object's fields; every mistake is a RecordError naming the field."""

    def __init__(self, data: object, where: str, known: tuple[str, ...]) -> None:
        if type(data) is not dict:
            raise RecordError(f"{where or 'the line'} must be a JSON object, not {_json_type(data)}")
        unknown = sorted(name for name in data if name not in known)
        if unknown:
            raise RecordError(f"unknown field {self._name(where, unknown[0])!r}")
        self.data = data
        self.where = where

    @staticmethod
    def _name(where: str, name: str) -> str:
        return f"{where}.{name}" if where else name

    def get(self, name: str) -> object:
        return self.data.get(name)

    def _field(self, name: str, kind: str, accepts: Callable[[object], TypeGuard[T]], *,
               absent_ok: bool, null_ok: bool) -> T | None:
        """The field's value as accepts checks it; None when it is absent (absent_ok) or null (null_ok)."""
        if name not in self.data:
            if absent_ok:
                return None
            raise RecordError(f"missing field {self._name(self.where, name)!r}")
        value = self.data[name]
        if value is None and null_ok:
            return None
        if not accepts(value):
            raise RecordError(f"field {self._name(self.where, name)!r} must be {kind}, not {_json_type(value)}")
        return value

    def _required(self, name: str, kind: str, accepts: Callable[[object], TypeGuard[T]]) -> T:
        value = self._field(name, kind, accepts, absent_ok=False, null_ok=False)
        assert value is not None  # neither absent nor null got through: no accepts takes None
        return value

    @overload
    def text(self, name: str) -> str: ...
    @overload
    def text(self, name: str, optional: bool = False, nullable: bool = False) -> str | None: ...
    def text(self, name: str, optional: bool = False, nullable: bool = False) -> str | None:
        return self._field(name, "a string", _is_text, absent_ok=optional, null_ok=optional or nullable)

    @overload
    def flag(self, name: str) -> bool: ...
    @overload
    def flag(self, name: str, optional: bool, default: bool) -> bool: ...
    @overload
    def flag(self, name: str, optional: bool = False, default: None = None) -> bool | None: ...
    def flag(self, name: str, optional: bool = False, default: bool | None = None) -> bool | None:
        value = self._field(name, "true or false", _is_flag, absent_ok=optional, null_ok=optional)
        return default if value is None else value

    def count(self, name: str) -> int:
        return self._required(name, "a whole number of at least 0", _is_count)

    def number(self, name: str) -> float:
        return self._required(name, "a number", _is_number)

    def array(self, name: str) -> list[object]:
        return self._required(name, "a list", _is_array)

    def texts(self, name: str) -> tuple[str, ...]:
        """An optional list of strings (absent: empty)."""
        return tuple(self._field(name, "a list of strings", _is_texts, absent_ok=True, null_ok=True) or ())

    def choice(self, name: str, allowed: tuple[str, ...]) -> str:
        value = self._required(name, "a string", _is_text)
        if value not in allowed:
            raise RecordError(f"field {self._name(self.where, name)!r} must be one of {', '.join(allowed)}, "
                              f"not {value!r}")
        return value

    def verdicts(self, name: str) -> dict[str, str]:
        value = self._field(name, "an object", _is_object, absent_ok=True, null_ok=True)
        verdicts: dict[str, str] = {}
        for checkpoint_id, verdict in (value or {}).items():
            if type(verdict) is not str or verdict not in STATUSES:
                raise RecordError(f"field {self._name(self.where, name)!r} must map checkpoint ids to "
                                  f"{', '.join(STATUSES)}, not {checkpoint_id!r}: {verdict!r}")
            verdicts[checkpoint_id] = verdict
        return verdicts


# What each field accessor accepts; TypeGuards, so the value comes back with its type.
def _is_text(value: object) -> TypeGuard[str]:
    return type(value) is str


def _is_flag(value: object) -> TypeGuard[bool]:
    return type(value) is bool


def _is_count(value: object) -> TypeGuard[int]:
    return type(value) is int and value >= 0


def _is_number(value: object) -> TypeGuard[float]:
    return type(value) in (int, float)


def _is_array(value: object) -> TypeGuard[list[object]]:
    return type(value) is list


def _is_texts(value: object) -> TypeGuard[list[str]]:
    return type(value) is list and all(type(item) is str for item in value)


def _is_object(value: object) -> TypeGuard[dict[str, object]]:
    return type(value) is dict  # parsed JSON: its keys are strings


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


# ---- the one writer and the one reader -----------------------------------------------------


def record_line(record: ResultRecord) -> bytes:
    """A record as the line results.jsonl holds: ASCII JSON and a newline."""
    return wire.json_line(record.to_json())


def parse_record_line(line: bytes) -> ResultRecord:
    """One line of results.jsonl (without its newline) as a record; RecordError says why not."""
    try:
        data = json.loads(line)
    except ValueError as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise RecordError(f"not JSON: {reason}") from None
    except RecursionError:
        raise RecordError("not JSON: nested too deeply") from None
    return ResultRecord.from_json(data)


@dataclass
class ExistingResults:
    results: dict[ResultKey, ResultRecord] = field(default_factory=dict)  # a later line wins
    torn_bytes: int = 0  # length of a torn last line (left out, or cut off with repair)


def read_results(path: Path, repair: bool = False) -> ExistingResults:
    """The records in a results file (none when it does not exist); with repair, a torn last line is
    cut off the file. Raises ResultsFileError for the first line that is not a valid record."""
    existing = ExistingResults()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return existing
    complete_end = data.rfind(b"\n") + 1
    existing.torn_bytes = len(data) - complete_end
    if existing.torn_bytes and repair:
        _truncate(path, complete_end)
    for number, line in enumerate(data[:complete_end].split(b"\n")[:-1], start=1):
        if not line.strip():
            continue
        try:
            record = parse_record_line(line)
        except RecordError as error:
            raise ResultsFileError(path, number, str(error)) from None
        existing.results[record.key] = record
    return existing


def cut_torn_last_line(path: Path) -> int:
    """Cut a torn last line off a results file without reading its records; its length in bytes."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    complete_end = data.rfind(b"\n") + 1
    if complete_end < len(data):
        _truncate(path, complete_end)
    return len(data) - complete_end


def _truncate(path: Path, length: int) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(length)
        handle.flush()
        os.fsync(handle.fileno())
