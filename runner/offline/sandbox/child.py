"""The learner's side of the sandbox: one child per submission, forked by the zygote.

Before any learner code runs, the child (`become_child`)

- joins a cgroup of its own where the system allows it (memory and processes of everything the
  submission starts, counted together),
- starts its own session and process group (so the whole group can be killed at once),
- keeps only the two protocol pipes (fd 3: requests in, fd 4: replies out); fds 0, 1 and 2 are
  /dev/null, so a learner `print` or a raw `os.write(1, ...)` never reaches the parent,
- gets its resource limits (address space, file size, no core files, a process count, fds,
  message queues, CPU),
- as root: enters the learner root (`learner_root`) with fresh scratch tmpfs, and drops to a
  sandbox uid/gid with no supplementary groups, so it cannot signal or read what the grader can;
  otherwise works in an empty temporary directory,
- sets no_new_privs and dies with the zygote (PDEATHSIG),
- runs under a seccomp filter that refuses the kernel keyring calls and creating a user
  namespace (`seccomp`),
- refuses learner imports outside the lesson's modules with a Dutch message (`import_guard`),
- then answers one JSON request per line with one JSON reply per line (`serve_requests`),
  through `runner.core.invoke`.

Standard library and the runner core only: all of it is preloaded by the zygote.
"""

from __future__ import annotations

import fcntl
import io
import json
import marshal
import os
import resource
import signal
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from runner.core import wire
from runner.offline.sandbox.cgroups import CgroupLeaf, join_cgroup
from runner.offline.sandbox.known_values import DIGEST_MIN_BYTES, digest_of
from runner.offline.sandbox.learner_root import enter_learner_root
from runner.offline.sandbox.libc import PR_SET_NO_NEW_PRIVS, PR_SET_PDEATHSIG, prctl
from runner.offline.sandbox.pipes import PipeReader
from runner.offline.sandbox.protocol import ZygoteSpec
from runner.offline.sandbox.seccomp import install_keyring_filter

REQUEST_FD = 3
REPLY_FD = 4
MSGQUEUE_BYTES = 1 << 20


class _Channel:
    """Line-oriented reading from the request fd and whole-line writes to the reply fd."""

    def __init__(self, request_fd: int, reply_fd: int) -> None:
        self.reader = PipeReader(request_fd)
        self.reply_fd = reply_fd

    def read_request(self) -> dict[str, Any] | None:
        pending = self.reader.pending
        scanned = 0
        while True:
            newline = pending.find(b"\n", scanned)
            if newline >= 0:
                break
            scanned = len(pending)
            if not self.reader.read_some():
                return None
        line = bytes(pending[:newline])
        del pending[: newline + 1]
        # From the trusted parent: no strict parse needed.
        request: dict[str, Any] = json.loads(line.decode(wire.WIRE_ENCODING, wire.WIRE_ERRORS))
        return request

    def write_reply(self, reply: dict[str, Any]) -> None:
        data = wire.wire_line(reply)  # lone surrogates and surrogate pairs kept apart
        view = memoryview(data)
        while view:
            written = os.write(self.reply_fd, view)
            view = view[written:]


def serve_requests(request_fd: int, reply_fd: int, output_limit: int) -> None:
    """The child's main loop: one request line in, one reply line out, until the pipe closes.

    Requests (from the trusted parent):
      {"id": n, "op": "load", "source": str, "expected": [name, ...]} -> LoadReport wire form
      {"id": n, "op": "call", "function": str, "args": encoded, "kwargs": encoded, "plain": bool}
                                                                    -> CallOutcome wire form
      {"id": n, "op": "value"}          -> {"value": the last call's large result}
    A call whose result is large and exact plain answers with "value": null and "value_digest"
    (runner.offline.sandbox.known_values); the result is held until the next request, in case
    the grader asks for it. Replies: {"id": n, "body": {...}}. `runner.core.invoke` captures learner output per load/call;
    anything printed outside those (a thread, an atexit hook) goes to a capped sink nobody reads.
    """
    from runner.core import invoke  # preloaded by the zygote; no file access needed after the uid drop

    stray_output = invoke.CappedText(output_limit)
    sys.stdout = sys.stderr = stray_output
    # typeshed declares sys.__stdout__ and friends Final and TextIOWrapper; the child replaces them all the same.
    sys.__stdout__ = sys.__stderr__ = stray_output  # type: ignore[misc, assignment]
    sys.stdin = sys.__stdin__ = io.StringIO("")  # type: ignore[misc, assignment]
    channel = _Channel(request_fd, reply_fd)
    namespace: dict[str, Any] = {}
    held: bytes | None = None  # the fingerprint of the last call's result, if named by digest
    while True:
        request = channel.read_request()
        if request is None:
            return
        if request.get("op") == "value":
            # Immutable bytes, taken before the learner's code could run again.
            body = {"value": None if held is None else marshal.loads(held)}
            held = None
        elif request.get("op") == "load":
            loaded = invoke.load_module(request["source"], "main.py", request.get("expected", ()))
            namespace = loaded.namespace
            body = loaded.report.to_wire()
            held = None
        else:
            body = invoke.invoke(
                namespace,
                request["function"],
                request["args"],
                request["kwargs"],
                already_plain=request.get("plain") is True,
                copy_value=False,  # the reply is written before any learner code runs again
            )
            held = _name_large_value(body, invoke.VALUE_EXACT)
        stray_output.take()  # nobody reads it: emptied so it stays small
        channel.write_reply({"id": request["id"], "body": body})


