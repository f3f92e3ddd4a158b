"""The learner's side of the offline runner: a zygote that forks one fresh child per submission.

The parent (`runner.offline.sandbox.host.ChildProcessHost`) starts this module once as an isolated interpreter
(`python -I -S`, its own session, a minimal environment). That process, the zygote, imports the
runner core and the modules learners may use, then never runs learner code itself: for every
submission it forks a child that

- starts its own session and process group (so the whole group can be killed at once),
- keeps only the two protocol pipes (fd 3: requests in, fd 4: replies out); fds 0, 1 and 2 are
  /dev/null, so a learner `print` or a raw `os.write(1, ...)` never reaches the parent,
- joins a cgroup of its own where the system allows it (memory and processes of everything the
  submission starts, counted together),
- gets its resource limits (address space, file size, no core files, a process count, fds, CPU),
- as root: enters the learner root (an allow-list file system built once by the zygote, see
  `build_learner_root`) with fresh scratch tmpfs, and drops to a sandbox uid/gid with no
  supplementary groups, so it cannot signal or read what the grader can; otherwise works in an
  empty temporary directory,
- runs under a seccomp filter that refuses the kernel keyring calls and creating a user
  namespace (`install_keyring_filter`),
- refuses learner imports outside the lesson's modules with a Dutch message (runner.offline.sandbox.import_guard),
- then answers one JSON request per line with one JSON reply per line, through `runner.core.invoke`.

The zygote is a child subreaper: a grandchild that daemonizes (double fork, setsid) is re-parented
to the zygote instead of init, so `_sweep` finds and kills it after the submission.

Control messages between parent and zygote go over a Unix socket, one JSON object per message; a
"spawn" carries the child's two pipe ends as SCM_RIGHTS file descriptors.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import gc
import importlib
import io
import json
import marshal
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from runner.core import plain
from runner.offline.sandbox.cgroups import (
    CgroupLeaf,
    SubmissionCgroups,
    cgroup_pids,
    join_cgroup,
    open_cgroups,
    read_small_file,
)
from runner.offline.sandbox.known_values import DIGEST_MIN_BYTES, digest_of
from runner.offline.sandbox.pipes import PipeReader
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
# mount(2) flags and mount_setattr(2) (linux/mount.h). mount_setattr is 442 on x86_64 and arm64;
# elsewhere (or before Linux 5.12) each bind is remounted read-only on its own.
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND = 1, 2, 4, 8, 32, 4096
MS_REC, MS_PRIVATE = 1 << 14, 1 << 18
MNT_DETACH = 2
SYS_MOUNT_SETATTR = {"x86_64": 442, "aarch64": 442}.get(os.uname().machine)
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1
# The places a child may write: each a fresh tmpfs per child, so nothing is left for the next.
SCRATCH_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
# Where the zygote may build the learner root, covering that folder for itself alone.
STAGING_CANDIDATES = ("/tmp", "/mnt", "/media", "/srv", "/opt", "/var/tmp", "/run")
# The system's programs and libraries (a subprocess, a lazily loaded C extension need them) and
# the loader's cache; everything else of the host stays out of the learner root.
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache")
MSGQUEUE_BYTES = 1 << 20
DEVICE_NODES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


class _Libc:
    """libc through ctypes, with errors raised as OSError naming the step that failed."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(None, use_errno=True)
        self.lib.syscall.restype = ctypes.c_long

    def check(self, result: int, what: str) -> None:
        if result != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{what}: {os.strerror(error)}")

    def mount(self, source: bytes | None, target: str, fstype: bytes | None, flags: int,
              options: bytes | None, what: str) -> None:
        self.check(self.lib.mount(source, target.encode(), fstype, ctypes.c_ulong(flags), options), what)


