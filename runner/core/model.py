"""The grading domain: what loading code, calling a function and running a test produce.

Everything here is plain data. `LoadReport` and `CallOutcome` also have a wire form (JSON-safe
dicts) because the offline host receives them from a child process; `from_wire` validates that
form strictly, since the child runs learner code and may send anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from runner.core import messages, plain

Status = Literal["pass", "fail", "error", "timeout"]
STATUSES: tuple[str, ...] = ("pass", "fail", "error", "timeout")

# How a learner call ended: it returned, it raised, it ran out of time, or the host failed.
CallKind = Literal["return", "raise", "timeout", "error"]
CALL_KINDS: tuple[str, ...] = ("return", "raise", "timeout", "error")

# Why loading failed (None when the code loaded).
LoadProblem = Literal["syntax", "exception", "timeout", "error"]
LOAD_PROBLEMS: tuple[str, ...] = ("syntax", "exception", "timeout", "error")

MAX_MESSAGE_CHARS = 300
MAX_STDOUT_CHARS = 20_000


class WireError(ValueError):
    """A wire dict that does not have the documented shape."""


def _expect(wire: Any, key: str, types: type | tuple[type, ...], optional: bool = False) -> Any:
    if type(wire) is not dict:
        raise WireError("expected an object")
    if key not in wire:
        if optional:
            return None
        raise WireError(f"missing field {key!r}")
    value = wire[key]
    if value is None and optional:
        return None
    allowed = types if isinstance(types, tuple) else (types,)
    if type(value) not in allowed:
        raise WireError(f"field {key!r} has type {type(value).__name__}")
    return value


def _paths_from_wire(wire: Any, key: str) -> tuple[tuple[Any, ...], ...]:
    """An optional list of index/key paths (at most 1000), as tuples."""
    paths = _expect(wire, key, list, optional=True) or []
    checked = []
    for path in paths[:1000]:
        if type(path) is not list or any(type(step) not in (int, str) for step in path):
            raise WireError(f"{key} holds a malformed path")
        checked.append(tuple(path))
    return tuple(checked)


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, the cut marked with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised by learner code, reduced to what the learner needs to see."""

    type_name: str
    is_value_error: bool
    message: str
    line: int | None = None  # line in main.py where it was raised, if it came from there

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": self.type_name,
            "is_value_error": self.is_value_error,
            "message": self.message,
            "line": self.line,
        }

    @classmethod
    def from_wire(cls, wire: Any) -> ErrorInfo:
        return cls(
            type_name=clip(_expect(wire, "type", str), 80),
            is_value_error=_expect(wire, "is_value_error", bool),
            message=clip(_expect(wire, "message", str), MAX_MESSAGE_CHARS),
            line=_expect(wire, "line", int, optional=True),
        )

    def describe(self) -> str:
        """'ValueError: te lang (regel 12)' for learner-facing messages."""
        text = f"{self.type_name}: {self.message}" if self.message else self.type_name
        if self.line is not None:
            text += f" (regel {self.line})"
        return text


@dataclass(frozen=True)
class ParameterInfo:
    name: str
    kind: str  # an inspect.Parameter kind name, e.g. "POSITIONAL_OR_KEYWORD"
    has_default: bool

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "has_default": self.has_default}

    @classmethod
    def from_wire(cls, wire: Any) -> ParameterInfo:
        kind = _expect(wire, "kind", str)
        if kind not in PARAMETER_KINDS:
            raise WireError(f"unknown parameter kind {kind!r}")
        return cls(clip(_expect(wire, "name", str), 80), kind, _expect(wire, "has_default", bool))


PARAMETER_KINDS = (
    "POSITIONAL_ONLY",
    "POSITIONAL_OR_KEYWORD",
    "VAR_POSITIONAL",
    "KEYWORD_ONLY",
    "VAR_KEYWORD",
)


@dataclass(frozen=True)
class FunctionInfo:
    """What main.py bound to an expected name after loading."""

    name: str
    exists: bool
    is_callable: bool
    parameters: tuple[ParameterInfo, ...] | None = None  # None: signature unknown
    type_name: str = ""  # the type of what the name is bound to, e.g. "int" for `word_counts = 5`

    def to_wire(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "exists": self.exists,
            "callable": self.is_callable,
            "type": self.type_name,
            "parameters": None
            if self.parameters is None
            else [p.to_wire() for p in self.parameters],
        }

    @classmethod
    def from_wire(cls, wire: Any) -> FunctionInfo:
        raw_parameters = _expect(wire, "parameters", list, optional=True)
        return cls(
            name=clip(_expect(wire, "name", str), 80),
            exists=_expect(wire, "exists", bool),
            is_callable=_expect(wire, "callable", bool),
            parameters=None
            if raw_parameters is None
            else tuple(ParameterInfo.from_wire(p) for p in raw_parameters[:64]),
            type_name=clip(_expect(wire, "type", str, optional=True) or "", 80),
        )


