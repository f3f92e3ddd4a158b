"""The learner's side of the offline runner: a zygote that forks one fresh child per submission.

The parent (`runner.offline.sandbox.ChildProcessHost`) starts this module once as an isolated interpreter
(`python -I -S`, its own session, a minimal environment). That process, the zygote, imports the
runner core and the modules learners may use, then never runs learner code itself: for every
submission it forks a child that

- starts its own session and process group (so the whole group can be killed at once),
- keeps only the two protocol pipes (fd 3: requests in, fd 4: replies out); fds 0, 1 and 2 are
  /dev/null, so a learner `print` or a raw `os.write(1, ...)` never reaches the parent,
- joins a cgroup of its own where the system allows it (memory and processes of everything the
  submission starts, counted together),
- gets its resource limits (address space, file size, no core files, a process count, fds, CPU),
- works in an empty temporary directory and, when the zygote runs as root, drops to a sandbox
  uid/gid with no supplementary groups, so it cannot signal or read what the grader can,
- refuses learner imports outside the lesson's modules with a Dutch message (runner.offline.import_guard),
- then answers one JSON request per line with one JSON reply per line, through `runner.core.invoke`.

The zygote is a child subreaper: a grandchild that daemonizes (double fork, setsid) is re-parented
to the zygote instead of init, so `_sweep` finds and kills it after the submission.

Control messages between parent and zygote go over a Unix socket, one JSON object per message; a
"spawn" carries the child's two pipe ends as SCM_RIGHTS file descriptors.
"""

from __future__ import annotations

import ctypes
import fcntl
import gc
import importlib
import io
import json
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Sequence

from runner.core import plain
from runner.offline.cgroups import CgroupLeaf, SubmissionCgroups, cgroup_pids, join_cgroup, open_cgroups, read_small_file
from runner.offline.pipes import PipeReader

REQUEST_FD = 3
REPLY_FD = 4
CONTROL_BUFFER = 65536

# prctl options (linux/prctl.h)
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
CLONE_NEWNET = 0x40000000  # linux/sched.h
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
# mount(2) flags and mount_setattr(2) (linux/mount.h). Its syscall number is 442 on x86_64 and
# arm64; on other machines the read-only step is skipped and only the tmpfs mounts are made.
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 1, 2, 4, 1 << 14, 1 << 18
SYS_MOUNT_SETATTR = {"x86_64": 442, "aarch64": 442}.get(os.uname().machine)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1
# The world-writable places a sandbox uid could fill or leave files in for the next submission.
SCRATCH_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
# Hidden behind an empty read-only tmpfs: the system's Unix sockets (D-Bus, syslog, ...), which
# no network namespace covers. The grader adds the checkpoints tree and the class's folders.
ALWAYS_HIDDEN = ("/run",)


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _private_filesystem(temp_bytes: int, hidden: Sequence[str] = ()) -> None:
    """Give this process a mount namespace of its own in which every existing mount is read-only
    (on x86_64 and arm64, see SYS_MOUNT_SETATTR)
    and each of SCRATCH_DIRS is a fresh tmpfs of temp_bytes: learner code can write only there,
    cannot fill the grader's disk, and what it writes vanishes with the child's last process.
    ALWAYS_HIDDEN and `hidden` (the hidden tests, the reference solution, other learners' work)
    become empty. A new IPC namespace too: shared memory and message queues die with the child
    instead of outliving the submission. Needs CAP_SYS_ADMIN; raises OSError when refused."""
    libc = ctypes.CDLL(None, use_errno=True)

    def check(result: int, what: str) -> None:
        if result != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{what}: {os.strerror(error)}")

    check(libc.unshare(CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    # Private first, so nothing below reaches the grader's own mounts.
    check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    if SYS_MOUNT_SETATTR is not None:
        attr = _MountAttr(attr_set=MOUNT_ATTR_RDONLY)
        libc.syscall.restype = ctypes.c_long
        check(libc.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), b"/",
                           ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr))),
              "mount_setattr / read-only")
    options = f"size={temp_bytes},mode=1777".encode()
    for directory in SCRATCH_DIRS:
        if os.path.isdir(directory) and not os.path.islink(directory):
            check(libc.mount(b"tmpfs", directory.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options),
                  f"mount tmpfs on {directory}")
    for directory in (*ALWAYS_HIDDEN, *hidden):
        # A path under a fresh scratch dir is already out of sight (and no longer a directory).
        if os.path.isdir(directory) and not os.path.islink(directory):
            check(libc.mount(b"tmpfs", directory.encode(), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV,
                             b"size=4k,mode=0555"), f"hide {directory}")


