"""The child's seccomp filter, and clearing the keyrings a sandbox uid may have kept."""

from __future__ import annotations

import ctypes
import errno
import os

from runner.offline.sandbox.libc import PR_SET_NO_NEW_PRIVS, Libc, prctl

# Per-user kernel state, keyrings: a sandbox uid is reused from
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
    # (label, code, jt, jf, k): jump targets are labels ("next": the following instruction, None:
    # no jump), resolved below; a label names the instruction it stands on.
    program: list[tuple[str | None, int, str | None, str | None, int]] = [
        (None, load_word, None, None, 4),
        (None, jump_eq, "next", "deny", arch),  # another ABI: deny
        (None, load_word, None, None, 0),
    ]
    if machine == "x86_64":
        program.append((None, jump_ge, "deny", "next", X32_SYSCALL_BIT))
    program += [(None, jump_eq, "deny", "next", number) for number in numbers]
    program += [
        (None, jump_eq, "nosys", "next", clone3),
        (None, jump_eq, "flags", "next", unshare),
        (None, jump_eq, "flags", "next", clone),
        (None, ret, None, None, SECCOMP_RET_ALLOW),
        ("flags", load_word, None, None, SECCOMP_DATA_ARG0),
        (None, jump_set, "deny", "next", CLONE_NEWUSER),
        (None, ret, None, None, SECCOMP_RET_ALLOW),
        ("nosys", ret, None, None, SECCOMP_RET_ERRNO | errno.ENOSYS),
        ("deny", ret, None, None, SECCOMP_RET_ERRNO | errno.EPERM),
    ]
    labels = {label: index for index, (label, *_) in enumerate(program) if label is not None}

    def offset(target: str | None, index: int) -> int:
        if target in (None, "next"):
            return 0
        return labels[str(target)] - index - 1

    return [(code, offset(jt, index), offset(jf, index), k)
            for index, (_, code, jt, jf, k) in enumerate(program)]


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
            libc = Libc()
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
    libc = Libc()
    option, mode = SECCOMP_SET_MODE_FILTER_PRCTL
    libc.check(libc.lib.prctl(option, mode, ctypes.byref(fprog), 0, 0), "seccomp filter")
    return True


def probe_keyring_filter() -> bool:
    """Whether the keyring filter can be installed here: tried once in a throw-away child."""
    pid = os.fork()
    if pid == 0:
        try:
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            os._exit(0 if install_keyring_filter() else 1)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