@dataclass(frozen=True)
class LoadReport:
    """The result of compiling and running main.py once."""

    problem: str | None = None  # None when the code loaded; else one of LOAD_PROBLEMS
    error: ErrorInfo | None = None  # the syntax error or exception, with its line
    message: str = ""  # a Dutch one-line explanation when problem is set
    functions: tuple[FunctionInfo, ...] = ()
    stdout: str = ""

    @classmethod
    def timed_out(cls, stdout: str = "") -> LoadReport:
        return cls(problem="timeout", message=messages.timeout_at_load(), stdout=stdout)

    @classmethod
    def host_error(cls, detail: str) -> LoadReport:
        """The host failed while loading (not the learner's code): a load error, never a pass."""
        return cls(problem="error", message=messages.host_error_at_load(detail))

    @property
    def ok(self) -> bool:
        return self.problem is None

    def function(self, name: str) -> FunctionInfo:
        for info in self.functions:
            if info.name == name:
                return info
        return FunctionInfo(name=name, exists=False, is_callable=False)

    def to_wire(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "error": None if self.error is None else self.error.to_wire(),
            "message": self.message,
            "functions": [f.to_wire() for f in self.functions],
            "stdout": self.stdout,
        }

    @classmethod
    def from_wire(cls, wire: Any) -> LoadReport:
        problem = _expect(wire, "problem", str, optional=True)
        if problem is not None and problem not in LOAD_PROBLEMS:
            raise WireError(f"unknown load problem {problem!r}")
        raw_error = _expect(wire, "error", dict, optional=True)
        raw_functions = _expect(wire, "functions", list)
        return cls(
            problem=problem,
            error=None if raw_error is None else ErrorInfo.from_wire(raw_error),
            message=clip(_expect(wire, "message", str), MAX_MESSAGE_CHARS),
            functions=tuple(FunctionInfo.from_wire(f) for f in raw_functions[:64]),
            stdout=clip(_expect(wire, "stdout", str), MAX_STDOUT_CHARS),
        )


@dataclass(frozen=True)
class CallOutcome:
    """How one call of a learner function ended, with values already decoded from plain data.

    `aliased_paths` are the positions in the return value (as index/key paths) that hold the very
    dict or list objects that were passed in: "returns new dicts" is checked with them.
    `shared_paths` are the positions that hold a dict or list an earlier position holds too
    ("every chunk gets a new list").
    `args_after`/`kwargs_after` are the arguments as they were after the call (mutation check).
    """

    kind: str  # one of CALL_KINDS
    value: Any = None
    error: ErrorInfo | None = None
    args_after: list[Any] | None = None
    kwargs_after: dict[str, Any] | None = None
    aliased_paths: tuple[tuple[Any, ...], ...] = ()
    shared_paths: tuple[tuple[Any, ...], ...] = ()
    stdout: str = ""
    message: str = ""  # the host's explanation for "timeout" and "error"
    duration_ms: float = 0.0
    # True when `value` is known to be exact plain (no Opaque anywhere): found while decoding, so
    # the tests need not walk a large value again to look for a marker.
    value_is_plain: bool = field(default=False, compare=False)

    @classmethod
    def host_error(cls, message: str) -> CallOutcome:
        return cls(kind="error", message=message)

    @classmethod
    def timed_out(cls, message: str = "") -> CallOutcome:
        return cls(kind="timeout", message=message)

    def to_wire(self) -> dict[str, Any]:
        """Only used for outcomes built on the trusted side (tests, fakes)."""
        return {
            "kind": self.kind,
            "value": plain.encode(self.value),
            "error": None if self.error is None else self.error.to_wire(),
            "args_after": None if self.args_after is None else plain.encode(self.args_after),
            "kwargs_after": None if self.kwargs_after is None else plain.encode(self.kwargs_after),
            "aliased_paths": [list(path) for path in self.aliased_paths],
            "shared_paths": [list(path) for path in self.shared_paths],
            "stdout": self.stdout,
            "message": self.message,
            "duration_ms": self.duration_ms,
        }

    @classmethod
    def from_wire(cls, wire: Any, value_plain: bool = False) -> CallOutcome:
        """Validate and decode the dict `runner.core.invoke.invoke` produced (maybe in another process).
        value_plain: the host knows the wire's value holds no opaque marker and no escaped key
        (`plain.decode_checked`'s known_plain), so it is used as it is."""
        kind = _expect(wire, "kind", str)
        if kind not in CALL_KINDS:
            raise WireError(f"unknown call outcome kind {kind!r}")
        raw_error = _expect(wire, "error", dict, optional=True)
        if kind == "raise" and raw_error is None:
            raise WireError("a raise outcome needs an error")
        args_after = _expect(wire, "args_after", (list, dict), optional=True)
        kwargs_after = _expect(wire, "kwargs_after", dict, optional=True)
        checked_paths = _paths_from_wire(wire, "aliased_paths")
        checked_shared = _paths_from_wire(wire, "shared_paths")
        duration = _expect(wire, "duration_ms", (int, float), optional=True)
        try:
            decoded_args = None if args_after is None else plain.decode(args_after)
            decoded_kwargs = None if kwargs_after is None else plain.decode(kwargs_after)
            value, value_is_plain = plain.decode_checked(wire.get("value"), value_plain)
        except plain.PlainError as error:
            raise WireError(str(error)) from None
        return cls(
            kind=kind,
            value=value if kind == "return" else None,
            error=None if raw_error is None else ErrorInfo.from_wire(raw_error),
            args_after=decoded_args if type(decoded_args) is list else None,
            kwargs_after=decoded_kwargs if type(decoded_kwargs) is dict else None,
            aliased_paths=checked_paths,
            shared_paths=checked_shared,
            stdout=clip(_expect(wire, "stdout", str, optional=True) or "", MAX_STDOUT_CHARS),
            message=clip(_expect(wire, "message", str, optional=True) or "", MAX_MESSAGE_CHARS),
            duration_ms=float(duration or 0.0),
            value_is_plain=value_is_plain and kind == "return",
        )


