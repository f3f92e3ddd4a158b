"""The browser's entry into the grader: the Pyodide worker calls `check` with the editor's code,
and a widget calls one function through `call` (site/src/widget-runner.js).

Standard library only (it runs in Pyodide, from the archive builder/checkpoint_bundle.py ships).
The learner's code runs in the worker's own interpreter through `InProcessHost`, so it converts
values exactly as the offline child does; the time limit comes from the page, which interrupts
the worker (KeyboardInterrupt) or replaces it. The answer is plain JSON data for the page: per
checkpoint its status, the pass count and the first failing test's Dutch message (and a note when
a checkpoint it uses fails too). Hidden tests
never carry expected/actual values (see runner.core.grade), so nothing here can reveal their inputs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import runner
from runner.core import messages, plain, wire
from runner.core.bundle import SOLUTION_FILE, Bundle, load_bundle
from runner.core.fingerprint import checkpoint_fingerprints
from runner.core.grade import LOAD_TEST_NAME, SIGNATURE_TEST_NAME, grade, load_failure_result
from runner.core.host import InProcessHost
from runner.core.model import CheckpointResult

# Tests that stand for "nothing ran": the code did not load or the function cannot be called.
BEFORE_TESTS = (LOAD_TEST_NAME, SIGNATURE_TEST_NAME)

_bundles: dict[str, Bundle] = {}


@dataclass(frozen=True)
class CheckpointFeedback:
    """What the page shows for one checkpoint after a check."""

    id: str
    status: str  # pass | fail | error | timeout
    passed: int  # tests that passed
    total: int  # tests the checkpoint has in this bundle
    before_tests: bool  # True: loading or the signature failed, no test ran
    message: str  # the first non-passing test's Dutch message ("" on pass)
    visible: bool  # the first failing test is a visible one (a worked example of the lesson)
    expected: str | None
    actual: str | None
    duration_ms: float
    # Checkpoints this one uses (checkpoints.toml `uses`) that fail too, and the Dutch note that
    # says so ("" when none): graded with the same code, never assumed.
    uses_failing: list[str] = field(default_factory=list)
    note: str = ""


def bundle_for(lesson_dir: str) -> Bundle:
    """The shipped tests of one lesson, loaded once per interpreter (the worker keeps it)."""
    if lesson_dir not in _bundles:
        _bundles[lesson_dir] = load_bundle(lesson_dir, include_offline=False)
    return _bundles[lesson_dir]


def feedback(result: CheckpointResult, total: int, duration_ms: float) -> CheckpointFeedback:
    failure = result.first_failure
    before = failure is not None and failure.name in BEFORE_TESTS and len(result.tests) == 1
    return CheckpointFeedback(
        id=result.id,
        status=result.status,
        passed=result.passed_count,
        total=total,
        before_tests=before,
        message="" if failure is None else failure.message,
        visible=failure is not None and failure.visible,
        expected=None if failure is None else failure.expected,
        actual=None if failure is None else failure.actual,
        duration_ms=round(duration_ms, 3),
    )


def interrupted_feedback(checkpoint_id: str, total: int, duration_ms: float) -> CheckpointFeedback:
    # The page's time limit struck outside the learner's function (between two calls, say):
    # still the learner's time that ran out, so the same verdict as a call that timed out.
    return CheckpointFeedback(
        id=checkpoint_id, status="timeout", passed=0, total=total, before_tests=False,
        message=messages.call_timeout(checkpoint_id), visible=False, expected=None, actual=None,
        duration_ms=round(duration_ms, 3),
    )


def with_used_checkpoints(result: CheckpointFeedback, bundle: Bundle, source: str,
                          call_timeout: float | None) -> CheckpointFeedback:
    """A checkpoint that failed, with the checkpoints it uses that fail on the same code: it may
    fail only because of them. They are graded here, after the checkpoint's own verdict, so a
    passing checkpoint costs nothing extra; when the page's time limit strikes during this, the
    verdict stands without a note (nothing was seen to fail)."""
    used = bundle.used_by_closure(result.id)
    host = InProcessHost(call_timeout=call_timeout)
    try:
        report = grade(bundle, host, source, only=used)
    except KeyboardInterrupt:
        return result
    finally:
        host.close()
    failing = [checkpoint.id for checkpoint in report.checkpoints if checkpoint.status != "pass"]
    if not failing:
        return result
    return replace(result, uses_failing=failing, note=messages.uses_failing(failing))


def check(source: str, lesson_dir: str, only: Iterable[str] | None = None,
          call_timeout: float | None = None) -> dict[str, Any]:
    """Grade source against the shipped tests; one checkpoint per `only` id, or all of them.

    Each checkpoint is graded on a freshly loaded copy of the code, so one checkpoint's time-out
    or mess never leaks into the next. `call_timeout` only works on CPython's main thread (tests);
    in Pyodide the page enforces the limit.

    "status" is "interrupted" when a KeyboardInterrupt ended some checkpoint's grading: its
    feedback says the time ran out (status "timeout", which nothing else gives). In the page that
    interrupt is its time limit or the learner's Stop, and only the page knows which: it turns the
    status into "timeout" or "stopped" (worker-client.js), and a stopped check keeps the card as it
    was. Otherwise "done".
    """
    bundle = bundle_for(lesson_dir)
    wanted = [spec.id for spec in bundle.checkpoints] if only is None else list(only)
    known = {spec.id for spec in bundle.checkpoints}
    unknown = [checkpoint_id for checkpoint_id in wanted if checkpoint_id not in known]
    if unknown:
        raise ValueError(f"unknown checkpoint(s): {', '.join(unknown)}")
    results = []
    for checkpoint_id in wanted:
        total = len(bundle.checkpoint(checkpoint_id).tests)
        host = InProcessHost(call_timeout=call_timeout)
        started = time.perf_counter()
        try:
            report = grade(bundle, host, source, only=[checkpoint_id])
            elapsed = (time.perf_counter() - started) * 1000
            result = feedback(report.checkpoints[0], total, elapsed)
        except KeyboardInterrupt:
            elapsed = (time.perf_counter() - started) * 1000
            result = interrupted_feedback(checkpoint_id, total, elapsed)
        finally:
            host.close()
        if result.status != "pass" and not result.before_tests and bundle.used_by_closure(checkpoint_id):
            result = with_used_checkpoints(result, bundle, source, call_timeout)
        results.append(result)
    return {
        "status": "interrupted" if any(result.status == "timeout" for result in results) else "done",
        "lesson": bundle.lesson,
        "bundle_sha256": bundle.bundle_sha256,
        "runner_version": runner.__version__,
        "checkpoints": [asdict(item) for item in results],
        # Per graded checkpoint, the part of the code its verdict depends on (runner.core.fingerprint).
        "fingerprints": checkpoint_fingerprints(source, wanted),
    }


def load_ahead(source: str, lesson_dir: str, only: Iterable[str], call_timeout: float | None = None) -> dict[str, Any]:
    """Load `source` once ahead of the page's checks of `only`, under the page's time limit for
    the longest of them. Code that loops (or sleeps) while it loads would otherwise wait out the
    limit once per checkpoint, and on a page without isolation start Python again each time; now
    it costs one limit. {"status": "loaded"} when loading ended within the limit (also with an
    error: each check then reports it in its own words), else {"status": "interrupted"} with the
    feedback each checkpoint gets, the same as its own check would give (the page reports the
    status as "timeout" or, after Stop, "stopped"). `call_timeout` as in `check` (tests)."""
    bundle = bundle_for(lesson_dir)
    specs = [bundle.checkpoint(checkpoint_id) for checkpoint_id in only]
    host = InProcessHost(call_timeout=call_timeout)
    started = time.perf_counter()
    try:
        report = host.load(source, bundle.function_names)
    finally:
        host.close()
    if report.problem != "timeout":
        return {"status": "loaded"}
    elapsed = (time.perf_counter() - started) * 1000
    results = [asdict(feedback(load_failure_result(spec, report), len(spec.tests), elapsed)) for spec in specs]
    return {"status": "interrupted", "checkpoints": results}


def fingerprints(source: str, lesson_dir: str) -> dict[str, str]:
    """{checkpoint id: fingerprint} of every checkpoint for the editor's code: the page compares
    them with those its stored results were made with (site/src/code-fingerprints.js)."""
    bundle = bundle_for(lesson_dir)
    return checkpoint_fingerprints(source, [spec.id for spec in bundle.checkpoints])


# -- widgets: one call of one function --------------------------------------------------------

# What a widget's call ended in (the `status` of `call`'s reply).
CALL_STATUSES = ("returned", "raised", "load-error", "no-function", "timeout", "error")


def call(function: str, args: list[Any], kwargs: dict[str, Any] | None = None, source: str | None = None,
         lesson_dir: str | None = None, filename: str = "main.py", call_timeout: float | None = None) -> dict[str, Any]:
    """Load `source` as a fresh module and call its `function` once; the reply for a widget.

    `source` is the learner's main.py or a widget's own Python; without it, the lesson's shipped
    reference solution (`<lesson_dir>/solution.py`). `args`/`kwargs` and the returned `value` are
    plain data (runner.core.plain): the code runs in an `InProcessHost`, exactly as the graded call
    does, and every way it can end has the Dutch message grading would give (runner.core.messages).
    Reply: {status (CALL_STATUSES), value, error (ErrorInfo wire or None), message, stdout,
    duration_ms}.
    """
    if source is None:
        if lesson_dir is None:
            raise ValueError("call() needs source or lesson_dir")
        with open(os.path.join(lesson_dir, SOLUTION_FILE), encoding="utf-8") as handle:
            source = handle.read()
        filename = SOLUTION_FILE
    host = InProcessHost(call_timeout=call_timeout, filename=filename)
    try:
        report = host.load(source, expected=[function])
        if not report.ok:
            status = "timeout" if report.problem == "timeout" else "load-error"
            return call_reply(status, error=report.error, message=report.message, stdout=report.stdout)
        info = report.function(function)
        if not info.exists:
            return call_reply("no-function", message=messages.missing_function(function), stdout=report.stdout)
        if not info.is_callable:
            return call_reply("no-function", message=messages.not_callable(function, info.type_name),
                              stdout=report.stdout)
        outcome = host.call(function, plain.decode(args), plain.decode(kwargs or {}))
    except KeyboardInterrupt:
        # The page's time limit (or Stop) struck between the load and the call.
        return call_reply("timeout", message=messages.call_timeout(function))
    finally:
        host.close()
    stdout = report.stdout + outcome.stdout
    if outcome.kind == "return":
        return call_reply("returned", value=plain.encode(outcome.value), stdout=stdout,
                          duration_ms=outcome.duration_ms)
    if outcome.kind == "raise":
        assert outcome.error is not None
        return call_reply("raised", error=outcome.error, message=messages.unexpected_exception(function, outcome.error),
                          stdout=stdout, duration_ms=outcome.duration_ms)
    if outcome.kind == "timeout":
        return call_reply("timeout", message=messages.call_timeout(function), stdout=stdout)
    return call_reply("error", message=messages.call_host_error(function, outcome.message), stdout=stdout)


def call_reply(status: str, value: Any = None, error: Any = None, message: str = "", stdout: str = "",
               duration_ms: float = 0.0) -> dict[str, Any]:
    return {
        "status": status,
        "value": value,
        "error": None if error is None else error.to_wire(),
        "message": message,
        "stdout": stdout,
        "duration_ms": round(duration_ms, 3),
    }


def call_for_page(request_text: str) -> dict[str, Any]:
    """`call` for the worker: the request and the reply travel as plain JSON text (`wire.dumps`),
    so a float stays a float and an int an int on the JavaScript side (widget-runner.js parses it).
    `interrupted` says the code was stopped by a KeyboardInterrupt, i.e. by the page (time limit
    or Stop): the worker client then reports it as a timeout or a stop."""
    request = wire.loads(request_text)
    reply = call(request["function"], request.get("args", []), request.get("kwargs"),
                 source=request.get("source"), lesson_dir=request.get("lesson_dir"),
                 filename=request.get("filename") or "main.py")
    return {"status": "interrupted" if reply["status"] == "timeout" else "done", "reply": wire.dumps(reply)}
