"""Reading a pipe into one reused buffer, for both ends of the grading channel.

`os.read(fd, 1 MiB)` makes a fresh 1 MiB bytes object on every call, even for a 100-byte reply:
the allocator maps, shrinks and unmaps it each time, which on a virtual machine costs more than
the round trip itself. `os.readv` into a buffer made once does not.
"""

from __future__ import annotations

import os

READ_BYTES = 1 << 20  # both ends widen their pipes to 1 MiB, so one read can take all of it


class PipeReader:
    """Bytes read from fd so far and not yet taken, with line splitting on top."""

    def __init__(self, fd: int, read_bytes: int = READ_BYTES) -> None:
        self.fd = fd
        self.pending = bytearray()
        self._scratch = memoryview(bytearray(read_bytes))

    def read_some(self) -> int:
        """One read (blocking unless the fd is ready); the number of bytes, 0 at end of file.
        OSError propagates (the caller knows what a broken pipe means on its side)."""
        count = os.readv(self.fd, [self._scratch])
        self.pending += self._scratch[:count]
        return count