@dataclass(frozen=True)
class TestResult:
    """One test's verdict. `expected`/`actual` are display texts, set only for visible tests."""

    __test__ = False  # not a pytest test class

    name: str
    status: str  # one of STATUSES
    message: str = ""
    duration_ms: float = 0.0
    visible: bool = False
    expected: str | None = None
    actual: str | None = None
    # Only when graded for the teacher (the quality gate, `reveal=True`): where the values first
    # differ, in English. Never part of to_json, which is what learners and result files get.
    difference: str | None = None

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "name": self.name,
            "status": self.status,
            "message": self.message,
            "duration_ms": round(self.duration_ms, 3),
        }
        if self.visible:
            result["visible"] = True
            if self.expected is not None:
                result["expected"] = self.expected
            if self.actual is not None:
                result["actual"] = self.actual
        return result


@dataclass(frozen=True)
class CheckpointResult:
    """A checkpoint's tests in their defined order; its status is that of the first non-pass."""

    id: str
    status: str
    tests: tuple[TestResult, ...] = field(default_factory=tuple)
    # Checkpoints this one uses (checkpoints.toml `uses`, also through another) that did not pass
    # in the same grading: then this one may fail only because of them. Empty when it passed.
    uses_failing: tuple[str, ...] = ()

    @classmethod
    def from_tests(cls, checkpoint_id: str, tests: tuple[TestResult, ...] | list[TestResult]) -> CheckpointResult:
        tests = tuple(tests)
        status = next((t.status for t in tests if t.status != "pass"), "pass")
        if not tests:
            status = "error"  # a checkpoint without tests is never a pass
        return cls(id=checkpoint_id, status=status, tests=tests)

    @property
    def passed_count(self) -> int:
        return sum(1 for t in self.tests if t.status == "pass")

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.status != "pass"), None)

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "tests": [t.to_json() for t in self.tests],
        }
        if self.uses_failing:
            result["uses_failing"] = list(self.uses_failing)
        return result


@dataclass(frozen=True)
class GradeReport:
    """What `runner.core.grade.grade` returns: per-checkpoint results plus what they were graded with."""

    checkpoints: tuple[CheckpointResult, ...]
    load: LoadReport
    lesson: str
    runner_version: str
    bundle_sha256: str

    @property
    def score(self) -> int:
        return sum(1 for c in self.checkpoints if c.status == "pass")

    @property
    def max_score(self) -> int:
        return len(self.checkpoints)

    def checkpoint(self, checkpoint_id: str) -> CheckpointResult:
        for result in self.checkpoints:
            if result.id == checkpoint_id:
                return result
        raise KeyError(checkpoint_id)

    def statuses(self) -> dict[str, str]:
        return {c.id: c.status for c in self.checkpoints}

    def to_json(self) -> dict[str, Any]:
        """The grading part of a submission result (issue 3, part 7)."""
        return {
            "lesson": self.lesson,
            "score": self.score,
            "max_score": self.max_score,
            "runner_version": self.runner_version,
            "bundle_sha256": self.bundle_sha256,
            "checkpoints": [c.to_json() for c in self.checkpoints],
        }