def _readonly_tree(libc: _Libc, path: str) -> None:
    """Make the mount at path and every mount below it read-only (mount_setattr, Linux 5.12+);
    on older kernels or other machines, remount each bind read-only one by one."""
    if SYS_MOUNT_SETATTR is not None:
        attr = _MountAttr(attr_set=MOUNT_ATTR_RDONLY)
        result = libc.lib.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), path.encode(),
                                  ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)))
        if result == 0:
            return
    for mount_point in _mounts_below(path):
        libc.mount(None, mount_point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, None,
                   f"remount {mount_point} read-only")


def _mounts_below(path: str) -> list[str]:
    """Mount points at or below path (this process's view), outermost first."""
    inside = path.rstrip("/") + "/"
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            point = line.split()[4].encode().decode("unicode_escape")
            if point == path or point.startswith(inside):
                found.append(point)
    return found


@dataclass(frozen=True)
class LearnerRoot:
    """The allow-list file system every child of this zygote pivots into (see `build_learner_root`)."""

    path: str  # where it is mounted in the zygote's own mount namespace
    visible: tuple[str, ...]  # host paths bound into it, read-only
    hidden: tuple[str, ...]  # private folders inside a visible path, covered by an empty tmpfs
    unhidden: tuple[str, ...]  # private folders that could not be covered (they hold needed code)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def learner_visible_paths() -> tuple[list[str], list[str]]:
    """What learner code may see, read-only: the system's programs and libraries, the standard
    library, and the code of every module the zygote preloaded (each top-level package's folder,
    or the module's own file). Nothing else of the host: not the checkout, the class folders, the
    results, /etc, /home, /root, /run, /sys. Called in the zygote after the preload.

    Returns (the wanted paths; folders inside them to show empty but for the wanted paths inside
    those: the installed packages' folders)."""
    import sysconfig

    paths = sysconfig.get_paths()
    wanted = [path for path in SYSTEM_PATHS if os.path.lexists(path)]
    wanted += [os.path.realpath(paths[name]) for name in ("stdlib", "platstdlib")]
    for name, module in list(sys.modules.items()):
        location = getattr(module, "__file__", None)
        if not isinstance(location, str) or not os.path.isabs(location):
            continue
        location = os.path.realpath(location)
        top = sys.modules.get(name.partition(".")[0])
        top_file = getattr(top, "__file__", None)
        if isinstance(top_file, str) and os.path.basename(top_file) == "__init__.py":
            location = os.path.dirname(os.path.realpath(top_file))
            libs = location + ".libs"  # a wheel's bundled shared libraries (numpy.libs)
            if os.path.isdir(libs):
                wanted.append(libs)
        wanted.append(location)
    # Installed packages sit inside the standard library's folder: of those, only the preloaded.
    emptied = {os.path.realpath(paths[name]) for name in ("purelib", "platlib")}
    return sorted(set(wanted)), sorted(emptied)


def plan_learner_root(wanted: Sequence[str], emptied: Sequence[str],
                      private: Sequence[str]) -> tuple[list[tuple[str, bool]], list[str], list[str]]:
    """How to mount the learner root: ([(path, True: bind it | False: cover it with an empty
    tmpfs)] in mount order, private folders covered, private folders that cannot be covered).

    A private folder inside a bound one is covered, and what is wanted inside it is bound again
    on top (a class folder that holds the teacher's virtual environment, a checkout under /usr);
    one that is itself wanted (the runner package, the standard library) cannot be."""
    wanted = sorted(set(wanted))
    unhidden = sorted(folder for folder in private if folder in wanted)

    def seen_through(path: str, outer: str) -> bool:
        return outer != path and _inside(path, outer) and not os.path.islink(outer)

    candidates = [folder for folder in private if folder not in unhidden
                  and any(seen_through(folder, path) for path in wanted)]
    covers = sorted(set(candidates) | {folder for folder in emptied
                                       if any(seen_through(folder, path) for path in wanted)})
    # One inside another cover, with nothing wanted bound again in between, is out of sight already.
    covers = [cover for cover in covers if not any(
        seen_through(cover, outer) and not any(seen_through(path, outer) and _inside(cover, path) for path in wanted)
        for outer in covers)]
    candidates = [folder for folder in candidates if folder in covers]
    steps: list[tuple[str, bool]] = []
    for path in wanted:
        outers = [outer for outer in wanted if seen_through(path, outer)]
        if outers and not any(_inside(path, cover) and any(seen_through(cover, outer) for outer in outers)
                              for cover in covers):
            continue  # visible through a folder already bound
        steps.append((path, True))
    steps += [(cover, False) for cover in covers]
    # Shallowest first; at one depth a cover before a bind (a bind is never deeper than its cover).
    steps.sort(key=lambda step: (step[0].count("/"), step[1], step[0]))
    return steps, sorted(set(candidates)), unhidden


