"""The zygote: one clean process that forks a fresh child for every submission.

The grader (`host.ChildProcessHost`) starts it once as an isolated interpreter (`python -I -S`, its
own session, a minimal environment) with a `ZygoteSpec`. It imports the runner core and the
modules learners may use, moves into a network namespace with no interface up, builds the learner
root (as root), probes the seccomp filter, clears the sandbox uid's keyrings, and sends its
`ZygoteReport`. It never runs learner code itself: for every submission it forks a child
(`child.become_child`, then `child.serve_requests`), and after it kills the child's session and
every process it left behind, and checks /proc that none remain.

The zygote is a child subreaper: a grandchild that daemonizes (double fork, setsid) is re-parented
to the zygote instead of init, so `_sweep` finds and kills it after the submission.

Control messages between grader and zygote go over a Unix socket, one JSON object per message
(`protocol`); a "spawn" carries the child's two pipe ends as SCM_RIGHTS file descriptors.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import json
import os
import shutil
import signal
import socket
import tempfile
import time
from dataclasses import dataclass

from runner.offline.sandbox.cgroups import CgroupLeaf, SubmissionCgroups, cgroup_pids, open_cgroups, read_small_file
from runner.offline.sandbox.child import REPLY_FD, REQUEST_FD, ChildPlan, become_child, serve_requests
from runner.offline.sandbox.learner_root import (
    build_learner_root,
    drop_learner_root,
    learner_visible_paths,
    probe_learner_root,
)
from runner.offline.sandbox.libc import CLONE_NEWNET, PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, prctl
from runner.offline.sandbox.protocol import (
    EXIT_ACKNOWLEDGED,
    CgroupInfo,
    CleanupReport,
    ControlRequest,
    LearnerRootView,
    ProtocolError,
    SpawnReply,
    ZygoteReport,
    ZygoteSpec,
)
from runner.offline.sandbox.seccomp import clear_keyrings_of, probe_keyring_filter

CONTROL_BUFFER = 65536


def _unshare_network() -> bool:
    """Move into a network namespace of our own, which has no interface up (not even loopback):
    learner code can then reach no host, the grader's machine included. Needs CAP_SYS_ADMIN
    (root, outside a container that drops it); False when the system does not allow it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        result: int = libc.unshare(CLONE_NEWNET)
        return result == 0
    except (OSError, AttributeError):
        return False


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
    def __init__(self, control: socket.socket, plan: ChildPlan, cgroups: SubmissionCgroups | None) -> None:
        self.control = control
        self.plan = plan
        self.spec = plan.spec
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
            problem = ""
            try:
                request: ControlRequest | None = ControlRequest.from_wire(json.loads(data))
            except ProtocolError as error:
                request, problem = None, str(error)
            if request is not None and request.op == "spawn" and len(fds) == 2:
                reply = self.spawn(fds[0], fds[1]).to_wire()
            elif request is not None and request.op == "clean" and request.pid is not None:
                reply = self.clean(request.pid).to_wire()
            elif request is not None and request.op == "exit":
                self.shutdown()
                self.send(EXIT_ACKNOWLEDGED)
                return
            else:
                for fd in fds:
                    os.close(fd)
                if request is not None:
                    problem = f"unknown control message {request.op!r}"
                reply = SpawnReply(error=problem).to_wire()
            self.send(reply)

    def send(self, reply: dict[str, object]) -> None:
        self.control.sendall(json.dumps(reply).encode("ascii"))

    def spawn(self, request_fd: int, reply_fd: int) -> SpawnReply:
        limits = self.spec.limits
        try:
            cgroup = self.cgroups.new_leaf(limits.memory_bytes, limits.processes) if self.cgroups else None
        except OSError as error:
            # Never a child without the limits the start-up report promised.
            os.close(request_fd)
            os.close(reply_fd)
            return SpawnReply(error=f"no cgroup for the child: {error}")
        # With a learner root the child makes its workdir in its own fresh /tmp.
        workdir = "" if self.plan.learner_root else tempfile.mkdtemp(prefix="werkplaats-learner-")
        if workdir:
            if self.spec.uid is not None and self.spec.gid is not None:
                os.chown(workdir, self.spec.uid, self.spec.gid)
            os.chmod(workdir, 0o700)
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                self.control.close()
                become_child(self.plan, request_fd, reply_fd, workdir, cgroup)
                # Preloaded by the zygote (sandbox.RUNNER_PRELOAD): no file access needed now.
                from runner.offline.sandbox import import_guard
                import_guard.install(self.spec.learner_modules)
                serve_requests(REQUEST_FD, REPLY_FD, self.spec.limits.output_chars)
            except BaseException:
                status = 70
            os._exit(status)
        os.close(request_fd)
        os.close(reply_fd)
        self.children[pid] = _Spawned(workdir, cgroup)
        return SpawnReply(pid=pid, oom_file=cgroup.oom_file if cgroup else None)

    def clean(self, child_pid: int) -> CleanupReport:
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
        if spawned and spawned.workdir:
            shutil.rmtree(spawned.workdir, ignore_errors=True)
        cgroup_left = cgroup is not None and not cgroup.remove()
        self.statuses.clear()
        return CleanupReport(ok=not remaining and not cgroup_left, killed=killed, remaining=tuple(remaining),
                             cgroup_left=cgroup_left, ended=ended)

    def _suspects(self, child_pid: int, cgroup: CgroupLeaf | None) -> list[int]:
        uid = self.spec.uid
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
    spec = ZygoteSpec.from_wire(json.loads(spec_json))
    control = socket.socket(fileno=control_fd)
    # Dies with the parent: a grader that is killed leaves no zygote behind.
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != spec.parent_pid:
        os._exit(0)
    subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1)
    # Once for the zygote, so every child it forks starts without a network at no extra cost.
    network_isolated = _unshare_network()
    limits = spec.limits
    cgroups = open_cgroups(limits.memory_bytes, limits.processes) if limits.cgroup_limits else None
    preloaded, missing = [], []
    for name in spec.preload:
        try:
            importlib.import_module(name)
            preloaded.append(name)
        except Exception:
            missing.append(name)
    # Only with a sandbox uid (as root): without root the system refuses anyway. After the
    # preload, which decides what code the learner root shows.
    learner_root = None
    if spec.uid is not None:
        try:
            learner_root = build_learner_root(*learner_visible_paths(), spec.hidden)
        except OSError as error:
            root_problem: str | None = str(error)
        else:
            root_problem = None
            if not probe_learner_root(learner_root.path, limits.temp_bytes):
                drop_learner_root(learner_root.path)
                learner_root, root_problem = None, "a child could not enter the learner root"
    else:
        root_problem = "needs root"
    plan = ChildPlan(spec=spec, learner_root=learner_root.path if learner_root else None,
                     keyring_filter=probe_keyring_filter())
    # The filter keeps children from the keyrings; this empties what was left before it.
    keyrings_cleared = spec.uid is None or spec.gid is None or clear_keyrings_of(spec.uid, spec.gid)
    # Modules that the learner may import but are not preloaded would need file access the
    # sandbox uid may not have; freezing keeps the preloaded heap shared copy-on-write.
    gc.collect()
    gc.freeze()
    report = ZygoteReport(
        preloaded=tuple(preloaded), missing=tuple(missing), subreaper=subreaper,
        network_isolated=network_isolated,
        private_filesystem=learner_root is not None and not learner_root.unhidden,
        learner_root=LearnerRootView(visible=learner_root.visible, hidden=learner_root.hidden) if learner_root else None,
        unhidden=learner_root.unhidden if learner_root else (),
        learner_root_problem=root_problem,
        keyring_filter=plan.keyring_filter,
        keyrings_cleared=keyrings_cleared,
        cgroup=CgroupInfo(version=cgroups.version, directories=tuple(cgroups.directories)) if cgroups else None,
    )
    control.sendall(json.dumps(report.to_wire()).encode("ascii"))
    Zygote(control, plan, cgroups).serve()
