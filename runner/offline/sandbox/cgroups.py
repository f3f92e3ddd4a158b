"""A cgroup per submission: RLIMIT_AS caps each process, a cgroup caps everything a submission
starts together (memory without swap, and the number of processes and threads).

Used by the zygote (runner/offline/sandbox/zygote.py: make the cgroups, put each child in its own, remove them)
and the grader (runner/offline/sandbox/host.py: count out-of-memory kills, clean up after a killed zygote).
cgroup v2 (one unified hierarchy) and v1 (separate memory and pids hierarchies) alike; where
neither can be used, `open_cgroups` says so and grading goes on without.
"""

from __future__ import annotations

import os
import re
import signal
import time
from dataclasses import dataclass


def read_small_file(path: str) -> bytes:
    """A small kernel file (/proc, cgroupfs) read in one go, without Python's file objects."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 65536)
    finally:
        os.close(fd)


CGROUP_CONTROLLERS = ("memory", "pids")
# A zygote's cgroups live in one directory named after it, so a killed grader's leftovers are
# recognisable as ours and stale once that pid is gone.
CGROUP_PREFIX = "werkplaats-zygote-"
CGROUP_REMOVE_SECONDS = 10.0


@dataclass(frozen=True)
class CgroupLeaf:
    """One submission's cgroup: a directory per hierarchy (v2: one; v1: memory and pids)."""

    directories: tuple[str, ...]
    oom_file: str  # holds the line "oom_kill N": processes the kernel killed for its memory limit

    def remove(self) -> bool:
        return all([remove_cgroup(directory) for directory in self.directories])


def _read_whole(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def _write_text(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)


def _limit_writes(version: int, memory_bytes: int, processes: int) -> list[tuple[str, str, int, bool]]:
    """(controller, file, value, required) that cap one submission's cgroup."""
    if version == 2:
        return [("memory", "memory.max", memory_bytes, True),
                ("memory", "memory.swap.max", 0, False),  # only with swap accounting
                ("pids", "pids.max", processes, True)]
    # memsw (memory + swap) exists only with swap accounting and may never be below the plain
    # limit, so it comes second; swappiness 0 keeps the cgroup off swap where memsw is missing.
    return [("memory", "memory.limit_in_bytes", memory_bytes, True),
            ("memory", "memory.memsw.limit_in_bytes", memory_bytes, False),
            ("memory", "memory.swappiness", 0, False),
            ("pids", "pids.max", processes, True)]


class OomCounter:
    """How many processes of a cgroup the kernel killed for its memory limit (v1 and v2 alike).
    The grader asks after every call: one pread on a file kept open, not an open per call."""

    def __init__(self, oom_file: str) -> None:
        self.fd = os.open(oom_file, os.O_RDONLY)

    def kills(self) -> int:
        for line in os.pread(self.fd, 4096, 0).splitlines():
            name, _, count = line.partition(b" ")
            if name == b"oom_kill":
                return int(count)
        return 0

    def close(self) -> None:
        os.close(self.fd)


def cgroup_pids(directory: str) -> list[int]:
    try:
        return [int(pid) for pid in read_small_file(os.path.join(directory, "cgroup.procs")).split()]
    except FileNotFoundError:
        return []


def remove_cgroup(directory: str) -> bool:
    """Kill whatever still runs in a leaf cgroup and remove it; False if it would not go."""
    deadline = time.monotonic() + CGROUP_REMOVE_SECONDS
    while True:
        try:
            os.rmdir(directory)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
        for pid in cgroup_pids(directory):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)


def remove_cgroup_tree(directory: str) -> bool:
    """Remove a zygote's cgroup directory with every submission cgroup (and process) in it."""
    try:
        leaves = [entry.path for entry in os.scandir(directory) if entry.is_dir(follow_symlinks=False)]
    except FileNotFoundError:
        return True
    removed = [remove_cgroup(leaf) for leaf in leaves]
    return all(removed) and remove_cgroup(directory)


class SubmissionCgroups:
    """Under each home (a cgroup where this process may make children with the memory and pids
    controllers) one directory CGROUP_PREFIX<zygote pid>, and in it one leaf per submission."""

    def __init__(self, version: int, homes: dict[str, str], owner_pid: int) -> None:
        self.version = version
        self.homes = homes
        self.parents = {controller: os.path.join(home, f"{CGROUP_PREFIX}{owner_pid}")
                        for controller, home in homes.items()}
        self.created = 0

    @property
    def directories(self) -> list[str]:
        return sorted(set(self.parents.values()))

    def remove_stale(self) -> None:
        """Leftovers of zygotes that no longer run (a grader that was killed)."""
        for home in sorted(set(self.homes.values())):
            for entry in os.scandir(home):
                owner = entry.name.removeprefix(CGROUP_PREFIX)
                if entry.name != owner and owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
                    remove_cgroup_tree(entry.path)

    def create(self) -> None:
        for directory in self.directories:
            remove_cgroup_tree(directory)  # an earlier zygote's of our pid: stale, we are it now
            os.mkdir(directory, 0o755)
            if self.version == 2:
                # v2 allows processes only in leaves: this directory holds none, so it can hand
                # both controllers down to the submissions' cgroups.
                _write_text(os.path.join(directory, "cgroup.subtree_control"), "+memory +pids")

    def new_leaf(self, memory_bytes: int, processes: int) -> CgroupLeaf:
        self.created += 1
        paths = {controller: os.path.join(parent, f"inzending-{self.created}")
                 for controller, parent in self.parents.items()}
        leaf = CgroupLeaf(directories=tuple(sorted(set(paths.values()))),
                          oom_file=os.path.join(paths["memory"],
                                                "memory.events" if self.version == 2 else "memory.oom_control"))
        for directory in leaf.directories:
            os.mkdir(directory, 0o755)
        try:
            for controller, name, value, required in _limit_writes(self.version, memory_bytes, processes):
                path = os.path.join(paths[controller], name)
                if required or os.path.exists(path):
                    _write_text(path, str(value))
        except OSError:
            leaf.remove()
            raise
        return leaf

    def remove(self) -> None:
        for directory in self.directories:
            remove_cgroup_tree(directory)


