"""Where learner code runs. The tests only ever talk to a Host.

A host loads main.py, calls its functions with plain values and returns `CallOutcome`s, and can
restart (load the same code again, fresh) after a timeout. Both hosts go through
`runner.core.invoke` and `runner.core.plain`, so they convert values identically and reach the same verdicts.
"""

from __future__ import annotations

import dataclasses
import marshal
import signal
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from runner.core import invoke, plain, wire
from runner.core.model import CallOutcome, LoadReport, WireError


class Host(Protocol):
    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        """Run source as main.py in a fresh namespace; describe the expected functions."""

    def call(self, function: str, args: list[Any], kwargs: dict[str, Any] | None = None, time_limit: float | None = None) -> CallOutcome:
        """Call a learner function with plain values (dict, list, str, int, float, bool, None).
        `time_limit`: seconds this call may take at most, below the host's own limit (what is left
        of a checkpoint's check limit, runner.core.grade)."""

    def restart(self) -> LoadReport:
        """Throw the learner's state away and load the last source again."""

    def close(self) -> None:
        """Release whatever the host holds (processes, namespaces)."""


class _CallTimer:
    """Turn a per-call time limit into KeyboardInterrupt, like the browser's interrupt does.

    Only possible on CPython's main thread (signal.setitimer); elsewhere (Pyodide, worker
    threads) calls simply have no limit here and the surrounding host enforces one.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        usable = (
            seconds is not None
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
        )
        self.enabled = usable

    def __enter__(self) -> None:
        if self.enabled:
            self.previous = signal.signal(signal.SIGALRM, self._interrupt)
            signal.setitimer(signal.ITIMER_REAL, self.seconds or 0)  # enabled only with seconds

    def __exit__(self, *exc_info: Any) -> None:
        if self.enabled:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

    @staticmethod
    def _interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt


@dataclasses.dataclass(frozen=True)
class SentArguments:
    """What a host sent for one call: the tests' own values and their plain encoding.

    `exact` says the encoding needs no decoding (no opaque marker, no escaped key): it equals
    the tests' own values, with the same types all the way down.
    """

    args: list[Any]
    kwargs: dict[str, Any]
    encoded_args: object
    encoded_kwargs: object
    exact: bool

    @classmethod
    def encode(cls, args: Sequence[Any], kwargs: dict[str, Any] | None, fresh_copy: bool = True) -> SentArguments:
        """fresh_copy=False when the encoding is only serialized (the child gets its own copy
        from the JSON): exact plain values are then sent as they are, without the encoding walk."""
        args_list, kwargs_dict = list(args), dict(kwargs or {})
        if plain.is_exact_plain(args_list, dollar_keys=False) and plain.is_exact_plain(kwargs_dict, dollar_keys=False):
            if not fresh_copy:
                return cls(args_list, kwargs_dict, args_list, kwargs_dict, True)
            copied_args, copied_kwargs = plain.exact_copy([args_list, kwargs_dict])
            return cls(args_list, kwargs_dict, copied_args, copied_kwargs, True)
        encoded_args, args_exact = plain.encode_checked(args_list)
        encoded_kwargs, kwargs_exact = plain.encode_checked(kwargs_dict)
        return cls(args_list, kwargs_dict, encoded_args, encoded_kwargs, args_exact and kwargs_exact)


class _SentJSON:
    """The JSON text of large argument lists sent before, found again by their marshal bytes.

    A batch sends every submission the same test inputs (the seeded and size-limit cases are built
    once per process), some of them megabytes of JSON. Equal marshal bytes (version 0: no
    back-references) mean a value equal to the stored one with the same types all the way down,
    and the stored one was checked exact plain, so its JSON is this value's JSON: the exactness
    walk and the serialization are skipped. Only the grader's own values are marshalled here (the
    tests' arguments), never a learner's object. Bounded, oldest out first. One lock: the
    quality gate grades two known solutions at once in threads that share this store."""

    MIN_BYTES = 64 * 1024
    MAX_BYTES = 48 * 1024 * 1024

    def __init__(self) -> None:
        self.entries: dict[bytes, tuple[str, str]] = {}
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: bytes) -> tuple[str, str] | None:
        if len(key) < self.MIN_BYTES:
            return None
        with self.lock:
            return self.entries.get(key)

    def put(self, key: bytes, texts: tuple[str, str]) -> None:
        cost = 2 * len(key) + len(texts[0]) + len(texts[1])
        if len(key) < self.MIN_BYTES or cost > self.MAX_BYTES // 4:
            return
        with self.lock:
            if key in self.entries:  # another thread stored it first: counted once
                return
            while self.entries and self.size + cost > self.MAX_BYTES:
                oldest = next(iter(self.entries))
                old_args, old_kwargs = self.entries.pop(oldest)
                self.size -= 2 * len(oldest) + len(old_args) + len(old_kwargs)
            self.entries[key] = texts
            self.size += cost


_SENT_JSON = _SentJSON()


def encode_as_json(args: Sequence[Any], kwargs: dict[str, Any] | None) -> tuple[SentArguments, str, str]:
    """SentArguments.encode(args, kwargs, fresh_copy=False) and the JSON text of its encoded args
    and kwargs, for a host that sends them to another process (`wire.wire_line_with`). Large
    arguments sent before reuse their JSON (see _SentJSON)."""
    args_list, kwargs_dict = list(args), dict(kwargs or {})
    try:
        key: bytes | None = marshal.dumps([args_list, kwargs_dict], 0)
    except (ValueError, RecursionError):
        key = None  # an Opaque or another value marshal refuses: encoded as always
    if key is not None:
        found = _SENT_JSON.get(key)
        if found is not None:
            return SentArguments(args_list, kwargs_dict, args_list, kwargs_dict, True), found[0], found[1]
    sent = SentArguments.encode(args_list, kwargs_dict, fresh_copy=False)
    texts = wire.wire_dumps(sent.encoded_args), wire.wire_dumps(sent.encoded_kwargs)
    if key is not None and sent.exact:
        _SENT_JSON.put(key, texts)
    return sent, texts[0], texts[1]


def outcome_from_wire(wire: Any, sent: SentArguments, value_plain: bool = False) -> CallOutcome:
    """CallOutcome.from_wire, plus the arguments after the call when invoke only said
    "unchanged" (raises WireError like from_wire). Both hosts use this, so they agree.
    value_plain: see CallOutcome.from_wire; each host decides it from what it trusts."""
    outcome = CallOutcome.from_wire(wire, value_plain)
    if outcome.args_after is not None or type(wire) is not dict or wire.get(invoke.ARGS_UNCHANGED) is not True:
        return outcome
    if sent.exact:
        after_args, after_kwargs = list(sent.args), dict(sent.kwargs)
    else:
        after_args, after_kwargs = plain.decode(sent.encoded_args), plain.decode(sent.encoded_kwargs)
    return dataclasses.replace(outcome, args_after=after_args, kwargs_after=after_kwargs)


class InProcessHost:
    """Learner code in this interpreter: used in Pyodide and as the benchmark baseline.

    It does not protect the grader from hostile code (the learner shares our interpreter); the
    offline runner uses `runner.offline.sandbox.host.ChildProcessHost` for that. `call_timeout` (seconds)
    works on CPython's main thread only.
    """

    def __init__(self, call_timeout: float | None = None, filename: str = "main.py") -> None:
        self.call_timeout = call_timeout
        self.filename = filename
        self.source: str | None = None
        self.expected: tuple[str, ...] = ()
        self.namespace: dict[str, Any] = {}

    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        self.source = source
        self.expected = tuple(expected)
        try:
            with _CallTimer(self.call_timeout):
                loaded = invoke.load_module(source, self.filename, self.expected)
        except KeyboardInterrupt:
            self.namespace = {}
            return LoadReport.timed_out()
        self.namespace = loaded.namespace
        return loaded.report

    def call(self, function: str, args: list[Any], kwargs: dict[str, Any] | None = None, time_limit: float | None = None) -> CallOutcome:
        sent = SentArguments.encode(args, kwargs)
        seconds = self.call_timeout if time_limit is None else min(time_limit, self.call_timeout or time_limit)
        try:
            wire = invoke.invoke(
                self.namespace,
                function,
                sent.encoded_args,
                sent.encoded_kwargs,
                call_guard=lambda: _CallTimer(seconds),
                already_plain=sent.exact,
            )
        except KeyboardInterrupt:
            # The browser's interrupt arrived while converting values, just outside the call.
            return CallOutcome.timed_out()
        except RecursionError:
            return CallOutcome.host_error("de waarde was te diep genest")
        try:
            # invoke ran here, so its own word that the encoding is exact can be trusted.
            return outcome_from_wire(wire, sent, value_plain=wire.get(invoke.VALUE_EXACT) is True)
        except WireError as error:
            return CallOutcome.host_error(f"ongeldig antwoord ({error})")

    def restart(self) -> LoadReport:
        if self.source is None:
            raise RuntimeError("restart() before load()")
        return self.load(self.source, self.expected)

    def close(self) -> None:
        self.namespace = {}