def _hideable(path: str) -> bool:
    """Never hide / or a folder the interpreter lives in: a learner's own import and Python's
    lazy look-ups still read there after the fork."""
    needed = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)}
    inside = path.rstrip("/") + "/"
    return path != "/" and not any(place == path or place.startswith(inside) for place in needed)


def _probe_private_filesystem(temp_bytes: int, hidden: Sequence[str]) -> bool:
    """Whether children can get a private filesystem here: tried once in a throw-away child."""
    pid = os.fork()
    if pid == 0:
        try:
            _private_filesystem(temp_bytes, hidden)
            os._exit(0)
        except BaseException:  # noqa: BLE001 - the answer is the exit status
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _unshare_network() -> bool:
    """Move into a network namespace of our own, which has no interface up (not even loopback):
    learner code can then reach no host, the grader's machine included. Needs CAP_SYS_ADMIN
    (root, outside a container that drops it); False when the system does not allow it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.unshare(CLONE_NEWNET) == 0
    except (OSError, AttributeError):
        return False


# --------------------------------------------------------------------------------------------
# The child: runs learner code and answers requests.


class _Channel:
    """Line-oriented reading from the request fd and whole-line writes to the reply fd."""

    def __init__(self, request_fd: int, reply_fd: int) -> None:
        self.reader = PipeReader(request_fd)
        self.reply_fd = reply_fd

    def read_request(self) -> dict | None:
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
        return json.loads(line)

    def write_reply(self, reply: dict) -> None:
        data = plain.json_line(reply)  # lone surrogates travel as \udXXX escapes
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
    Replies: {"id": n, "body": {...}}. `runner.core.invoke` captures learner output per load/call;
    anything printed outside those (a thread, an atexit hook) goes to a capped sink nobody reads.
    """
    from runner.core import invoke  # preloaded by the zygote; no file access needed after the uid drop

    stray_output = invoke.CappedText(output_limit)
    sys.stdout = sys.stderr = stray_output
    sys.__stdout__ = sys.__stderr__ = stray_output  # type: ignore[misc]
    sys.stdin = sys.__stdin__ = io.StringIO("")  # type: ignore[misc]
    channel = _Channel(request_fd, reply_fd)
    namespace: dict = {}
    while True:
        request = channel.read_request()
        if request is None:
            return
        if request.get("op") == "load":
            loaded = invoke.load_module(request["source"], "main.py", request.get("expected", ()))
            namespace = loaded.namespace
            body = loaded.report.to_wire()
        else:
            body = invoke.invoke(
                namespace,
                request["function"],
                request["args"],
                request["kwargs"],
                already_plain=request.get("plain") is True,
            )
        stray_output.take()  # nobody reads it: emptied so it stays small
        channel.write_reply({"id": request["id"], "body": body})


def _become_child(spec: dict, request_fd: int, reply_fd: int, workdir: str, cgroup: CgroupLeaf | None) -> None:
    """Runs in the freshly forked process, still as the zygote's user, before any learner code."""
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

    limits = spec["limits"]
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"],) * 2)
    # CPU seconds are a backstop only: the parent enforces wall-clock limits itself.
    cpu = max(1, int(limits["submission_seconds"]) + 2)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if spec.get("uid") is not None:
        # Counted per real uid, so it only means something once we are the sandbox uid.
        resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"],) * 2)
    if spec.get("private_filesystem"):
        # The zygote's workdir is now hidden under the fresh /tmp: work in one made there.
        # Fails closed: an OSError here ends the child before any learner code runs.
        _private_filesystem(limits["temp_bytes"], spec["hidden"])
        workdir = tempfile.mkdtemp(prefix="werkplaats-learner-", dir="/tmp")
        os.chown(workdir, spec["uid"], spec["gid"])
        os.chmod(workdir, 0o700)
    os.chdir(workdir)
    if spec.get("uid") is not None:
        os.setgroups([])
        os.setresgid(spec["gid"], spec["gid"], spec["gid"])
        os.setresuid(spec["uid"], spec["uid"], spec["uid"])
    # No setuid binary can hand privileges back to learner code.
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    # Set after the uid change, which clears it: the child dies with the zygote.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.environ.clear()
    os.environ.update(spec["env"])
    os.environ["HOME"] = workdir
    os.environ["TMPDIR"] = workdir
    tempfile.tempdir = workdir


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return min(soft, 65536) if soft > 0 else 4096


