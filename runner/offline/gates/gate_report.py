"""The quality gate's answer to the builder: what `python -m runner gate --json` prints, one JSON object.

Both ends import this module: the gate writes a `GateReport` with `to_json`, the builder
(builder/verify_checkpoints.py) reads it back with `GateReport.from_json`, which checks every
field, so neither side spells a key by hand. Standard library only: the builder imports it
without the sandbox.

Besides the verdict (the failures, or why the tests could not be loaded, or why the gate itself
broke), a gate that loaded the lesson says which shipped tests it verified (`VerifiedBundle`:
their hash and files, as runner.core.bundle computed them), so the build's render and write
stages use that and never execute the lesson's code again.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


class GateReportError(ValueError):
    """Text that is not a gate report; `str()` names the field that is off."""


@dataclass(frozen=True)
class GateFailureRecord:
    """One known solution that does not get its known verdict on one checkpoint
    (runner.offline.gates.quality_gate.GateFailure, its path relative to the lesson's folder)."""

    path: str  # relative to checkpoints/<lesson>/, e.g. "wrong/words__upper.py"
    expected: str  # "pass", or the checkpoint it must fail
    reason: str  # all of it as one English line
    line: int | None = None
    checkpoint: str | None = None
    test: str | None = None
    status: str | None = None
    message: str = ""
    expected_value: str | None = None
    actual_value: str | None = None
    difference: str | None = None


@dataclass(frozen=True)
class LoadErrorRecord:
    """The lesson's tests cannot be loaded (runner.core.bundle.BundleError); `file` and `line`
    are None when the mistake is in no single file of the lesson."""

    text: str
    file: str | None = None
    line: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class VerifiedBundle:
    """The shipped tests the gate loaded and verified: what the browser grades with."""

    bundle_sha256: str  # runner.core.bundle's hash, the "checkpoint version" of meta.json
    files: tuple[str, ...]  # the hashed files, relative to the lesson's folder


@dataclass(frozen=True)
class GateReport:
    lesson: str
    known_solutions: int = 0
    failures: list[GateFailureRecord] = field(default_factory=list)
    load_error: LoadErrorRecord | None = None
    crash: str | None = None  # the gate itself broke (e.g. the sandbox could not start): one line
    verified: VerifiedBundle | None = None  # None when the tests could not be loaded

    @property
    def passed(self) -> bool:
        return not self.failures and self.load_error is None and self.crash is None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GateReport:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GateReportError(f"not JSON: {error}") from None
        answer = _object(data, "report")
        failures = _field(answer, "failures", list, "report")
        load_error = answer.get("load_error")
        verified = answer.get("verified")
        return cls(
            lesson=_field(answer, "lesson", str, "report"),
            known_solutions=_field(answer, "known_solutions", int, "report"),
            failures=[_failure(item, f"failures[{index}]") for index, item in enumerate(failures)],
            load_error=None if load_error is None else _load_error(load_error),
            crash=_optional(answer, "crash", str, "report"),
            verified=None if verified is None else _verified(verified),
        )


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise GateReportError(f"{where}: not an object")
    return value


def _field(data: dict[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise GateReportError(f"{where}.{name}: not a {kind.__name__}")
    return value


def _optional(data: dict[str, Any], name: str, kind: type, where: str) -> Any:
    return None if data.get(name) is None else _field(data, name, kind, where)


def _failure(value: Any, where: str) -> GateFailureRecord:
    data = _object(value, where)
    return GateFailureRecord(
        path=_field(data, "path", str, where),
        expected=_field(data, "expected", str, where),
        reason=_field(data, "reason", str, where),
        line=_optional(data, "line", int, where),
        checkpoint=_optional(data, "checkpoint", str, where),
        test=_optional(data, "test", str, where),
        status=_optional(data, "status", str, where),
        message=_optional(data, "message", str, where) or "",
        expected_value=_optional(data, "expected_value", str, where),
        actual_value=_optional(data, "actual_value", str, where),
        difference=_optional(data, "difference", str, where),
    )


def _load_error(value: Any) -> LoadErrorRecord:
    data = _object(value, "load_error")
    return LoadErrorRecord(
        text=_field(data, "text", str, "load_error"),
        file=_optional(data, "file", str, "load_error"),
        line=_optional(data, "line", int, "load_error"),
        reason=_optional(data, "reason", str, "load_error"),
    )


def _verified(value: Any) -> VerifiedBundle:
    data = _object(value, "verified")
    files = _field(data, "files", list, "verified")
    if not all(isinstance(name, str) for name in files):
        raise GateReportError("verified.files: not a list of strings")
    # Names the builder reads from the lesson's folder and ships: relative, and inside it.
    if any(name.startswith("/") or ".." in name.split("/") for name in files):
        raise GateReportError("verified.files: a name outside the lesson's folder")
    return VerifiedBundle(_field(data, "bundle_sha256", str, "verified"), tuple(files))
