"""Where learner code runs. The tests only ever talk to a Host.

A host loads main.py, calls its functions with plain values and returns `CallOutcome`s, and can
restart (load the same code again, fresh) after a timeout. Both hosts go through
`runner.invoke` and `runner.plain`, so they convert values identically and reach the same verdicts.
"""

from __future__ import annotations

import signal
import threading
from typing import Any, Protocol, Sequence

from runner import invoke, plain
from runner.model import CallOutcome, LoadReport, WireError


class Host(Protocol):
    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        """Run source as main.py in a fresh namespace; describe the expected functions."""

    def call(self, function: str, args: list, kwargs: dict | None = None) -> CallOutcome:
        """Call a learner function with plain values (dict, list, str, int, float, bool, None)."""

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
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc_info: object) -> None:
        if self.enabled:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

    @staticmethod
    def _interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt


class InProcessHost:
    """Learner code in this interpreter: used in Pyodide and as the benchmark baseline.

    It does not protect the grader from hostile code (the learner shares our interpreter); the
    offline runner uses `runner.sandbox.ChildProcessHost` for that. `call_timeout` (seconds)
    works on CPython's main thread only.
    """

    def __init__(self, call_timeout: float | None = None, filename: str = "main.py") -> None:
        self.call_timeout = call_timeout
        self.filename = filename
        self.source: str | None = None
        self.expected: tuple[str, ...] = ()
        self.namespace: dict = {}

    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        self.source = source
        self.expected = tuple(expected)
        try:
            with _CallTimer(self.call_timeout):
                loaded = invoke.load_module(source, self.filename, self.expected)
        except KeyboardInterrupt:
            self.namespace = {}
            return LoadReport(problem="timeout", message=invoke.messages.timeout_at_load())
        self.namespace = loaded.namespace
        return loaded.report

    def call(self, function: str, args: list, kwargs: dict | None = None) -> CallOutcome:
        encoded_args = plain.encode(list(args))
        encoded_kwargs = plain.encode(dict(kwargs or {}))
        try:
            wire = invoke.invoke(
                self.namespace,
                function,
                encoded_args,
                encoded_kwargs,
                call_guard=lambda: _CallTimer(self.call_timeout),
            )
        except KeyboardInterrupt:
            # The browser's interrupt arrived while converting values, just outside the call.
            return CallOutcome.timed_out()
        except RecursionError:
            return CallOutcome.host_error("de waarde was te diep genest")
        try:
            return CallOutcome.from_wire(wire)
        except WireError as error:
            return CallOutcome.host_error(f"ongeldig antwoord ({error})")

    def restart(self) -> LoadReport:
        if self.source is None:
            raise RuntimeError("restart() before load()")
        return self.load(self.source, self.expected)

    def close(self) -> None:
        self.namespace = {}
