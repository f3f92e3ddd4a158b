"""One forked, memory-capped child process per item, a few at a time.

The mutation gate grades code that may allocate until the cap and then fail inside whatever
runs next: the grading loop, the pickling of a result, the printing of a traceback. In a shared
worker pool that kills the worker and breaks the whole pool (`BrokenProcessPool`), and the state a
mutant leaves behind (a fragmented heap, a handler it replaced) reaches the next one. A child of
its own per item gives each a clean copy of the parent and makes a death attributable: the item
whose child died without answering is the one that killed it.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")


@dataclass(frozen=True)
class ChildDied:
    """An item whose child ended without an answer (out of memory at a bad moment, a crash, or
    still running after `wall_seconds`)."""

    exitcode: int | None
    timed_out: bool = False

    def describe(self) -> str:
        if self.timed_out:
            return "the worker process did not finish in time"
        return f"the worker process died (exit code {self.exitcode})"


def mapped_bytes() -> int:
    """This process's virtual size (the first field of /proc/self/statm, in pages); 0 if unknown.
    Read as bytes: in a fresh child, a text read would first import a codec (about 1.4 ms)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def cap_memory(extra_bytes: int) -> None:
    # On top of what the forked child already maps: a parent with a large address space (a
    # pytest worker with a browser driver loaded) would otherwise leave the child no room.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped_bytes() + extra_bytes
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


@dataclass
class _Running:
    index: int
    pid: int
    answer_fd: int  # the read end of the pipe the child writes its answer to
    received: bytearray
    started: float
    at_end: bool = False  # end of file seen (and off the poller): only its exit is awaited


# An answer on the pipe: its length (8 bytes, little-endian), then the pickled answer. Without all
# of it (the child died while writing) there is no answer.
_LENGTH_BYTES = 8


def _child(function: Callable, item: object, memory_bytes: int, answer_fd: int) -> None:
    """In the forked child: the answer on the pipe, then `os._exit` (none of the parent's clean-up
    runs here, no buffered output of the parent is written twice)."""
    try:
        _close_stdin()
        cap_memory(memory_bytes)
        data = pickle.dumps(function(item), pickle.HIGHEST_PROTOCOL)
        view = memoryview(len(data).to_bytes(_LENGTH_BYTES, "little") + data)
        while view:
            view = view[os.write(answer_fd, view):]
    except BaseException:
        pass  # no whole answer: the parent records the item as ChildDied
    finally:
        os._exit(0)


def _close_stdin() -> None:
    # Nothing graded in a child may wait on the parent's stdin (a terminal, say): fd 0 reads
    # /dev/null from here on.
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
    except OSError:
        pass


def _start(function: Callable, item: object, memory_bytes: int) -> tuple[int, int]:
    """(pid, read end of its answer pipe) of a new child working on item. A bare fork: through
    multiprocessing, the bookkeeping of each child cost three to seven times the fork itself
    (5-12 ms against 1.5-1.8 ms of CPU), and the mutation gate forks once per mutant."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(function, item, memory_bytes, write_fd)
    os.close(write_fd)
    return pid, read_fd


def _reap(pid: int, kill: bool = False) -> int:
    """The child's exit code as multiprocessing gives it (minus the signal that ended it)."""
    if kill:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _whole(received: bytearray) -> bool:
    return len(received) >= _LENGTH_BYTES and len(received) == _LENGTH_BYTES + int.from_bytes(
        received[:_LENGTH_BYTES], "little")


def _answer(received: bytearray) -> tuple[bool, object]:
    """(whole, answer) from what the child wrote."""
    if not _whole(received):
        return False, None
    try:
        return True, pickle.loads(received[_LENGTH_BYTES:])
    except Exception:
        return False, None


def _drain(entry: _Running) -> bool:
    """Reads what is waiting on the answer pipe (non-blocking); True at end of file."""
    while True:
        try:
            chunk = os.read(entry.answer_fd, 1 << 20)
        except BlockingIOError:
            return False
        if not chunk:
            return True
        entry.received += chunk


def map_forked(function: Callable[[Item], Answer], items: Iterable[Item], jobs: int,
               memory_bytes: int, wall_seconds: float) -> list[Answer | ChildDied]:
    """`function(item)` for every item, each in a fresh forked child capped at `memory_bytes`
    beyond what it maps at the fork, at most `jobs` children at once; in the order of `items`.

    A child is done when its whole answer is in or when it has ended: a process it started
    that still holds the pipe open (so no end of file comes) keeps nobody waiting."""
    waiting = list(enumerate(items))
    waiting.reverse()
    answers: list[Answer | ChildDied | None] = [None] * len(waiting)
    running: dict[int, _Running] = {}  # by the fd of its answer pipe
    poller = select.poll()

    def finish(entry: _Running, exitcode: int, timed_out: bool = False) -> None:
        whole, answer = _answer(entry.received)
        answers[entry.index] = answer if whole else ChildDied(exitcode, timed_out)  # type: ignore[assignment]
        if not entry.at_end:
            poller.unregister(entry.answer_fd)
        os.close(entry.answer_fd)
        del running[entry.answer_fd]

    try:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                index, item = waiting.pop()
                pid, answer_fd = _start(function, item, memory_bytes)
                os.set_blocking(answer_fd, False)
                running[answer_fd] = _Running(index, pid, answer_fd, bytearray(), time.monotonic())
                poller.register(answer_fd, select.POLLIN)
            # A child whose pipe closed without a whole answer is about to be reaped: look soon.
            awaiting_exit = any(entry.at_end for entry in running.values())
            for answer_fd, _event in poller.poll(20 if awaiting_exit else 1000):
                entry = running[answer_fd]
                at_end = _drain(entry)
                if _whole(entry.received):
                    # The child writes its answer last and then exits at once.
                    finish(entry, _reap(entry.pid))
                elif at_end:
                    # Died, or closed the pipe itself and works on: its exit (or the wall limit) ends it.
                    poller.unregister(answer_fd)
                    entry.at_end = True
            now = time.monotonic()
            for entry in list(running.values()):
                ended, status = os.waitpid(entry.pid, os.WNOHANG)
                if ended:
                    _drain(entry)
                    finish(entry, os.waitstatus_to_exitcode(status))
                elif now - entry.started > wall_seconds:
                    finish(entry, _reap(entry.pid, kill=True), timed_out=True)
    finally:
        for answer_fd, entry in running.items():
            _reap(entry.pid, kill=True)
            os.close(answer_fd)
    return answers  # type: ignore[return-value]  # every slot is filled once the loop ends
