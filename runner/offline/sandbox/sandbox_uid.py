"""Sandbox uids: as root, each host runs its learners' code as a uid no account and no other host uses."""

from __future__ import annotations

import fcntl
import os
import pwd
import tempfile
from dataclasses import dataclass
from pathlib import Path

from runner.offline.sandbox.protocol import SandboxError

SANDBOX_UID_RANGE = range(61000, 62000)


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