# --------------------------------------------------------------------------------------------
# The zygote.


def _status_field(status: bytes, name: bytes) -> int | None:
    start = status.find(b"\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 2
    end = status.find(b"\n", start)
    return int(status[start:end if end >= 0 else None].split()[0])


def _proc_entries() -> list[tuple[int, int, int, int]]:
    """(pid, ppid, session, real uid) of every visible process; vanished ones are skipped.

    One read of /proc/<pid>/status each (it has PPid, Uid and NSsid): this runs after every
    submission, so it is kept cheap.
    """
    entries = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            status = read_small_file(f"/proc/{name}/status")
            ppid = _status_field(status, b"PPid")
            uid = _status_field(status, b"Uid")
            session = _status_field(status, b"NSsid")
            if session is None:  # kernels before 4.1: the session is field 6 of stat
                stat = read_small_file(f"/proc/{name}/stat")
                session = int(stat[stat.rfind(b")") + 2:].split()[3])
        except (OSError, ValueError, IndexError):
            continue
        if ppid is None or uid is None:
            continue
        entries.append((int(name), ppid, session, uid))
    return entries


def _reap_all(statuses: dict[int, int]) -> None:
    """Wait for every child that has ended; remember how each one ended."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        statuses[pid] = status


def describe_end(status: int | None) -> str:
    """A Dutch phrase for how a child ended, for the learner's message."""
    if status is None:
        return ""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGKILL:
            return "het proces met je code werd afgebroken (SIGKILL)"
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return f"het proces met je code stopte door signaal {name}"
    if os.WIFEXITED(status):
        return f"het proces met je code stopte onverwacht met exitcode {os.WEXITSTATUS(status)}"
    return ""


@dataclass(frozen=True)
class _Spawned:
    workdir: str
    cgroup: CgroupLeaf | None


class Zygote:
    def __init__(self, control: socket.socket, spec: dict, cgroups: SubmissionCgroups | None) -> None:
        self.control = control
        self.spec = spec
        self.cgroups = cgroups
        self.pid = os.getpid()
        self.children: dict[int, _Spawned] = {}
        self.statuses: dict[int, int] = {}  # pid -> wait status, for processes we reaped

    def serve(self) -> None:
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.control, CONTROL_BUFFER, 2)
            except (ConnectionError, OSError):
                data, fds = b"", []
            if not data:
                self.shutdown()
                return
            message = json.loads(data)
            op = message.get("op")
            if op == "spawn" and len(fds) == 2:
                reply = self.spawn(fds[0], fds[1])
            elif op == "clean":
                reply = self.clean(int(message["pid"]))
            elif op == "exit":
                self.shutdown()
                self.send({"ok": True})
                return
            else:
                for fd in fds:
                    os.close(fd)
                reply = {"error": f"unknown control message {op!r}"}
            self.send(reply)

    def send(self, reply: dict) -> None:
        self.control.sendall(json.dumps(reply).encode("ascii"))

    def spawn(self, request_fd: int, reply_fd: int) -> dict:
        limits = self.spec["limits"]
        try:
            cgroup = self.cgroups.new_leaf(limits["memory_bytes"], limits["processes"]) if self.cgroups else None
        except OSError as error:
            # Never a child without the limits the start-up report promised.
            os.close(request_fd)
            os.close(reply_fd)
            return {"error": f"no cgroup for the child: {error}"}
        workdir = tempfile.mkdtemp(prefix="werkplaats-learner-")
        if self.spec.get("uid") is not None:
            os.chown(workdir, self.spec["uid"], self.spec["gid"])
        os.chmod(workdir, 0o700)
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                self.control.close()
                _become_child(self.spec, request_fd, reply_fd, workdir, cgroup)
                # Preloaded by the zygote (sandbox.RUNNER_PRELOAD): no file access needed now.
                from runner.offline import import_guard
                import_guard.install(self.spec.get("learner_modules", ()))
                serve_requests(REQUEST_FD, REPLY_FD, self.spec["limits"]["output_chars"])
            except BaseException:  # noqa: BLE001 - the child must never return into the zygote
                status = 70
            os._exit(status)
        os.close(request_fd)
        os.close(reply_fd)
        self.children[pid] = _Spawned(workdir, cgroup)
        return {"pid": pid, "oom_file": cgroup.oom_file if cgroup else None}

    def clean(self, child_pid: int) -> dict:
        """Kill the child, its session and every process it left behind, then verify via /proc."""
        try:
            os.killpg(child_pid, signal.SIGKILL)
        except OSError:
            pass
        # Reap the child itself first, so the usual case (nothing else left) needs one scan;
        # never block on it: a dying process with a large heap can take a while to go.
        for _ in range(50):
            _reap_all(self.statuses)
            if child_pid in self.statuses:
                break
            time.sleep(0.001)
        spawned = self.children.pop(child_pid, None)
        cgroup = spawned.cgroup if spawned else None
        killed, remaining = self._sweep(child_pid, cgroup)
        # A child that had already ended keeps its own exit status (SIGKILL otherwise).
        ended = describe_end(self.statuses.get(child_pid))
        if spawned:
            shutil.rmtree(spawned.workdir, ignore_errors=True)
        cgroup_left = cgroup is not None and not cgroup.remove()
        self.statuses.clear()
        return {"ok": not remaining and not cgroup_left, "killed": killed, "remaining": remaining,
                "cgroup_left": cgroup_left, "ended": ended}

    def _suspects(self, child_pid: int, cgroup: CgroupLeaf | None) -> list[int]:
        uid = self.spec.get("uid")
        # Everything in the submission's cgroup, whoever its parent and whatever its session.
        found = set(cgroup_pids(cgroup.directories[0])) if cgroup else set()
        for pid, ppid, session, proc_uid in _proc_entries():
            if pid == self.pid:
                continue
            # Our own children (the subreaper inherits every orphan), the child's session, and
            # when a sandbox uid is in use, anything at all running as that uid.
            if ppid == self.pid or session == child_pid or (uid is not None and proc_uid == uid):
                found.add(pid)
        return sorted(found)

    def _sweep(self, child_pid: int, cgroup: CgroupLeaf | None) -> tuple[int, list[int]]:
        """Kill suspects until a scan finds none (or 10 s pass); (kills sent, pids remaining)."""
        killed = 0
        deadline = time.monotonic() + 10
        while True:
            suspects = self._suspects(child_pid, cgroup)
            if not suspects or time.monotonic() > deadline:
                return killed, suspects
            for pid in suspects:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except OSError:
                    pass
            # Zombies stay visible until reaped; orphans of killed parents come to us to reap.
            time.sleep(0.001)
            _reap_all(self.statuses)

    def shutdown(self) -> None:
        for pid in list(self.children):
            self.clean(pid)
        if self.cgroups is not None:
            self.cgroups.remove()