def join_cgroup(leaf: CgroupLeaf) -> None:
    """Move the calling process into the leaf, in every hierarchy; what it starts stays there."""
    for directory in leaf.directories:
        _write_text(os.path.join(directory, "cgroup.procs"), "0")


def _unescape_mount_path(text: str) -> str:
    """/proc/self/mountinfo writes a space in a path as \\040 (octal)."""
    return re.sub(r"\\([0-7]{3})", lambda match: chr(int(match.group(1), 8)), text)


def _cgroup_mounts() -> list[tuple[str, str, str, set[str]]]:
    """(root within the hierarchy, mount point, fstype, super options) of every cgroup mount."""
    mounts = []
    for line in _read_whole("/proc/self/mountinfo").splitlines():
        head, _, rest = line.partition(" - ")
        fields, tail = head.split(), rest.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            mounts.append((_unescape_mount_path(fields[3]), _unescape_mount_path(fields[4]),
                           tail[0], set(tail[2].split(","))))
    return mounts


def _own_cgroup_paths() -> dict[str, str]:
    """This process's cgroup per hierarchy: "" for v2, else each v1 controller's name."""
    paths = {}
    for line in _read_whole("/proc/self/cgroup").splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _directory_of(path: str, mount_root: str, mount_point: str) -> str | None:
    """Where a cgroup of the hierarchy is visible through a mount (None: outside that mount)."""
    if mount_root == "/":
        return os.path.normpath(mount_point + path)
    if path == mount_root or path.startswith(mount_root + "/"):
        return os.path.normpath(mount_point + path[len(mount_root):])
    return None


def _controllers_enabled(directory: str) -> bool:
    try:
        enabled = _read_whole(os.path.join(directory, "cgroup.subtree_control")).split()
    except OSError:
        return False
    return all(controller in enabled for controller in CGROUP_CONTROLLERS)


def _v2_home(own: str, mount_point: str) -> str | None:
    """Where to make our cgroups on v2. Our own cgroup holds us, so it can hand controllers down
    only when it is the root; otherwise its parent, if that already does (a sibling of ours)."""
    candidates = [own] if own == mount_point else [own, os.path.dirname(own)]
    for candidate in candidates:
        if _controllers_enabled(candidate):
            return candidate
    if own == mount_point:
        try:
            _write_text(os.path.join(own, "cgroup.subtree_control"), "+memory +pids")
            return own
        except OSError:
            return None
    return None


def find_cgroup_homes() -> tuple[int, dict[str, str]] | None:
    """(cgroup version, {controller: home}) where this process may make cgroups with the memory
    and pids controllers, or None. v2 (unified) first, else v1's separate hierarchies."""
    own = _own_cgroup_paths()
    mounts = _cgroup_mounts()
    for mount_root, mount_point, fstype, _ in mounts:
        directory = _directory_of(own[""], mount_root, mount_point) if fstype == "cgroup2" and "" in own else None
        home = directory and _v2_home(directory, mount_point)
        if home:
            return 2, {controller: home for controller in CGROUP_CONTROLLERS}
    homes = {}
    for controller in CGROUP_CONTROLLERS:
        for mount_root, mount_point, fstype, options in mounts:
            if fstype == "cgroup" and controller in options and controller in own:
                directory = _directory_of(own[controller], mount_root, mount_point)
                if directory and os.path.isdir(directory):
                    homes[controller] = directory
                    break
    return (1, homes) if len(homes) == len(CGROUP_CONTROLLERS) else None


def open_cgroups(memory_bytes: int, processes: int) -> SubmissionCgroups | None:
    """This zygote's cgroups, tried once with a throw-away child that joins a leaf; None where
    the system does not allow it (no cgroupfs, read-only, not root, no delegation)."""
    try:
        found = find_cgroup_homes()
    except (OSError, ValueError):
        return None
    if found is None:
        return None
    cgroups = SubmissionCgroups(*found, owner_pid=os.getpid())
    try:
        cgroups.remove_stale()
        cgroups.create()
        leaf = cgroups.new_leaf(memory_bytes, processes)
    except OSError:
        cgroups.remove()
        return None
    pid = os.fork()
    if pid == 0:
        try:
            join_cgroup(leaf)
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    joined = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    if not (leaf.remove() and joined):
        cgroups.remove()
        return None
    return cgroups
