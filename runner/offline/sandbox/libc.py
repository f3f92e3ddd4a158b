"""libc through ctypes, for the sandbox's set-up: prctl options and calls that raise OSError.

Imported by the zygote and its children (standard library only)."""

from __future__ import annotations

import ctypes
import os

# prctl options (linux/prctl.h)
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
CLONE_NEWNET = 0x40000000  # linux/sched.h
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000


def prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        result: int = libc.prctl(option, value, 0, 0, 0)
        return result == 0
    except (OSError, AttributeError):
        return False


class Libc:
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
