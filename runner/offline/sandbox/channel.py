"""The grader's end of the channel to a submission's child: one JSON object per line each way.

A request pipe and a reply pipe, non-blocking on the grader's side, so no exchange waits past its
deadline, whatever the child does with its ends. Nothing the child sends is trusted: a reply is
read with a size cap, its values counted before it is parsed, parsed strictly, and must answer
the request just sent (its id). Between exchanges the child must stay silent.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import time
from dataclasses import dataclass
from typing import Any

from runner.core import plain, wire
from runner.offline.sandbox.cgroups import OomCounter
from runner.offline.sandbox.pipes import PipeReader
from runner.offline.sandbox.protocol import MIB

# Pipe capacity asked for (Linux allows up to /proc/sys/fs/pipe-max-size, 1 MiB by default).
PIPE_BYTES = 1 << 20


class ExchangeTimeout(Exception):
    pass


class ChildGone(Exception):
    """The child died, closed the channel, or broke the protocol; the text says how.

    `exited`: the child ended on its own (end of file), so how it ended is the better message.
    """

    def __init__(self, message: str, exited: bool = False) -> None:
        super().__init__(message)
        self.exited = exited


@dataclass
class ChildChannel:
    pid: int
    request_fd: int
    reply_fd: int
    reader: PipeReader
    oom: OomCounter | None  # its cgroup's count of processes killed for the memory limit


def readable(fd: int) -> bool:
    """Data (or end of file) is waiting on fd right now."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def widen_pipe(fd: int) -> None:
    """Let one pipe hold PIPE_BYTES: a large request or reply then crosses in one write instead
    of a 64 KiB ping-pong between the two processes. Best effort (the kernel may refuse)."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (AttributeError, OSError):
        pass


MAX_REPLY_VALUES = 3 * plain.MAX_NODES + 10_000
# Both in linear time, whatever the child wrote: first every escape (so no \" is left), then
# every string literal, whose commas and brackets are text, not values.
_JSON_ESCAPE = re.compile(rb"\\.", re.S)
_JSON_STRING = re.compile(rb'"[^"]*"')


def _json_value_count(line: bytes) -> int:
    """At least the number of values the line would parse into. The quick count over-counts
    commas and brackets inside strings; only a line that fails it is counted again without them."""
    quick = line.count(b",") + line.count(b"[") + line.count(b"{")
    if quick <= MAX_REPLY_VALUES:
        return quick
    outside = _JSON_STRING.sub(b'""', _JSON_ESCAPE.sub(b"", line))
    return outside.count(b",") + outside.count(b"[") + outside.count(b"{")


def parse_reply(line: bytes, expected_id: str) -> dict[str, Any]:
    """The body of one reply line, or ChildGone when it is not exactly what the child must send."""
    # Parsing makes one object per JSON value, so count them first: 64 MiB of a forged
    # "[[],[],..." would otherwise cost the grader gigabytes. A true reply holds at most three
    # encoded values, each within plain.MAX_NODES.
    if _json_value_count(line) > MAX_REPLY_VALUES:
        raise ChildGone("het antwoord van het proces was te groot")
    try:
        reply = wire.wire_loads(line)  # strict: not UTF-8, not JSON or a key twice is refused
    except (ValueError, RecursionError):
        raise ChildGone("onleesbaar antwoord van het proces") from None
    if type(reply) is not dict or set(reply) != {"id", "body"} or type(reply["body"]) is not dict:
        raise ChildGone("antwoord van het proces heeft niet de afgesproken vorm")
    if reply["id"] != expected_id:
        raise ChildGone("antwoord van het proces hoort niet bij de vraag")
    return reply["body"]


def check_silent(child: ChildChannel) -> None:
    """Between exchanges the child must not have written anything (e.g. a learner thread
    writing to the reply pipe): such bytes are never trusted, the child is stopped."""
    reader = child.reader
    if not reader.pending and readable(child.reply_fd):
        try:
            at_end = reader.read_some() == 0
        except BlockingIOError:
            at_end = False
        except OSError:
            at_end = True
        if at_end:
            raise ChildGone("het proces met je code is onverwacht gestopt", exited=True)
    if reader.pending:
        raise ChildGone("het proces schreef buiten het protocol om")


def write_all(child: ChildChannel, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    poller = select.poll()
    poller.register(child.request_fd, select.POLLOUT)
    while view:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ExchangeTimeout
        if not poller.poll(remaining * 1000):
            continue
        try:
            written = os.write(child.request_fd, view[:PIPE_BYTES])
        except BlockingIOError:
            continue  # the child shrank or stopped emptying its pipe: poll again, until the deadline
        except OSError:
            raise ChildGone("het proces met je code is gestopt", exited=True) from None
        view = view[written:]


def read_line(child: ChildChannel, deadline: float, cap: int) -> bytes:
    """One reply line (without its newline), at most cap bytes, by the deadline."""
    poller = select.poll()
    poller.register(child.reply_fd, select.POLLIN)
    pending = child.reader.pending
    scanned = 0
    while True:
        newline = pending.find(b"\n", scanned)
        if newline > cap:
            # A whole over-long line can arrive in one read now that the pipe is wide.
            raise ChildGone("het antwoord van het proces was te groot")
        if newline >= 0:
            line = bytes(pending[:newline])
            del pending[: newline + 1]
            return line
        scanned = len(pending)
        if scanned > cap:
            raise ChildGone("het antwoord van het proces was te groot")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ExchangeTimeout
        if not poller.poll(remaining * 1000):
            continue
        try:
            count = child.reader.read_some()
        except BlockingIOError:
            continue
        except OSError:
            count = 0
        if not count:
            raise ChildGone("het proces met je code is onverwacht gestopt", exited=True)


def check_memory(child: ChildChannel, memory_bytes: int) -> None:
    """A process of the submission killed for the cgroup's memory limit makes the exchange an
    error, whatever the reply says: together its processes used too much."""
    if child.oom is None:
        return
    try:
        killed = child.oom.kills()
    except (OSError, ValueError):
        return
    if killed:
        memory_mb = memory_bytes / MIB
        raise ChildGone(f"je code gebruikte (met de processen die ze startte) samen meer dan "
                        f"{memory_mb:g} MB geheugen")
