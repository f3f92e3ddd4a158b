"""The learner root: the allow-list file system every child of the zygote pivots into.

As root, the zygote builds it once in its own mount namespace (`build_learner_root`): a read-only
tmpfs holding read-only binds of the system's programs and libraries, the standard library and the
code of every preloaded module, a few /dev nodes, a /proc that shows a process only to its own uid,
and empty scratch folders. Each child then enters it with fresh tmpfs scratch folders and a small
IPC namespace of its own, and drops the host's tree (`enter_learner_root`). Nothing else of the
host is in sight: not the checkout, the class folders, the results, /etc, /home or /root.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from runner.offline.sandbox.libc import CLONE_NEWIPC, CLONE_NEWNS, Libc

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
DEVICE_NODES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _readonly_tree(libc: Libc, path: str) -> None:
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
    libc = Libc()
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
    Libc().lib.umount2(os.path.dirname(root).encode(), MNT_DETACH)


def _fill_learner_root(libc: Libc, root: str, wanted: Sequence[str], emptied: Sequence[str],
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
    # already (msgmax), and POSIX queues are charged to RLIMIT_MSGQUEUE (set in child.become_child).
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
    libc = Libc()
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


def probe_learner_root(root: str, temp_bytes: int) -> bool:
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