def build_learner_root(wanted: Sequence[str], emptied: Sequence[str], private: Sequence[str]) -> LearnerRoot:
    """Make, in the zygote's own mount namespace, the root every child pivots into: a read-only
    tmpfs holding only bind mounts of `wanted` (read-only), a few /dev nodes, a /proc that shows
    a process only to its own uid (hidepid=invisible), and empty /tmp, /var/tmp and /dev/shm that
    each child covers with a fresh tmpfs; `emptied` and the private folders that lie inside a
    bound one are covered by an empty tmpfs (see `plan_learner_root`).
    Needs CAP_SYS_ADMIN; raises OSError when refused."""
    libc = _Libc()
    libc.check(libc.lib.unshare(CLONE_NEWNS), "unshare")
    libc.mount(None, "/", None, MS_REC | MS_PRIVATE, None, "mount --make-rprivate /")
    # A tmpfs over one of the zygote's own folders (only the zygote and its children see it) holds
    # the new root, so a killed zygote leaves no mount point behind on the host. Not over a folder
    # that holds what is bound (a checkout or an interpreter under /tmp): that would hide it.
    staging = staging_folder(wanted)
    libc.mount(b"tmpfs", staging, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=0700", f"mount tmpfs on {staging}")
    try:
        return _fill_learner_root(libc, staging + "/root", wanted, emptied, private)
    except OSError:
        drop_learner_root(staging + "/root")
        raise


def staging_folder(paths: Sequence[str]) -> str:
    """The first of STAGING_CANDIDATES that is a real folder holding none of `paths`."""
    for candidate in STAGING_CANDIDATES:
        if (os.path.isdir(candidate) and not os.path.islink(candidate)
                and not any(_inside(path, candidate) for path in paths)):
            return candidate
    raise OSError(errno.ENOENT, f"no folder to build the learner root in: each of "
                                f"{', '.join(STAGING_CANDIDATES)} holds code learner code needs")


def drop_learner_root(root: str) -> None:
    """Give the zygote back the folder the learner root `root` was built in (when children cannot
    use the learner root after all, they work in a directory of the zygote's /tmp)."""
    _Libc().lib.umount2(os.path.dirname(root).encode(), MNT_DETACH)


def _fill_learner_root(libc: _Libc, root: str, wanted: Sequence[str], emptied: Sequence[str],
                       private: Sequence[str]) -> LearnerRoot:
    os.mkdir(root, 0o755)
    libc.mount(b"tmpfs", root, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=0755", "mount the learner root")
    steps, hidden, unhidden = plan_learner_root(wanted, emptied, private)
    for path, bind in steps:
        target = root + path
        if not bind:
            if os.path.isdir(target):
                libc.mount(b"tmpfs", target, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=64k,mode=0755", f"cover {path}")
            continue
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        if os.path.islink(path):  # /bin -> usr/bin on a merged /usr
            os.symlink(os.readlink(path), target)
            continue
        if os.path.isdir(path):
            os.makedirs(target, mode=0o755, exist_ok=True)
        elif not os.path.exists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o644))
        libc.mount(path.encode(), target, None, MS_BIND | MS_REC, None, f"bind {path}")
    for scratch in SCRATCH_DIRS:
        os.makedirs(root + scratch, mode=0o755, exist_ok=True)
    for node in DEVICE_NODES:
        target = root + node
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o644))
        libc.mount(node.encode(), target, None, MS_BIND, None, f"bind {node}")
    os.makedirs(root + "/proc", mode=0o555, exist_ok=True)
    try:
        libc.mount(b"proc", root + "/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   b"hidepid=invisible,subset=pid", "mount /proc")
    except OSError:
        # Before Linux 5.8 every /proc mount shares one set of options, so hidepid here would
        # change the host's /proc too: the learner root then has no /proc at all.
        pass
    _readonly_tree(libc, root)
    visible = tuple(path for path, bind in steps if bind)
    return LearnerRoot(path=root, visible=visible, hidden=tuple(hidden), unhidden=tuple(unhidden))


def ipc_limits(temp_bytes: int) -> dict[str, str]:
    """The System V and POSIX IPC limits of a child's fresh IPC namespace (/proc/sys paths): a new
    namespace starts with the kernel's defaults (shared memory up to the machine's RAM, 32000
    message queues of 16 KiB), none of it counted in RLIMIT_AS once detached. So: shared memory
    in all at most the --temp-size-mb of /dev/shm, a segment destroyed when its last process
    detaches (shm_rmid_forced), message queues a MiB together, 16 small semaphore sets."""
    # Only what the defaults leave open: one write each per child. A message is at most 8 KiB
    # already (msgmax), and POSIX queues are charged to RLIMIT_MSGQUEUE (set in _become_child).
    pages = max(1, temp_bytes // os.sysconf("SC_PAGE_SIZE"))
    return {
        "kernel/shm_rmid_forced": "1", "kernel/shmmax": str(temp_bytes), "kernel/shmall": str(pages),
        "kernel/msgmni": "16", "kernel/msgmnb": "65536",
        "kernel/sem": "64 1024 32 16",  # per set, in all, per semop, sets (default: 32000 sets of 32000)
    }


OPTIONAL_IPC_LIMITS: frozenset[str] = frozenset()  # a limit whose file a kernel may lack


def limit_ipc_namespace(limits: dict[str, str]) -> None:
    """Write the limits of this process's (fresh) IPC namespace; /proc/sys/kernel/shm* and friends
    are per IPC namespace. Raises OSError (the child then ends before any learner code runs)."""
    for name, value in limits.items():
        try:
            descriptor = os.open(f"/proc/sys/{name}", os.O_WRONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            if name in OPTIONAL_IPC_LIMITS:
                continue
            raise
        try:
            os.write(descriptor, value.encode())
        finally:
            os.close(descriptor)


def enter_learner_root(root: str, temp_bytes: int) -> None:
    """In a fresh child: a mount namespace of its own (and an IPC namespace with small limits, so
    shared memory and message queues stay small and die with it), fresh tmpfs scratch dirs of
    temp_bytes, then pivot_root into the learner root and drop the host's tree, so no path leads
    back to it. Raises OSError."""
    libc = _Libc()
    libc.check(libc.lib.unshare(CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    limit_ipc_namespace(ipc_limits(temp_bytes))  # still the host's /proc: before the pivot
    options = f"size={temp_bytes},mode=1777".encode()
    for scratch in SCRATCH_DIRS:
        libc.mount(b"tmpfs", root + scratch, b"tmpfs", MS_NOSUID | MS_NODEV, options, f"mount tmpfs on {scratch}")
    os.chdir(root)
    if SYS_PIVOT_ROOT is None:
        raise OSError(errno.ENOSYS, "pivot_root: unknown system call number on this machine")
    libc.check(libc.lib.syscall(ctypes.c_long(SYS_PIVOT_ROOT), b".", b"."), "pivot_root")
    libc.check(libc.lib.umount2(b".", MNT_DETACH), "detach the host's file system")
    os.chdir("/")


def _probe_learner_root(root: str, temp_bytes: int) -> bool:
    """Whether children can enter the learner root here: tried once in a throw-away child."""
    pid = os.fork()
    if pid == 0:
        try:
            enter_learner_root(root, temp_bytes)
            os._exit(0 if os.listdir("/tmp") == [] else 1)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


# --------------------------------------------------------------------------------------------
# The child's seccomp filter. Per-user kernel state, keyrings: a sandbox uid is reused from
# submission to submission (and batch to batch), and its user keyring (and persistent keyring)
# outlive every process of it, so the three keyring system calls are refused (EPERM). User
# namespaces: inside one of its own, learner code would hold every capability there and reach
# raw sockets, nf_tables and the other kernel code that public root exploits go through, so
# creating one (unshare or clone with CLONE_NEWUSER) is refused too (EPERM), and clone3, whose
# flags sit in memory a filter cannot read, answers ENOSYS, on which the C library falls back
# to clone (as container runtimes' default profiles do).

SECCOMP_SET_MODE_FILTER_PRCTL = (22, 2)  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
# (audit arch, syscall numbers of add_key, request_key, keyctl), linux/audit.h and unistd.h
KEYRING_SYSCALLS = {
    "x86_64": (0xC000003E, (248, 249, 250)),
    "aarch64": (0xC00000B7, (217, 218, 219)),
}
# (unshare, clone, clone3): flags are the first argument of unshare and clone on both.
NAMESPACE_SYSCALLS = {
    "x86_64": (272, 56, 435),
    "aarch64": (97, 220, 435),
}
CLONE_NEWUSER = 0x10000000
X32_SYSCALL_BIT = 0x40000000
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
SECCOMP_DATA_ARG0 = 16  # offsetof(struct seccomp_data, args[0]); its low word on little-endian


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def keyring_filter_program(machine: str) -> list[tuple[int, int, int, int]] | None:
    """The classic-BPF seccomp program (code, jt, jf, k) of every child: EPERM to add_key,
    request_key and keyctl, to unshare and clone with CLONE_NEWUSER, and to every call of another
    ABI (x32, 32-bit compat); ENOSYS to clone3; the rest allowed. None on a machine whose numbers
    are not known here."""
    if machine not in KEYRING_SYSCALLS:
        return None
    arch, numbers = KEYRING_SYSCALLS[machine]
    unshare, clone, clone3 = NAMESPACE_SYSCALLS[machine]
    load_word, jump_eq, jump_ge, jump_set, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    # Instructions with jump targets as labels ("next": the following instruction), resolved below.
    program: list[tuple[int, object, object, int]] = [
        (load_word, None, None, 4),
        (jump_eq, "next", "deny", arch),  # another ABI: deny
        (load_word, None, None, 0),
    ]
    if machine == "x86_64":
        program.append((jump_ge, "deny", "next", X32_SYSCALL_BIT))
    program += [(jump_eq, "deny", "next", number) for number in numbers]
    program += [
        (jump_eq, "nosys", "next", clone3),
        (jump_eq, "flags", "next", unshare),
        (jump_eq, "flags", "next", clone),
        (ret, None, None, SECCOMP_RET_ALLOW),
        ("flags", load_word, None, SECCOMP_DATA_ARG0),
        (jump_set, "deny", "next", CLONE_NEWUSER),
        (ret, None, None, SECCOMP_RET_ALLOW),
        ("nosys", ret, None, SECCOMP_RET_ERRNO | errno.ENOSYS),
        ("deny", ret, None, SECCOMP_RET_ERRNO | errno.EPERM),
    ]
    labels: dict[str, int] = {}
    plain_program = []
    for index, instruction in enumerate(program):
        if isinstance(instruction[0], str):  # (label, code, jt, k): a labelled instruction
            labels[instruction[0]] = index
            instruction = (instruction[1], instruction[2], None, instruction[3])
        plain_program.append(instruction)

    def offset(target: object, index: int) -> int:
        if target in (None, "next"):
            return 0
        return labels[str(target)] - index - 1

    return [(code, offset(jt, index), offset(jf, index), k)
            for index, (code, jt, jf, k) in enumerate(plain_program)]


KEYCTL_CLEAR, KEYCTL_GET_PERSISTENT = 7, 22
KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -2, -4, -5


def clear_keyrings_of(uid: int, gid: int) -> bool:
    """Empty the user and user-session keyrings of uid (what an earlier grader, or a grader
    from before this filter, may have let a child leave there), in a throw-away child that
    becomes uid; True when both were cleared (or the machine's numbers are unknown: nothing to do)."""
    numbers = KEYRING_SYSCALLS.get(os.uname().machine)
    if numbers is None:
        return True
    keyctl = numbers[1][2]
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            libc = _Libc()
            keyrings = [KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING]
            # The persistent keyring outlives every process for days (where the kernel has one).
            persistent = libc.lib.syscall(ctypes.c_long(keyctl), ctypes.c_long(KEYCTL_GET_PERSISTENT),
                                          ctypes.c_long(-1), ctypes.c_long(KEY_SPEC_PROCESS_KEYRING))
            if persistent > 0:
                keyrings.append(persistent)
            for keyring in keyrings:
                libc.check(libc.lib.syscall(ctypes.c_long(keyctl), ctypes.c_long(KEYCTL_CLEAR),
                                            ctypes.c_long(keyring)), "keyctl clear")
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def install_keyring_filter() -> bool:
    """Refuse the keyring system calls from here on (this process and all it starts); needs
    no_new_privs or CAP_SYS_ADMIN. False where the machine is not supported."""
    program = keyring_filter_program(os.uname().machine)
    if program is None:
        return False
    filters = (_SockFilter * len(program))(*[_SockFilter(*instruction) for instruction in program])
    fprog = _SockFprog(len(program), filters)
    libc = _Libc()
    option, mode = SECCOMP_SET_MODE_FILTER_PRCTL
    libc.check(libc.lib.prctl(option, mode, ctypes.byref(fprog), 0, 0), "seccomp filter")
    return True


def _probe_keyring_filter() -> bool:
    """Whether the keyring filter can be installed here: tried once in a throw-away child."""
    pid = os.fork()
    if pid == 0:
        try:
            _prctl(PR_SET_NO_NEW_PRIVS, 1)
            os._exit(0 if install_keyring_filter() else 1)
        except BaseException:
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
        # From the trusted parent: no strict parse needed.
        return json.loads(line.decode(plain.WIRE_ENCODING, plain.WIRE_ERRORS))

    def write_reply(self, reply: dict) -> None:
        data = plain.wire_line(reply)  # lone surrogates and surrogate pairs kept apart
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
    sys.__stdout__ = sys.__stderr__ = stray_output  # type: ignore[misc]
    sys.stdin = sys.__stdin__ = io.StringIO("")  # type: ignore[misc]
    channel = _Channel(request_fd, reply_fd)
    namespace: dict = {}
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


def _name_large_value(body: dict, exact_key: str) -> bytes | None:
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


def _become_child(plan: ChildPlan, request_fd: int, reply_fd: int, workdir: str, cgroup: CgroupLeaf | None) -> None:
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
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    # Set after the uid change, which clears it: the child dies with the zygote.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
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
                _become_child(self.plan, request_fd, reply_fd, workdir, cgroup)
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
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != spec.parent_pid:
        os._exit(0)
    subreaper = _prctl(PR_SET_CHILD_SUBREAPER, 1)
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
            if not _probe_learner_root(learner_root.path, limits.temp_bytes):
                drop_learner_root(learner_root.path)
                learner_root, root_problem = None, "a child could not enter the learner root"
    else:
        root_problem = "needs root"
    plan = ChildPlan(spec=spec, learner_root=learner_root.path if learner_root else None,
                     keyring_filter=_probe_keyring_filter())
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
        learner_root=learner_root and LearnerRootView(visible=learner_root.visible, hidden=learner_root.hidden),
        unhidden=learner_root.unhidden if learner_root else (),
        learner_root_problem=root_problem,
        keyring_filter=plan.keyring_filter,
        keyrings_cleared=keyrings_cleared,
        cgroup=cgroups and CgroupInfo(version=cgroups.version, directories=tuple(cgroups.directories)),
    )
    control.sendall(json.dumps(report.to_wire()).encode("ascii"))
    Zygote(control, plan, cgroups).serve()