def _name_large_value(body: dict[str, Any], exact_key: str) -> bytes | None:
    """Replace a large exact-plain result in body by its digest; return its fingerprint to hold.
    The value is exact plain (invoke said so: no marker, no escaped key), so marshal version 0
    writes it and its bytes are its fingerprint."""
    value = body.get("value")
    if body.get(exact_key) is not True or type(value) not in (list, dict):
        return None
    try:
        fingerprint = marshal.dumps(value, 0)
    except (ValueError, RecursionError):
        return None
    if len(fingerprint) < DIGEST_MIN_BYTES:
        return None
    body["value"] = None
    body["value_digest"] = digest_of(fingerprint)
    return fingerprint


@dataclass(frozen=True)
class ChildPlan:
    """How every child of this zygote is set up: the spec, and what the zygote found to hold here."""

    spec: ZygoteSpec
    learner_root: str | None  # the allow-list root children pivot into (as root, where it works)
    keyring_filter: bool  # the seccomp filter can be installed here


def become_child(plan: ChildPlan, request_fd: int, reply_fd: int, workdir: str, cgroup: CgroupLeaf | None) -> None:
    """Runs in the freshly forked process, still as the zygote's user, before any learner code."""
    spec = plan.spec
    if cgroup is not None:
        # First, while still privileged: everything this process and its descendants do is
        # then counted against the submission's limits. Fails closed (OSError ends the child).
        join_cgroup(cgroup)
    os.setsid()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    # Move the protocol pipes to fixed numbers, everything else to /dev/null or closed. The
    # copies go above 9 first, so no dup2 below can overwrite the other pipe.
    high_request = fcntl.fcntl(request_fd, fcntl.F_DUPFD, 10)
    high_reply = fcntl.fcntl(reply_fd, fcntl.F_DUPFD, 10)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.dup2(high_request, REQUEST_FD)
    os.dup2(high_reply, REPLY_FD)
    os.closerange(REPLY_FD + 1, _max_fd())
    os.set_inheritable(REQUEST_FD, False)
    os.set_inheritable(REPLY_FD, False)

    limits = spec.limits
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    # POSIX message queues are charged to the user, outside RLIMIT_AS: about a MiB.
    queue_hard = resource.getrlimit(resource.RLIMIT_MSGQUEUE)[1]
    queue_cap = MSGQUEUE_BYTES if queue_hard == resource.RLIM_INFINITY else min(queue_hard, MSGQUEUE_BYTES)
    resource.setrlimit(resource.RLIMIT_MSGQUEUE, (queue_cap, queue_cap))
    # CPU seconds are a backstop only: the parent enforces wall-clock limits itself.
    cpu = max(1, int(limits.submission_seconds) + 2)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if spec.uid is not None:
        # Counted per real uid, so it only means something once we are the sandbox uid.
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
    if plan.learner_root:
        # Fails closed: an OSError here ends the child before any learner code runs.
        assert spec.uid is not None and spec.gid is not None  # a learner root only with a sandbox uid
        enter_learner_root(plan.learner_root, limits.temp_bytes)
        workdir = tempfile.mkdtemp(prefix="werkplaats-learner-", dir="/tmp")
        os.chown(workdir, spec.uid, spec.gid)
        os.chmod(workdir, 0o700)
    os.chdir(workdir)
    if spec.uid is not None:
        assert spec.gid is not None
        os.setgroups([])
        os.setresgid(spec.gid, spec.gid, spec.gid)
        os.setresuid(spec.uid, spec.uid, spec.uid)
    # No setuid binary can hand privileges back to learner code.
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    # Set after the uid change, which clears it: the child dies with the zygote.
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if plan.keyring_filter:
        install_keyring_filter()  # fails closed, like the learner root
    os.environ.clear()
    os.environ.update(spec.env)
    os.environ["HOME"] = workdir
    os.environ["TMPDIR"] = workdir
    tempfile.tempdir = workdir


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return min(soft, 65536) if soft > 0 else 4096
