"""One forked, memory-capped child process per item, a few at a time.

The mutation gate grades code that may allocate until the cap and then fail inside whatever
runs next: the grading loop, the pickling of a result, the printing of a traceback. In a shared
worker pool that kills the worker and breaks the whole pool (`BrokenProcessPool`), and the state a
mutant leaves behind (a fragmented heap, a handler it replaced) reaches the next one. A child of
its own per item gives each a clean copy of the parent and makes a death attributable: the item
whose child died without answering is the one that killed it.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import resource
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
    """This process's virtual size (the first field of /proc/self/statm, in pages); 0 if unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
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
    process: multiprocessing.process.BaseProcess
    answers: multiprocessing.connection.Connection
    started: float


def _child(function: Callable, item: object, memory_bytes: int,
           answers: multiprocessing.connection.Connection) -> None:
    try:
        cap_memory(memory_bytes)
        answers.send(function(item))
    except BaseException:
        pass  # no answer: the parent records the item as ChildDied
    finally:
        os._exit(0)


def map_forked(function: Callable[[Item], Answer], items: Iterable[Item], jobs: int,
               memory_bytes: int, wall_seconds: float) -> list[Answer | ChildDied]:
    """`function(item)` for every item, each in a fresh forked child capped at `memory_bytes`
    beyond what it maps at the fork, at most `jobs` children at once; in the order of `items`."""
    context = multiprocessing.get_context("fork")
    waiting = list(enumerate(items))
    waiting.reverse()
    answers: list[Answer | ChildDied | None] = [None] * len(waiting)
    running: list[_Running] = []
    try:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                index, item = waiting.pop()
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(function, item, memory_bytes, send), daemon=True)
                process.start()
                send.close()
                running.append(_Running(index, process, receive, time.monotonic()))
            ready = multiprocessing.connection.wait(
                [entry.answers for entry in running] + [entry.process.sentinel for entry in running], timeout=1.0)
            now = time.monotonic()
            for entry in list(running):
                answered = entry.answers in ready
                if answered:
                    try:
                        answers[entry.index] = entry.answers.recv()
                    except (EOFError, OSError):
                        answered = False
                if not answered and entry.process.sentinel in ready:
                    entry.process.join()
                    answers[entry.index] = ChildDied(entry.process.exitcode)
                elif not answered and now - entry.started > wall_seconds:
                    entry.process.kill()
                    entry.process.join()
                    answers[entry.index] = ChildDied(entry.process.exitcode, timed_out=True)
                elif not answered:
                    continue
                entry.process.join()
                entry.answers.close()
                running.remove(entry)
    finally:
        for entry in running:
            entry.process.kill()
            entry.process.join()
            entry.answers.close()
    return answers  # type: ignore[return-value]  # every slot is filled once the loop ends
