"""ChildProcessHost: the offline `runner.core.host.Host` that runs learner code in a limited process.

The tests run here, in the trusted grader; the learner's main.py runs in a child forked for each
submission by a clean zygote (`zygote`, `child`), started with a `protocol.ZygoteSpec`. Requests
and replies cross one narrow channel (`channel`), arguments and results in the plain encoding
(`runner.core.plain`); nothing the child sends is unpickled or executed, and a reply is then
validated by `LoadReport.from_wire` / `CallOutcome.from_wire`.

Fail-closed: a child that runs out of time is killed and the call is a timeout; a child that dies,
closes the channel, sends garbage or too much is killed and the call is an error. After every
submission (and every kill) the zygote kills the child's session and every process it left behind
and checks /proc that none remain. As root, each host runs its learners' code as a sandbox uid of
its own (`sandbox_uid`), in an allow-list file system (`learner_root`) without kernel keyrings
(`seccomp`), and each submission in a cgroup of its own where the system allows it (`cgroups`).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import runner
from runner.core import plain, wire
from runner.core.host import encode_as_json, outcome_from_wire
from runner.core.model import CallOutcome, LoadReport, WireError
from runner.offline.sandbox.cgroups import OomCounter, remove_cgroup_tree
from runner.offline.sandbox.channel import (
    ChildChannel,
    ChildGone,
    ExchangeTimeout,
    check_memory,
    check_silent,
    parse_reply,
    read_line,
    widen_pipe,
    write_all,
)
from runner.offline.sandbox.known_values import DIGEST_FORM, KNOWN_VALUES, digest_of
from runner.offline.sandbox.pipes import PipeReader
from runner.offline.sandbox.protocol import (
    CleanupReport,
    ControlRequest,
    ProtocolError,
    SandboxError,
    SandboxLimits,
    SpawnReply,
    ZygoteReport,
    ZygoteSpec,
)
from runner.offline.sandbox.sandbox_uid import SandboxUid, claim_sandbox_uid

# What the child itself runs on, imported once in the zygote.
RUNNER_PRELOAD: tuple[str, ...] = (
    "runner.core.invoke", "runner.core.plain", "runner.core.wire", "runner.core.model", "runner.core.messages",
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



def _child_sys_path() -> list[str]:
    """Where the zygote imports from: this runner package first, then the stdlib and site dirs."""
    package_root = str(Path(runner.__file__).resolve().parent.parent)
    paths = [package_root]
    for entry in sys.path:
        if entry and entry not in paths and os.path.isabs(entry) and os.path.exists(entry):
            paths.append(entry)
    return paths


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
        learner root, an allow-list (runner.offline.sandbox.learner_root), so these matter
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
        self._zygote: subprocess.Popen[bytes] | None = None
        self._zygote_stderr: IO[bytes] | None = None
        self._control: socket.socket | None = None
        self._child: ChildChannel | None = None
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

    def call(self, function: str, args: list[Any], kwargs: dict[str, Any] | None = None,
             time_limit: float | None = None) -> CallOutcome:
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
        except ExchangeTimeout:
            self._end_child()
            return CallOutcome.timed_out(self._timeout_text())
        except ChildGone as gone:
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
        except ExchangeTimeout:
            self._end_child()
            return LoadReport.timed_out()
        except ChildGone as gone:
            return LoadReport.host_error(self._end_after(gone))
        try:
            return LoadReport.from_wire(body)
        except WireError as error:
            self._end_child()
            return LoadReport.host_error(str(error))

    def _end_after(self, gone: ChildGone) -> str:
        """End the child after a broken exchange; the message that explains it best."""
        ended = self._end_child()
        return (ended or str(gone)) if gone.exited else str(gone)

    def _exchange(self, request: dict[str, Any], time_limit: float | None = None,
                  raw: dict[str, str] | None = None) -> dict[str, Any]:
        """One request line out, its reply in. raw: keys whose values are JSON text already."""
        child = self._child
        assert child is not None
        check_silent(child)
        # Ids only pair a reply with its request (the child is learner code: what it says is
        # never trusted beyond plain data, so an unguessable id would protect nothing).
        request_id = str(next(self._request_ids))
        line = wire.wire_line_with({"id": request_id, **request}, raw or {})
        seconds = self.limits.call_seconds if time_limit is None else min(time_limit, self.limits.call_seconds)
        deadline = min(time.monotonic() + seconds, self._submission_deadline)
        try:
            write_all(child, line, deadline)
            reply = read_line(child, deadline, self.limits.reply_bytes)
        except ChildGone:
            check_memory(child, self.limits.memory_bytes)  # the better explanation when the kernel killed it
            raise
        check_memory(child, self.limits.memory_bytes)
        body = parse_reply(reply, request_id)
        # Parsed JSON is exact plain data; only a string that starts with "$" (an opaque marker or
        # an escaped key, the only things decoding changes) needs the decoding walk. Found in the
        # raw line at C speed, a "$" written as \u0024 included, never from what the child says.
        self._reply_is_plain = b'"$' not in reply and b"\\u0024" not in reply
        return body

    def _value_by_digest(self, body: dict[str, Any], time_limit: float | None) -> dict[str, Any]:
        """body with the large result the child named by its digest (known_values): a copy of
        the value when this process parsed it before, else the value asked for, checked against
        the digest and remembered. Raises ChildGone when the child does not keep to that."""
        digest = body.pop("value_digest")
        if type(digest) is not str or DIGEST_FORM.fullmatch(digest) is None or body.get("value") is not None:
            raise ChildGone("antwoord van het proces heeft niet de afgesproken vorm")
        value = KNOWN_VALUES.get(digest)
        if value is None:
            reply = self._exchange({"op": "value"}, time_limit)
            value = reply.get("value") if set(reply) == {"value"} else None
            # Parsed JSON, and no opaque marker or escaped key in the line: exact plain.
            fingerprint = plain.fingerprint_of_plain(value) if self._reply_is_plain else None
            if type(value) not in (list, dict) or fingerprint is None or digest_of(fingerprint) != digest:
                raise ChildGone("het proces stuurde een andere waarde dan het aankondigde")
            KNOWN_VALUES.put(digest, value)
        return dict(body, value=value)

    # ---- processes --------------------------------------------------------------------------

    def _spawn_child(self) -> None:
        self._ensure_zygote()
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        for pipe_fd in (request_write, reply_write):
            widen_pipe(pipe_fd)
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
        self._child = ChildChannel(pid=reply.pid, request_fd=request_write, reply_fd=reply_read,
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
            "from runner.offline.sandbox.zygote import zygote_main\n"
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
    def child_pid(self) -> int | None:
        """The current submission's child (its pid is also its session and group id)."""
        return self._child.pid if self._child else None

    @property
    def sandbox_uid(self) -> int | None:
        return self.sandbox.uid if self.sandbox else None