def zygote_main(control_fd: int, spec_json: str) -> None:
    spec = json.loads(spec_json)
    control = socket.socket(fileno=control_fd)
    # Dies with the parent: a grader that is killed leaves no zygote behind.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != spec["parent_pid"]:
        os._exit(0)
    subreaper = _prctl(PR_SET_CHILD_SUBREAPER, 1)
    # Once for the zygote, so every child it forks starts without a network at no extra cost.
    network_isolated = _unshare_network()
    # Only with a sandbox uid: without root the system refuses anyway.
    spec["hidden"] = [path for path in spec.get("hidden", []) if _hideable(path)]
    spec["private_filesystem"] = spec.get("uid") is not None and _probe_private_filesystem(
        spec["limits"]["temp_bytes"], spec["hidden"])
    limits = spec["limits"]
    cgroups = open_cgroups(limits["memory_bytes"], limits["processes"]) if limits["cgroup_limits"] else None
    preloaded, missing = [], []
    for name in spec["preload"]:
        try:
            importlib.import_module(name)
            preloaded.append(name)
        except Exception:  # noqa: BLE001 - an optional module (numpy) may be absent
            missing.append(name)
    # Modules that the learner may import but are not preloaded would need file access the
    # sandbox uid may not have; freezing keeps the preloaded heap shared copy-on-write.
    gc.collect()
    gc.freeze()
    control.sendall(json.dumps({
        "ready": True, "preloaded": preloaded, "missing": missing, "subreaper": subreaper,
        "network_isolated": network_isolated, "private_filesystem": spec["private_filesystem"],
        "hidden": spec["hidden"] if spec["private_filesystem"] else [],
        "cgroup": cgroups and {"version": cgroups.version, "directories": cgroups.directories},
    }).encode("ascii"))
    Zygote(control, spec, cgroups).serve()
