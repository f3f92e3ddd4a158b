"""The grader's boundary with the zygote: what `host.ChildProcessHost` sends it, what it answers.

Imported by both ends. The zygote runs it in its own interpreter (`python -I -S`), before and
after the uid drop, so it imports only the standard library. Every message is one JSON object:
`to_wire` gives it, `from_wire` checks every field of one and names the first that is wrong
(`ProtocolError`). The learner's side of the other channel, the child's request and reply lines,
is `runner.core.model`'s `LoadReport` and `CallOutcome` wire form.

- `ZygoteSpec`: how the zygote is to start (a literal in its boot line), with its `SandboxLimits`;
- `ZygoteReport`: its start-up report, which protections hold (the host's `zygote_report`);
- `ControlRequest`: "spawn" (the child's two pipe ends go along as SCM_RIGHTS), "clean", "exit";
- `SpawnReply` and `CleanupReport`: the answers to "spawn" and "clean".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

T = TypeVar("T")

GIB = 1 << 30
MIB = 1 << 20


class SandboxError(RuntimeError):
    """The sandbox itself could not be set up (not a problem of the learner's code)."""


class ProtocolError(ValueError):
    """A message that is not what the other end must send; the text names the bad field."""


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _is_number(value: object) -> TypeGuard[float]:
    return type(value) in (int, float)


def _is_bool(value: object) -> TypeGuard[bool]:
    return type(value) is bool


def _is_text(value: object) -> TypeGuard[str]:
    return type(value) is str


def _is_texts(value: object) -> TypeGuard[list[str]]:
    return type(value) is list and all(type(item) is str for item in value)


def _is_ints(value: object) -> TypeGuard[list[int]]:
    return type(value) is list and all(type(item) is int for item in value)


class _Message:
    """One JSON object of the protocol with exactly the fields `names`; each field is read with
    its type, and the first one that is wrong is a ProtocolError naming it (and `where`)."""

    def __init__(self, message: object, where: str, names: set[str]) -> None:
        if type(message) is not dict:
            raise ProtocolError(f"{where}: not a JSON object")
        missing = sorted(names - set(message))
        if missing:
            raise ProtocolError(f"{where}: field {missing[0]!r} is missing")
        unknown = sorted(set(message) - names)
        if unknown:
            raise ProtocolError(f"{where}: unknown field {unknown[0]!r}")
        self.fields: dict[str, object] = message
        self.where = where

    def wrong(self, name: str, wanted: str) -> ProtocolError:
        return ProtocolError(f"{self.where}: field {name!r} must be {wanted}")

    def _read(self, name: str, accepts: Callable[[object], TypeGuard[T]], wanted: str) -> T:
        value = self.fields[name]
        if not accepts(value):
            raise self.wrong(name, wanted)
        return value

    def _read_or_null(self, name: str, accepts: Callable[[object], TypeGuard[T]], wanted: str) -> T | None:
        value = self.fields[name]
        if value is None:
            return None
        if not accepts(value):
            raise self.wrong(name, f"{wanted} or null")
        return value

    def whole(self, name: str) -> int:
        return self._read(name, _is_int, "a whole number")

    def whole_or_null(self, name: str) -> int | None:
        return self._read_or_null(name, _is_int, "a whole number")

    def number(self, name: str) -> float:
        return self._read(name, _is_number, "a number")

    def number_or_null(self, name: str) -> float | None:
        return self._read_or_null(name, _is_number, "a number")

    def flag(self, name: str) -> bool:
        return self._read(name, _is_bool, "true or false")

    def text(self, name: str) -> str:
        return self._read(name, _is_text, "a text")

    def text_or_null(self, name: str) -> str | None:
        return self._read_or_null(name, _is_text, "a text")

    def texts(self, name: str) -> tuple[str, ...]:
        return tuple(self._read(name, _is_texts, "a list of texts"))

    def wholes(self, name: str) -> tuple[int, ...]:
        return tuple(self._read(name, _is_ints, "a list of whole numbers"))

    def inner_or_null(self, name: str, names: set[str]) -> _Message | None:
        """A field that is itself a message with the fields `names`, or null."""
        value = self.fields[name]
        return None if value is None else _Message(value, f"{self.where}: {name}", names)


@dataclass(frozen=True)
class SandboxLimits:
    """Limits for one submission's child process; every one has a `grade`/`check` flag.

    The time limits' defaults are a lesson's settings (runner.core.lesson_config, checkpoints.toml);
    the CLI builds these from the lesson, and a flag overrides its value.
    """

    # Wall clock, so generous: the slowest test of the lessons here takes about 1 s on an idle machine, and a
    # correct solution must not time out on a busy one.
    call_seconds: float = 10.0  # per call, and for loading main.py
    submission_seconds: float = 120.0  # all calls of one submission together
    # All shipped tests of one checkpoint together (runner.core.grade's check limits); None: each
    # checkpoint's check_seconds, the page's limit. Applied by grade(), not by the child.
    check_seconds: float | None = None
    memory_bytes: int = 1 * GIB  # RLIMIT_AS of the child (numpy still imports under it)
    output_chars: int = 20_000  # learner output kept per load/call; the rest is dropped
    file_bytes: int = 1 * MIB  # RLIMIT_FSIZE: largest file the learner may write
    temp_bytes: int = 64 * MIB  # each private tmpfs (/tmp, /var/tmp, /dev/shm; only as root)
    processes: int = 16  # RLIMIT_NPROC for the sandbox uid (only enforced when run as root)
    open_files: int = 64  # RLIMIT_NOFILE
    reply_bytes: int = 64 * MIB  # largest reply line the parent accepts
    # memory_bytes and processes also for the whole submission, through a cgroup (as root). Off
    # by default: the kernel's charging of every page to a fresh memory cgroup costs ~18 % of
    # the grading throughput (BENCHMARKS.md); RLIMIT_AS and RLIMIT_NPROC hold either way.
    cgroup_limits: bool = False

    def to_wire(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_wire(cls, message: object) -> SandboxLimits:
        fields = _Message(message, "limits", {field.name for field in dataclasses.fields(cls)})
        return cls(
            call_seconds=fields.number("call_seconds"),
            submission_seconds=fields.number("submission_seconds"),
            check_seconds=fields.number_or_null("check_seconds"),
            memory_bytes=fields.whole("memory_bytes"),
            output_chars=fields.whole("output_chars"),
            file_bytes=fields.whole("file_bytes"),
            temp_bytes=fields.whole("temp_bytes"),
            processes=fields.whole("processes"),
            open_files=fields.whole("open_files"),
            reply_bytes=fields.whole("reply_bytes"),
            cgroup_limits=fields.flag("cgroup_limits"),
        )


@dataclass(frozen=True)
class ZygoteSpec:
    """How the zygote starts: whose it is, as whom its children run, what they may import and see."""

    parent_pid: int  # the grader: a zygote started by anyone else ends at once
    uid: int | None  # the sandbox uid (and gid) children drop to; None: not root, no drop
    gid: int | None
    limits: SandboxLimits
    env: dict[str, str]  # the children's whole environment
    preload: tuple[str, ...]  # imported once by the zygote, inherited by every child
    learner_modules: tuple[str, ...]  # top-level names learner code may import (import_guard)
    hidden: tuple[str, ...]  # folders learner code must not see (real paths)

    def to_wire(self) -> dict[str, Any]:
        return {
            "parent_pid": self.parent_pid,
            "uid": self.uid,
            "gid": self.gid,
            "limits": self.limits.to_wire(),
            "env": dict(self.env),
            "preload": list(self.preload),
            "learner_modules": list(self.learner_modules),
            "hidden": list(self.hidden),
        }

    @classmethod
    def from_wire(cls, message: object) -> ZygoteSpec:
        fields = _Message(message, "zygote spec", {"parent_pid", "uid", "gid", "limits", "env", "preload",
                                                   "learner_modules", "hidden"})
        env = fields.fields["env"]
        if type(env) is not dict or any(type(value) is not str for value in env.values()):
            raise fields.wrong("env", "an object of texts")
        return cls(
            parent_pid=fields.whole("parent_pid"),
            uid=fields.whole_or_null("uid"),
            gid=fields.whole_or_null("gid"),
            limits=SandboxLimits.from_wire(fields.fields["limits"]),
            env=dict(env),
            preload=fields.texts("preload"),
            learner_modules=fields.texts("learner_modules"),
            hidden=fields.texts("hidden"),
        )


@dataclass(frozen=True)
class LearnerRootView:
    """What the children's allow-list file system shows: host paths bound read-only, and private
    folders inside them covered by an empty tmpfs."""

    visible: tuple[str, ...]
    hidden: tuple[str, ...]


@dataclass(frozen=True)
class CgroupInfo:
    """The zygote's cgroups (one directory per controller home), each submission a leaf in them."""

    version: int
    directories: tuple[str, ...]


@dataclass(frozen=True)
class ZygoteReport:
    """The zygote's start-up report: what it preloaded and which protections hold (docs/grading.md)."""

    preloaded: tuple[str, ...]
    missing: tuple[str, ...]  # preload modules that failed to import
    subreaper: bool  # orphans of a submission come to the zygote, which kills them
    network_isolated: bool
    # Every private folder out of sight: a folder that holds code the child needs (the
    # interpreter, say) cannot be, and then this is false (and `unhidden` says which).
    private_filesystem: bool
    learner_root: LearnerRootView | None
    unhidden: tuple[str, ...]
    learner_root_problem: str | None
    keyring_filter: bool
    keyrings_cleared: bool
    cgroup: CgroupInfo | None
    ready: bool = True

    def to_wire(self) -> dict[str, Any]:
        return {
            "ready": self.ready, "preloaded": list(self.preloaded), "missing": list(self.missing),
            "subreaper": self.subreaper, "network_isolated": self.network_isolated,
            "private_filesystem": self.private_filesystem,
            "learner_root": self.learner_root and {"visible": list(self.learner_root.visible),
                                                   "hidden": list(self.learner_root.hidden)},
            "unhidden": list(self.unhidden),
            "learner_root_problem": self.learner_root_problem,
            "keyring_filter": self.keyring_filter,
            "keyrings_cleared": self.keyrings_cleared,
            "cgroup": self.cgroup and {"version": self.cgroup.version, "directories": list(self.cgroup.directories)},
        }

    @classmethod
    def from_wire(cls, message: object) -> ZygoteReport:
        fields = _Message(message, "zygote report", {
            "ready", "preloaded", "missing", "subreaper", "network_isolated", "private_filesystem",
            "learner_root", "unhidden", "learner_root_problem", "keyring_filter", "keyrings_cleared", "cgroup"})
        root = fields.inner_or_null("learner_root", {"visible", "hidden"})
        view = LearnerRootView(visible=root.texts("visible"), hidden=root.texts("hidden")) if root else None
        cgroup = fields.inner_or_null("cgroup", {"version", "directories"})
        info = CgroupInfo(version=cgroup.whole("version"), directories=cgroup.texts("directories")) if cgroup else None
        if fields.fields["ready"] is not True:
            raise fields.wrong("ready", "true")
        return cls(
            preloaded=fields.texts("preloaded"),
            missing=fields.texts("missing"),
            subreaper=fields.flag("subreaper"),
            network_isolated=fields.flag("network_isolated"),
            private_filesystem=fields.flag("private_filesystem"),
            learner_root=view,
            unhidden=fields.texts("unhidden"),
            learner_root_problem=fields.text_or_null("learner_root_problem"),
            keyring_filter=fields.flag("keyring_filter"),
            keyrings_cleared=fields.flag("keyrings_cleared"),
            cgroup=info,
        )


CONTROL_OPS = ("spawn", "clean", "exit")


@dataclass(frozen=True)
class ControlRequest:
    """One control message to the zygote. "clean" names the child it is about (`pid`)."""

    op: str
    pid: int | None = None

    @classmethod
    def spawn(cls) -> ControlRequest:
        return cls("spawn")

    @classmethod
    def clean(cls, pid: int) -> ControlRequest:
        return cls("clean", pid)

    @classmethod
    def exit(cls) -> ControlRequest:
        return cls("exit")

    def to_wire(self) -> dict[str, Any]:
        return {"op": self.op} if self.pid is None else {"op": self.op, "pid": self.pid}

    @classmethod
    def from_wire(cls, message: object) -> ControlRequest:
        op = message.get("op") if type(message) is dict else None
        if op not in CONTROL_OPS:
            raise ProtocolError(f"unknown control message {op!r}")
        if op == "clean":
            return cls.clean(_Message(message, "clean", {"op", "pid"}).whole("pid"))
        _Message(message, str(op), {"op"})
        return cls(str(op))


# The zygote's answer to "exit", sent once everything of it is cleaned up.
EXIT_ACKNOWLEDGED: dict[str, Any] = {"ok": True}


@dataclass(frozen=True)
class SpawnReply:
    """The answer to "spawn": the new child's pid (its session and group id too) and where its
    cgroup counts processes killed for the memory limit, or why there is no child."""

    pid: int | None = None
    oom_file: str | None = None
    error: str | None = None

    def to_wire(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        return {"pid": self.pid, "oom_file": self.oom_file}

    @classmethod
    def from_wire(cls, message: object) -> SpawnReply:
        where = "spawn reply"
        if type(message) is dict and "error" in message:
            return cls(error=_Message(message, where, {"error"}).text("error"))
        fields = _Message(message, where, {"pid", "oom_file"})
        return cls(pid=fields.whole("pid"), oom_file=fields.text_or_null("oom_file"))


@dataclass(frozen=True)
class CleanupReport:
    """What a clean-up after a submission found: kills sent, processes that survived every scan,
    whether the child's cgroup stayed behind, how the child itself ended (Dutch, or "").
    `error`: no clean-up happened (the zygote was lost); the other fields then say nothing."""

    ok: bool
    killed: int = 0
    remaining: tuple[int, ...] = ()
    cgroup_left: bool = False
    ended: str = ""
    error: str | None = None

    @classmethod
    def lost(cls, error: str) -> CleanupReport:
        return cls(ok=False, error=error)

    def to_wire(self) -> dict[str, Any]:
        if self.error is not None:
            return {"ok": False, "error": self.error}
        return {"ok": self.ok, "killed": self.killed, "remaining": list(self.remaining),
                "cgroup_left": self.cgroup_left, "ended": self.ended}

    @classmethod
    def from_wire(cls, message: object) -> CleanupReport:
        fields = _Message(message, "clean-up report", {"ok", "killed", "remaining", "cgroup_left", "ended"})
        remaining = fields.wholes("remaining")
        return cls(ok=fields.flag("ok"), killed=fields.whole("killed"), remaining=remaining,
                   cgroup_left=fields.flag("cgroup_left"), ended=fields.text("ended"))
