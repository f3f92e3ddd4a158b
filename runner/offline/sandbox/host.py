"""ChildProcessHost: the offline host that runs learner code in a separate, limited process.

The tests run here, in the trusted grader; the learner's main.py runs in a child forked for each
submission from a clean zygote (`runner.offline.sandbox.child`). Between them is one narrow channel: a request
pipe and a reply pipe carrying one JSON object per line, with arguments and results in the plain
encoding (`runner.core.plain`). Nothing the child sends is unpickled or executed; a reply is read with a
size cap, parsed strictly, must answer the request just sent (its id), and is then validated
by `LoadReport.from_wire` / `CallOutcome.from_wire`.

Fail-closed: a child that runs out of time is killed and the call is a timeout; a child that dies,
closes the channel, sends garbage or too much is killed and the call is an error. After every
submission (and every kill) the zygote kills the child's session and every process it left behind
and checks /proc that none remain.

When the grader runs as root, each host claims its own sandbox uid (see `claim_sandbox_uid`), so
learner code runs unprivileged, cannot signal the grader or another submission's child, and cannot
read files only root can read; the child sees an allow-list file system of its own and no
kernel keyring; and each submission gets a cgroup of its own where the system allows it, so its
processes together stay within the memory and process limits. The grader's ends of the pipes are
non-blocking: no exchange waits past its deadline, whatever the child does with its ends.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import pwd
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import runner
from runner.core import plain
from runner.core.host import encode_as_json, outcome_from_wire
from runner.core.model import CallOutcome, LoadReport, WireError
from runner.offline.sandbox.cgroups import OomCounter, remove_cgroup_tree
from runner.offline.sandbox.known_values import DIGEST_FORM, KNOWN_VALUES, digest_of
from runner.offline.sandbox.pipes import PipeReader
from runner.offline.sandbox.protocol import (
    MIB,
    CleanupReport,
    ControlRequest,
    ProtocolError,
    SandboxLimits,
    SpawnReply,
    ZygoteReport,
    ZygoteSpec,
)

# What the child itself runs on, imported once in the zygote.
RUNNER_PRELOAD: tuple[str, ...] = (
    "runner.core.invoke", "runner.core.plain", "runner.core.model", "runner.core.messages",
    "runner.offline.sandbox.import_guard",
)
# Modules every lesson's learners can import (a lesson adds its own: `offline_modules` in
# checkpoints.toml). When the child runs as a sandbox uid it may not be able to read the Python
# installation (e.g. under /root), so these are imported once in the zygote and inherited.
LEARNER_MODULES: tuple[str, ...] = (
    "abc", "array", "bisect", "collections", "collections.abc", "copy", "dataclasses", "datetime",
    "decimal", "difflib", "enum", "fractions", "functools", "hashlib", "heapq", "io", "itertools",
    "json", "math", "numbers", "operator", "pprint", "random", "re", "statistics", "string",
    "struct", "textwrap", "time", "types", "typing", "unicodedata", "warnings", "contextlib",
    "base64", "csv", "glob", "inspect", "pathlib", "secrets", "shutil", "signal", "subprocess",
    "tempfile", "threading", "traceback", "zlib",
    "encodings.ascii", "encodings.latin_1", "encodings.cp1252", "encodings.utf_16",
    "encodings.utf_32", "encodings.idna", "encodings.unicode_escape", "encodings.raw_unicode_escape",
    "numpy", "numpy.linalg", "numpy.random", "numpy.fft",
)
DEFAULT_PRELOAD: tuple[str, ...] = RUNNER_PRELOAD + LEARNER_MODULES

# Pipe capacity asked for (Linux allows up to /proc/sys/fs/pipe-max-size, 1 MiB by default).
PIPE_BYTES = 1 << 20
SANDBOX_UID_RANGE = range(61000, 62000)
ZYGOTE_START_SECONDS = 60.0
CONTROL_SECONDS = 30.0

# The zygote's whole environment; BLAS libraries read their thread counts when numpy loads, and
# one thread keeps numpy inside the process limit and the memory cap.
CHILD_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
}


class SandboxError(RuntimeError):
    """The sandbox itself could not be set up (not a problem of the learner's code)."""


@dataclass
class SandboxUid:
    uid: int
    gid: int
    lock_fd: int

    def release(self) -> None:
        try:
            os.close(self.lock_fd)
        except OSError:
            pass


def _uid_lock_dir() -> Path:
    directory = Path(tempfile.gettempdir()) / "werkplaats-sandbox-uids"
    directory.mkdir(mode=0o700, exist_ok=True)
    info = directory.lstat()
    if info.st_uid != 0 or info.st_mode & 0o077 or not directory.is_dir() or directory.is_symlink():
        raise SandboxError(f"{directory} must be a directory owned by root with mode 0700")
    return directory


def claim_sandbox_uid() -> SandboxUid:
    """A uid (and gid of the same number) no account uses and no other host holds right now.

    Held with an flock for the host's lifetime, so two graders in parallel never share a uid: each
    may then kill every process of its own uid without touching the other's.
    """
    directory = _uid_lock_dir()
    for uid in SANDBOX_UID_RANGE:
        try:
            pwd.getpwuid(uid)
            continue  # a real account: never run learner code as it
        except KeyError:
            pass
        fd = os.open(directory / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return SandboxUid(uid=uid, gid=uid, lock_fd=fd)
    raise SandboxError("no free sandbox uid left")


def _child_sys_path() -> list[str]:
    """Where the zygote imports from: this runner package first, then the stdlib and site dirs."""
    package_root = str(Path(runner.__file__).resolve().parent.parent)
    paths = [package_root]
    for entry in sys.path:
        if entry and entry not in paths and os.path.isabs(entry) and os.path.exists(entry):
            paths.append(entry)
    return paths


class _Timeout(Exception):
    pass


class _ChildGone(Exception):
    """The child died, closed the channel, or broke the protocol; the text says how.

    `exited`: the child ended on its own (end of file), so how it ended is the better message.
    """

    def __init__(self, message: str, exited: bool = False) -> None:
        super().__init__(message)
        self.exited = exited


@dataclass
class _Child:
    pid: int
    request_fd: int
    reply_fd: int
    reader: PipeReader
    oom: OomCounter | None  # its cgroup's count of processes killed for the memory limit


def _readable(fd: int) -> bool:
    """Data (or end of file) is waiting on fd right now."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def _widen_pipe(fd: int) -> None:
    """Let one pipe hold PIPE_BYTES: a large request or reply then crosses in one write instead
    of a 64 KiB ping-pong between the two processes. Best effort (the kernel may refuse)."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (AttributeError, OSError):
        pass


MAX_REPLY_VALUES = 3 * plain.MAX_NODES + 10_000
# Both in linear time, whatever the child wrote: first every escape (so no \" is left), then
# every string literal, whose commas and brackets are text, not values.
_JSON_ESCAPE = re.compile(rb"\\.", re.S)
_JSON_STRING = re.compile(rb'"[^"]*"')


def _json_value_count(line: bytes) -> int:
    """At least the number of values the line would parse into. The quick count over-counts
    commas and brackets inside strings; only a line that fails it is counted again without them."""
    quick = line.count(b",") + line.count(b"[") + line.count(b"{")
    if quick <= MAX_REPLY_VALUES:
        return quick
    outside = _JSON_STRING.sub(b'""', _JSON_ESCAPE.sub(b"", line))
    return outside.count(b",") + outside.count(b"[") + outside.count(b"{")


def parse_reply(line: bytes, expected_id: str) -> dict:
    """The body of one reply line, or _ChildGone when it is not exactly what the child must send."""
    # Parsing makes one object per JSON value, so count them first: 64 MiB of a forged
    # "[[],[],..." would otherwise cost the grader gigabytes. A true reply holds at most three
    # encoded values, each within plain.MAX_NODES.
    if _json_value_count(line) > MAX_REPLY_VALUES:
        raise _ChildGone("het antwoord van het proces was te groot")
    try:
        reply = plain.wire_loads(line)  # strict: not UTF-8, not JSON or a key twice is refused
    except (ValueError, RecursionError):
        raise _ChildGone("onleesbaar antwoord van het proces") from None
    if type(reply) is not dict or set(reply) != {"id", "body"} or type(reply["body"]) is not dict:
        raise _ChildGone("antwoord van het proces heeft niet de afgesproken vorm")
    if reply["id"] != expected_id:
        raise _ChildGone("antwoord van het proces hoort niet bij de vraag")
    return reply["body"]


class ChildProcessHost:
    """The offline `runner.core.host.Host`: learner code in a fresh, limited child per submission."""

    def __init__(
        self,
        limits: SandboxLimits | None = None,
        *,
        drop_privileges: bool | None = None,
        preload: Sequence[str] = DEFAULT_PRELOAD,
        hidden_paths: Sequence[str | Path] = (),
        lesson_modules: Sequence[str] = (),
    ) -> None:
        """hidden_paths: folders learner code must not see (the hidden tests and the reference
        solution, other learners' submissions, the results). As root the child sees only the
        learner root, an allow-list (runner.offline.sandbox.child.build_learner_root), so these matter
        only when one lies inside an allowed folder: it is then covered by an empty read-only
        tmpfs, or, when it holds code the child needs, reported (zygote_report.unhidden) and
        the private filesystem is recorded as not holding.

        lesson_modules: the lesson's `offline_modules`, importable on top of `preload`. Learner
        code that imports a module outside both (and not already loaded) gets a Dutch "not
        available for this lesson" (runner.offline.sandbox.import_guard), as root or not."""
        self.limits = limits or SandboxLimits()
        self.drop_privileges = os.geteuid() == 0 if drop_privileges is None else drop_privileges
        if self.drop_privileges and os.geteuid() != 0:
            raise SandboxError("dropping to a sandbox uid needs root")
        self.preload = tuple(dict.fromkeys([*preload, *lesson_modules]))
        self.learner_modules = tuple(sorted({name.split(".")[0] for name in self.preload
                                             if not name.startswith("runner.")}))
        self.hidden_paths = tuple(sorted({os.path.realpath(path) for path in hidden_paths}))
        self.sandbox: SandboxUid | None = None
        self._zygote: subprocess.Popen | None = None
        self._zygote_stderr: Any = None
        self._control: socket.socket | None = None
        self._child: _Child | None = None
        self._request_ids = itertools.count(1)
        self._source: str | None = None
        self._expected: tuple[str, ...] = ()
        self._submission_deadline = 0.0
        # The zygote's start-up report: which protections hold (None before the first start).
        self.zygote_report: ZygoteReport | None = None
        # What the last clean-up found: kills sent, pids remaining, how the child ended.
        self.cleanup: CleanupReport | None = None
        # Set when the sandbox itself failed during the current submission.
        self.sandbox_failure: str | None = None
        self._reply_is_plain = False  # the last reply needs no decoding walk (see _exchange)

    # ---- Host protocol ----------------------------------------------------------------------

    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        """A new submission: fresh child, fresh submission clock."""
        self._end_child()
        self._source = source
        self._expected = tuple(expected)
        self._submission_deadline = time.monotonic() + self.limits.submission_seconds
        self.sandbox_failure = None
        return self._load()

    def restart(self) -> LoadReport:
        if self._source is None:
            raise RuntimeError("restart() before load()")
        self._end_child()
        return self._load()

    def call(self, function: str, args: list, kwargs: dict | None = None, time_limit: float | None = None) -> CallOutcome:
        """`time_limit`: at most this many seconds for this call (what is left of a checkpoint's
        check limit), besides call_seconds and the submission's time."""
        if self._child is None:
            if self._submission_over():
                return CallOutcome.timed_out(self._submission_timeout_text())
            return CallOutcome.host_error("het proces met je code draait niet meer")
        sent, args_json, kwargs_json = encode_as_json(args, kwargs)
        request = {
            "op": "call",
            "function": function,
            "plain": sent.exact,  # the child may skip decoding (it trusts only us, the parent)
        }
        try:
            body = self._exchange(request, time_limit, raw={"args": args_json, "kwargs": kwargs_json})
            value_plain = self._reply_is_plain
            if "value_digest" in body:
                body, value_plain = self._value_by_digest(body, time_limit), True
        except _Timeout:
            self._end_child()
            return CallOutcome.timed_out(self._timeout_text())
        except _ChildGone as gone:
            return CallOutcome.host_error(self._end_after(gone))
        try:
            return outcome_from_wire(body, sent, value_plain=value_plain)
        except WireError as error:
            self._end_child()
            return CallOutcome.host_error(f"ongeldig antwoord van het proces ({error})")

    def finish_submission(self) -> None:
        """Kill the submission's child and everything it started; the zygote stays warm."""
        self._end_child()

    def close(self) -> None:
        self._end_child()
        self._stop_zygote()
        if self.sandbox is not None:
            self.sandbox.release()
            self.sandbox = None

    def __enter__(self) -> ChildProcessHost:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---- submission life cycle --------------------------------------------------------------

    def _submission_over(self) -> bool:
        return time.monotonic() >= self._submission_deadline

    def _submission_timeout_text(self) -> str:
        return f"de tijd voor de hele inzending ({self.limits.submission_seconds:g} s) is op"

    def _timeout_text(self) -> str:
        if self._submission_over():
            return self._submission_timeout_text()
        return f"niet klaar binnen {self.limits.call_seconds:g} s"

    def _load(self) -> LoadReport:
        if self._submission_over():
            return LoadReport.timed_out()
        try:
            self._spawn_child()
        except SandboxError as error:
            # Not the learner's fault: remembered so a batch can retry instead of recording it.
            self.sandbox_failure = str(error)
            raise
        request = {"op": "load", "source": self._source, "expected": list(self._expected)}
        try:
            body = self._exchange(request)
        except _Timeout:
            self._end_child()
            return LoadReport.timed_out()
        except _ChildGone as gone:
            return LoadReport.host_error(self._end_after(gone))
        try:
            return LoadReport.from_wire(body)
        except WireError as error:
            self._end_child()
            return LoadReport.host_error(str(error))

    def _end_after(self, gone: _ChildGone) -> str:
        """End the child after a broken exchange; the message that explains it best."""
        ended = self._end_child()
        return (ended or str(gone)) if gone.exited else str(gone)

    def _exchange(self, request: dict, time_limit: float | None = None, raw: dict[str, str] | None = None) -> dict:
        """One request line out, its reply in. raw: keys whose values are JSON text already."""
        child = self._child
        assert child is not None
        self._check_silent(child)
        # Ids only pair a reply with its request (the child is learner code: what it says is
        # never trusted beyond plain data, so an unguessable id would protect nothing).
        request_id = str(next(self._request_ids))
        line = plain.wire_line_with({"id": request_id, **request}, raw or {})
        seconds = self.limits.call_seconds if time_limit is None else min(time_limit, self.limits.call_seconds)
        deadline = min(time.monotonic() + seconds, self._submission_deadline)
        try:
            self._write_all(child, line, deadline)
            reply = self._read_line(child, deadline)
        except _ChildGone:
            self._check_memory(child)  # the better explanation when the kernel killed it
            raise
        self._check_memory(child)
        body = parse_reply(reply, request_id)
        # Parsed JSON is exact plain data; only a string that starts with "$" (an opaque marker or
        # an escaped key, the only things decoding changes) needs the decoding walk. Found in the
        # raw line at C speed, a "$" written as \u0024 included, never from what the child says.
        self._reply_is_plain = b'"$' not in reply and b"\\u0024" not in reply
        return body

    def _value_by_digest(self, body: dict, time_limit: float | None) -> dict:
        """body with the large result the child named by its digest (known_values): a copy of
        the value when this process parsed it before, else the value asked for, checked against
        the digest and remembered. Raises _ChildGone when the child does not keep to that."""
        digest = body.pop("value_digest")
        if type(digest) is not str or DIGEST_FORM.fullmatch(digest) is None or body.get("value") is not None:
            raise _ChildGone("antwoord van het proces heeft niet de afgesproken vorm")
        value = KNOWN_VALUES.get(digest)
        if value is None:
            reply = self._exchange({"op": "value"}, time_limit)
            value = reply.get("value") if set(reply) == {"value"} else None
            # Parsed JSON, and no opaque marker or escaped key in the line: exact plain.
            fingerprint = plain.fingerprint_of_plain(value) if self._reply_is_plain else None
            if type(value) not in (list, dict) or fingerprint is None or digest_of(fingerprint) != digest:
                raise _ChildGone("het proces stuurde een andere waarde dan het aankondigde")
            KNOWN_VALUES.put(digest, fingerprint)
        return dict(body, value=value)

    def _check_memory(self, child: _Child) -> None:
        """A process of the submission killed for the cgroup's memory limit makes the exchange an
        error, whatever the reply says: together its processes used too much."""
        if child.oom is None:
            return
        try:
            killed = child.oom.kills()
        except (OSError, ValueError):
            return
        if killed:
            memory_mb = self.limits.memory_bytes / MIB
            raise _ChildGone(f"je code gebruikte (met de processen die ze startte) samen meer dan "
                             f"{memory_mb:g} MB geheugen")

    def _check_silent(self, child: _Child) -> None:
        """Between exchanges the child must not have written anything (e.g. a learner thread
        writing to the reply pipe): such bytes are never trusted, the child is stopped."""
        reader = child.reader
        if not reader.pending and _readable(child.reply_fd):
            try:
                at_end = reader.read_some() == 0
            except BlockingIOError:
                at_end = False
            except OSError:
                at_end = True
            if at_end:
                raise _ChildGone("het proces met je code is onverwacht gestopt", exited=True)
        if reader.pending:
            raise _ChildGone("het proces schreef buiten het protocol om")

    def _write_all(self, child: _Child, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        poller = select.poll()
        poller.register(child.request_fd, select.POLLOUT)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Timeout
            if not poller.poll(remaining * 1000):
                continue
            try:
                written = os.write(child.request_fd, view[:PIPE_BYTES])
            except BlockingIOError:
                continue  # the child shrank or stopped emptying its pipe: poll again, until the deadline
            except OSError:
                raise _ChildGone("het proces met je code is gestopt", exited=True) from None
            view = view[written:]

    def _read_line(self, child: _Child, deadline: float) -> bytes:
        poller = select.poll()
        poller.register(child.reply_fd, select.POLLIN)
        cap = self.limits.reply_bytes
        pending = child.reader.pending
        scanned = 0
        while True:
            newline = pending.find(b"\n", scanned)
            if newline > cap:
                # A whole over-long line can arrive in one read now that the pipe is wide.
                raise _ChildGone("het antwoord van het proces was te groot")
            if newline >= 0:
                line = bytes(pending[:newline])
                del pending[: newline + 1]
                return line
            scanned = len(pending)
            if scanned > cap:
                raise _ChildGone("het antwoord van het proces was te groot")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Timeout
            if not poller.poll(remaining * 1000):
                continue
            try:
                count = child.reader.read_some()
            except BlockingIOError:
                continue
            except OSError:
                count = 0
            if not count:
                raise _ChildGone("het proces met je code is onverwacht gestopt", exited=True)

    # ---- processes --------------------------------------------------------------------------

    def _spawn_child(self) -> None:
        self._ensure_zygote()
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        for pipe_fd in (request_write, reply_write):
            _widen_pipe(pipe_fd)
        try:
            try:
                wire = self._control_exchange(ControlRequest.spawn(), fds=[request_read, reply_write])
            except SandboxError:
                # The zygote died since the last submission (say, the OOM killer): start a new one.
                self._stop_zygote()
                self._ensure_zygote()
                wire = self._control_exchange(ControlRequest.spawn(), fds=[request_read, reply_write])
        except BaseException:
            os.close(request_write)
            os.close(reply_read)
            raise
        finally:
            os.close(request_read)
            os.close(reply_write)
        try:
            reply = SpawnReply.from_wire(wire)
        except ProtocolError as error:
            reply = SpawnReply(error=str(error))
        if reply.pid is None:
            os.close(request_write)
            os.close(reply_read)
            raise SandboxError(f"zygote could not spawn a child: {wire}")
        try:
            oom = OomCounter(reply.oom_file) if reply.oom_file is not None else None
        except OSError:
            oom = None  # the limit still holds; only the explanation of a kill is lost
        # Never a blocking write or read on the child's pipes: whatever it does with its ends
        # (shrink the pipe to a page, stop reading, hand them to another process), every
        # exchange stays bounded by its deadline.
        os.set_blocking(request_write, False)
        os.set_blocking(reply_read, False)
        self._child = _Child(pid=reply.pid, request_fd=request_write, reply_fd=reply_read,
                             reader=PipeReader(reply_read), oom=oom)

    def _end_child(self) -> str:
        """Kill the current child and everything it started; returns how it ended (or "")."""
        child, self._child = self._child, None
        if child is None:
            return ""
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
        for fd in (child.request_fd, child.reply_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        if child.oom is not None:
            child.oom.close()
        try:
            self.cleanup = CleanupReport.from_wire(self._control_exchange(ControlRequest.clean(child.pid)))
        except (SandboxError, ProtocolError):
            # The zygote is gone: start over; its death killed every child (PDEATHSIG).
            self._stop_zygote()
            self.cleanup = CleanupReport.lost("zygote lost")
            return ""
        return self.cleanup.ended

    def _ensure_zygote(self) -> None:
        if self._zygote is not None and self._zygote.poll() is None:
            return
        self._stop_zygote()
        if self.drop_privileges and self.sandbox is None:
            self.sandbox = claim_sandbox_uid()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        spec = ZygoteSpec(
            parent_pid=os.getpid(),
            uid=self.sandbox.uid if self.sandbox else None,
            gid=self.sandbox.gid if self.sandbox else None,
            limits=self.limits,
            env=CHILD_ENV,
            preload=self.preload,
            learner_modules=self.learner_modules,
            hidden=self.hidden_paths,
        )
        boot = (
            "import sys\n"
            f"sys.path[:] = {_child_sys_path()!r}\n"
            "from runner.offline.sandbox.child import zygote_main\n"
            f"zygote_main({theirs.fileno()}, {json.dumps(spec.to_wire())!r})\n"
        )
        # The zygote's own stderr (its children's is /dev/null) explains a failed start.
        self._zygote_stderr = tempfile.TemporaryFile()
        try:
            self._zygote = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", boot],
                pass_fds=(theirs.fileno(),),
                env=CHILD_ENV,
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._zygote_stderr,
                start_new_session=True,
            )
        finally:
            theirs.close()
        self._control = ours
        ours.settimeout(ZYGOTE_START_SECONDS)
        try:
            data = ours.recv(65536)
        except OSError:
            data = b""
        ours.settimeout(CONTROL_SECONDS)
        if not data:
            try:
                if self._zygote is not None:
                    self._zygote.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass  # alive but silent: _stop_zygote kills it
            self._zygote_stderr.seek(0)
            detail = self._zygote_stderr.read()[-600:].decode("utf-8", "replace").strip()
            self._stop_zygote()
            raise SandboxError(f"the sandbox process did not start: {detail or 'no message'}")
        try:
            self.zygote_report = ZygoteReport.from_wire(json.loads(data))
        except ValueError as error:  # not JSON, or a ProtocolError naming the field
            self._stop_zygote()
            raise SandboxError(f"the sandbox process sent a broken start-up report: {error}") from None

    def _control_exchange(self, request: ControlRequest, fds: Sequence[int] = ()) -> object:
        """The zygote's answer to request, as parsed JSON (the caller reads it with its type)."""
        control = self._control
        if control is None:
            raise SandboxError("no sandbox process")
        try:
            payload = json.dumps(request.to_wire()).encode("ascii")
            if fds:
                socket.send_fds(control, [payload], list(fds))
            else:
                control.sendall(payload)
            data = control.recv(65536)
        except OSError as error:
            raise SandboxError(f"sandbox process unreachable: {error}") from None
        if not data:
            raise SandboxError("sandbox process stopped")
        return json.loads(data)

    def _stop_zygote(self) -> None:
        control, self._control = self._control, None
        zygote, self._zygote = self._zygote, None
        if control is not None:
            try:
                control.settimeout(CONTROL_SECONDS)
                control.sendall(json.dumps(ControlRequest.exit().to_wire()).encode("ascii"))
                control.recv(65536)
            except OSError:
                pass
            control.close()
        if zygote is not None:
            try:
                zygote.wait(timeout=CONTROL_SECONDS)
            except subprocess.TimeoutExpired:
                zygote.kill()
                zygote.wait()
        if self._zygote_stderr is not None:
            self._zygote_stderr.close()
            self._zygote_stderr = None
        # A zygote that was killed could not remove its cgroups (nor stop what runs in them).
        cgroup = self.zygote_report.cgroup if self.zygote_report else None
        for directory in cgroup.directories if cgroup else ():
            remove_cgroup_tree(directory)

    @property
    def zygote_info(self) -> dict[str, Any]:
        """The start-up report in its wire form ({} before the zygote first started)."""
        return self.zygote_report.to_wire() if self.zygote_report else {}

    @property
    def last_cleanup(self) -> dict[str, Any]:
        """The last clean-up's report in its wire form ({} before the first)."""
        return self.cleanup.to_wire() if self.cleanup else {}

    @property
    def child_pid(self) -> int | None:
        """The current submission's child (its pid is also its session and group id)."""
        return self._child.pid if self._child else None

    @property
    def sandbox_uid(self) -> int | None:
        return self.sandbox.uid if self.sandbox else None
