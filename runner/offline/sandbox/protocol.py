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
from dataclasses import dataclass
from typing import Any

GIB = 1 << 30
MIB = 1 << 20


class SandboxError(RuntimeError):
    """The sandbox itself could not be set up (not a problem of the learner's code)."""


class ProtocolError(ValueError):
    """A message that is not what the other end must send; the text names the bad field."""


def _fields_of(message: object, where: str, required: set[str]) -> dict[str, Any]:
    if type(message) is not dict:
        raise ProtocolError(f"{where}: not a JSON object")
    missing = sorted(required - set(message))
    if missing:
        raise ProtocolError(f"{where}: field {missing[0]!r} is missing")
    unknown = sorted(set(message) - required)
    if unknown:
        raise ProtocolError(f"{where}: unknown field {unknown[0]!r}")
    return message


def _wrong(where: str, name: str, wanted: str) -> ProtocolError:
    return ProtocolError(f"{where}: field {name!r} must be {wanted}")


def _int(message: dict[str, Any], name: str, where: str, optional: bool = False) -> Any:
    value = message.get(name)
    if value is None and optional:
        return None
    if type(value) is not int:
        raise _wrong(where, name, "a whole number" + (" or null" if optional else ""))
    return value


def _number(message: dict[str, Any], name: str, where: str, optional: bool = False) -> Any:
    value = message.get(name)
    if value is None and optional:
        return None
    if type(value) not in (int, float):
        raise _wrong(where, name, "a number" + (" or null" if optional else ""))
    return value


def _bool(message: dict[str, Any], name: str, where: str) -> bool:
    value = message.get(name)
    if type(value) is not bool:
        raise _wrong(where, name, "true or false")
    return value


def _text(message: dict[str, Any], name: str, where: str, optional: bool = False) -> Any:
    value = message.get(name)
    if value is None and optional:
        return None
    if type(value) is not str:
        raise _wrong(where, name, "a text" + (" or null" if optional else ""))
    return value


def _texts(message: dict[str, Any], name: str, where: str) -> tuple[str, ...]:
    value = message.get(name)
    if type(value) is not list or any(type(item) is not str for item in value):
        raise _wrong(where, name, "a list of texts")
    return tuple(value)


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
        where = "limits"
        names = {field.name for field in dataclasses.fields(cls)}
        fields = _fields_of(message, where, names)
        return cls(
            call_seconds=_number(fields, "call_seconds", where),
            submission_seconds=_number(fields, "submission_seconds", where),
            check_seconds=_number(fields, "check_seconds", where, optional=True),
            memory_bytes=_int(fields, "memory_bytes", where),
            output_chars=_int(fields, "output_chars", where),
            file_bytes=_int(fields, "file_bytes", where),
            temp_bytes=_int(fields, "temp_bytes", where),
            processes=_int(fields, "processes", where),
            open_files=_int(fields, "open_files", where),
            reply_bytes=_int(fields, "reply_bytes", where),
            cgroup_limits=_bool(fields, "cgroup_limits", where),
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
        where = "zygote spec"
        fields = _fields_of(message, where, {"parent_pid", "uid", "gid", "limits", "env", "preload",
                                             "learner_modules", "hidden"})
        env = fields["env"]
        if type(env) is not dict or any(type(value) is not str for value in env.values()):
            raise _wrong(where, "env", "an object of texts")
        return cls(
            parent_pid=_int(fields, "parent_pid", where),
            uid=_int(fields, "uid", where, optional=True),
            gid=_int(fields, "gid", where, optional=True),
            limits=SandboxLimits.from_wire(fields["limits"]),
            env=dict(env),
            preload=_texts(fields, "preload", where),
            learner_modules=_texts(fields, "learner_modules", where),
            hidden=_texts(fields, "hidden", where),
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
        where = "zygote report"
        fields = _fields_of(message, where, {
            "ready", "preloaded", "missing", "subreaper", "network_isolated", "private_filesystem",
            "learner_root", "unhidden", "learner_root_problem", "keyring_filter", "keyrings_cleared", "cgroup"})
        root = fields["learner_root"]
        view = None
        if root is not None:
            inner = _fields_of(root, "zygote report: learner_root", {"visible", "hidden"})
            view = LearnerRootView(visible=_texts(inner, "visible", "zygote report: learner_root"),
                                   hidden=_texts(inner, "hidden", "zygote report: learner_root"))
        cgroup = fields["cgroup"]
        info = None
        if cgroup is not None:
            inner = _fields_of(cgroup, "zygote report: cgroup", {"version", "directories"})
            info = CgroupInfo(version=_int(inner, "version", "zygote report: cgroup"),
                              directories=_texts(inner, "directories", "zygote report: cgroup"))
        if fields["ready"] is not True:
            raise _wrong(where, "ready", "true")
        return cls(
            preloaded=_texts(fields, "preloaded", where),
            missing=_texts(fields, "missing", where),
            subreaper=_bool(fields, "subreaper", where),
            network_isolated=_bool(fields, "network_isolated", where),
            private_filesystem=_bool(fields, "private_filesystem", where),
            learner_root=view,
            unhidden=_texts(fields, "unhidden", where),
            learner_root_problem=_text(fields, "learner_root_problem", where, optional=True),
            keyring_filter=_bool(fields, "keyring_filter", where),
            keyrings_cleared=_bool(fields, "keyrings_cleared", where),
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
            fields = _fields_of(message, "clean", {"op", "pid"})
            return cls.clean(_int(fields, "pid", "clean"))
        _fields_of(message, str(op), {"op"})
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
            return cls(error=_text(_fields_of(message, where, {"error"}), "error", where))
        fields = _fields_of(message, where, {"pid", "oom_file"})
        return cls(pid=_int(fields, "pid", where), oom_file=_text(fields, "oom_file", where, optional=True))


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
        where = "clean-up report"
        fields = _fields_of(message, where, {"ok", "killed", "remaining", "cgroup_left", "ended"})
        remaining = fields["remaining"]
        if type(remaining) is not list or any(type(pid) is not int for pid in remaining):
            raise _wrong(where, "remaining", "a list of whole numbers")
        return cls(ok=_bool(fields, "ok", where), killed=_int(fields, "killed", where),
                   remaining=tuple(remaining), cgroup_left=_bool(fields, "cgroup_left", where),
                   ended=_text(fields, "ended", where))
