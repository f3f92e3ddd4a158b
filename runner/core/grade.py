"""The one grading entry point, for the browser and the offline runner alike.

The tests run here, in the trusted process; they reach learner code only through `host.call`.
Order of events: load the code once; if it does not load, or a checkpoint's function is missing
or has parameters the tests cannot call it with, that checkpoint gets one `error` test before
anything runs. Then each checkpoint's tests run in their defined order. After a time-out the host
is restarted and the rest of that checkpoint is marked as not run; grading goes on with the next.

With `check_limits` (the offline grader passes them), a checkpoint's shipped tests may together
spend at most its `check_seconds` in learner calls: the page stops a check after that long, so a
solution the page calls "Te traag" is a timeout offline too (see docs/grading.md, "Time limits").
"""

from __future__ import annotations

import dataclasses
import inspect
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import runner
from runner.core import messages
from runner.core.bundle import Bundle, CheckpointSpec
from runner.core.host import Host
from runner.core.model import CallOutcome, CheckpointResult, GradeReport, LoadReport, TestResult
from runner.core.testkit import (
    CallStopped,
    Learner,
    LearnerRaised,
    TestFailed,
    TestSpec,
    describe_difference,
    display,
    explain_difference,
    first_difference,
)

LOAD_TEST_NAME = messages.LOAD_TEST_NAME
SIGNATURE_TEST_NAME = messages.SIGNATURE_TEST_NAME

ProgressCallback = Callable[[str, TestResult], None]


def _signature_problem(load: LoadReport, spec: CheckpointSpec) -> str | None:
    info = load.function(spec.id)
    if not info.exists:
        return messages.missing_function(spec.id)
    if not info.is_callable:
        return messages.not_callable(spec.id, info.type_name or "?")
    if spec.signature is None or info.parameters is None:
        return None  # nothing declared, or a callable whose parameters cannot be inspected
    try:
        signature = inspect.Signature(
            [
                inspect.Parameter(
                    p.name,
                    getattr(inspect.Parameter, p.kind),
                    default=None if p.has_default else inspect.Parameter.empty,
                )
                for p in info.parameters
            ]
        )
    except (ValueError, TypeError, AttributeError):
        return None  # a description we cannot rebuild; the calls themselves will tell
    for shape in spec.signature.shapes:
        try:
            signature.bind(*([None] * shape.positional), **{name: None for name in shape.keywords})
        except TypeError:
            return messages.wrong_signature(spec.id, spec.signature.text)
    return None


def _run_test(test: TestSpec, learner: Learner, reveal: bool = False) -> TestResult:
    started = time.perf_counter()
    shown = test.visible or reveal  # a hidden test's values are for the teacher only

    def result(status: str, message: str = "", expected: str | None = None, actual: str | None = None,
               difference: str | None = None) -> TestResult:
        return TestResult(
            name=test.name,
            status=status,
            message=message,
            duration_ms=(time.perf_counter() - started) * 1000,
            visible=test.visible,
            expected=expected if shown else None,
            actual=actual if shown else None,
            difference=difference if reveal else None,
        )

    try:
        test.run(learner)
    except TestFailed as failure:
        compared = failure.expected is not None or failure.actual is not None
        if reveal and compared:
            difference = first_difference(failure.actual, failure.expected)
            return result("fail", failure.message, display(failure.expected), display(failure.actual),
                          None if difference is None else explain_difference(difference))
        if failure.show and test.visible:
            difference = first_difference(failure.actual, failure.expected)
            message = failure.message + (f" {describe_difference(difference)}" if difference else "")
            return result("fail", message, display(failure.expected), display(failure.actual))
        return result("fail", failure.message)
    except LearnerRaised as raised:
        return result("error", messages.unexpected_exception(raised.function, raised.info))
    except CallStopped as stopped:
        if stopped.outcome.kind == "timeout":
            return result("timeout", messages.call_timeout(stopped.function))
        detail = stopped.outcome.message or "onbekende fout"
        return result("error", messages.call_host_error(stopped.function, detail))
    except Exception as error:
        return result("error", messages.test_crashed(type(error).__name__),
                      difference=_crash_detail(error) if reveal else None)
    return result("pass")


class _CheckClock:
    """A host for one checkpoint's shipped tests that adds up the wall time of their calls.

    Each call may use only what is left of `seconds` (the host stops it there, as the page's timer
    would); a call after the budget is spent is not made. Measured here, in the trusted process:
    a learner cannot talk the clock down.
    """

    def __init__(self, host: Host, seconds: float | None) -> None:
        self.host = host
        self.seconds = seconds  # None: no budget (the offline-only tests, or no check limits)
        self.used = 0.0
        self.exhausted = False

    def call(self, function: str, args: list[Any], kwargs: dict[str, Any] | None = None) -> CallOutcome:
        if self.seconds is None:
            return self.host.call(function, args, kwargs)
        remaining = self.seconds - self.used
        if remaining <= 0:
            self.exhausted = True
            return CallOutcome.timed_out()
        started = time.monotonic()
        outcome = self.host.call(function, args, kwargs, time_limit=remaining)
        self.used += time.monotonic() - started
        if self.used >= self.seconds and (outcome.kind == "timeout" or self.used > self.seconds):
            self.exhausted = True
            return outcome if outcome.kind == "timeout" else CallOutcome.timed_out()
        return outcome


def _crash_detail(error: Exception) -> str:
    """For the teacher: what broke inside the test itself, and where (the innermost test line)."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename != __file__]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"the test raised {type(error).__name__}: {error}{where}"


def load_failure_result(spec: CheckpointSpec, load: LoadReport) -> CheckpointResult:
    """A checkpoint of code that did not load: one load test with the load's status and message."""
    status = "timeout" if load.problem == "timeout" else "error"
    message = load.message or messages.host_error_at_load("onbekende fout")
    return CheckpointResult.from_tests(spec.id, [TestResult(LOAD_TEST_NAME, status, message)])


def _load_safely(load: Callable[[], LoadReport]) -> LoadReport:
    """A host that fails while loading gives a load error, never an exception out of grade()."""
    try:
        return load()
    except Exception as error:
        return LoadReport.host_error(type(error).__name__)


def _with_uses_failing(bundle: Bundle, results: list[CheckpointResult]) -> tuple[CheckpointResult, ...]:
    """Mark each checkpoint that did not pass with the checkpoints it uses that did not pass either
    (graded here, in this same run): only a failure seen, never one assumed."""
    statuses = {result.id: result.status for result in results}
    marked = []
    for result in results:
        # Code that did not load, or a function missing or not callable as the tests call it,
        # is the cause itself: no test of this checkpoint ran.
        before_tests = [test.name for test in result.tests] in ([LOAD_TEST_NAME], [SIGNATURE_TEST_NAME])
        failing = () if result.status == "pass" or before_tests else tuple(
            used for used in bundle.used_by_closure(result.id) if statuses.get(used, "pass") != "pass")
        marked.append(dataclasses.replace(result, uses_failing=failing) if failing else result)
    return tuple(marked)


def grade(
    bundle: Bundle,
    host: Host,
    source: str,
    only: Iterable[str] | None = None,
    on_progress: ProgressCallback | None = None,
    reveal: bool = False,
    check_limits: Mapping[str, float] | None = None,
) -> GradeReport:
    """Grade source against the bundle's checkpoints (all, or only the given ids, in lesson order).

    `reveal=True` is the teacher's view (the quality gate): every failing comparison keeps its
    expected and actual values and the first difference, hidden tests too. Never for learners.
    `check_limits`: checkpoint id -> seconds its shipped tests may spend in learner calls together
    (`Bundle.check_limits()`); the host's `call` must then take `time_limit`.
    """
    selected = list(bundle.checkpoints)
    if only is not None:
        wanted = set(only)
        unknown = wanted - {spec.id for spec in selected}
        if unknown:
            raise ValueError(f"unknown checkpoint(s): {', '.join(sorted(unknown))}")
        selected = [spec for spec in selected if spec.id in wanted]

    first_load = load = _load_safely(lambda: host.load(source, bundle.function_names))
    results: list[CheckpointResult] = []
    for spec in selected:
        if not load.ok:
            results.append(load_failure_result(spec, load))
            continue
        problem = _signature_problem(load, spec)
        if problem is not None:
            results.append(CheckpointResult.from_tests(spec.id, [TestResult(SIGNATURE_TEST_NAME, "error", problem)]))
            continue
        checkpoint_tests: list[TestResult] = []
        clock = _CheckClock(host, None if check_limits is None else check_limits.get(spec.id))
        learner = Learner(clock)
        for index, test in enumerate(spec.tests):
            if index == spec.shipped_test_count:
                clock.seconds = None  # the page never runs offline-only tests: no check limit for them
            learner.last = None
            outcome = _run_test(test, learner, reveal)
            if outcome.status == "timeout" and clock.exhausted and clock.seconds is not None:
                outcome = dataclasses.replace(outcome, message=messages.checkpoint_too_slow(spec.id, clock.seconds))
            checkpoint_tests.append(outcome)
            if on_progress is not None:
                on_progress(spec.id, outcome)
            if outcome.status == "timeout":
                checkpoint_tests.extend(
                    TestResult(rest.name, "timeout", messages.not_run_after_timeout(), visible=rest.visible)
                    for rest in spec.tests[index + 1:]
                )
                load = _load_safely(host.restart)
                break
            if outcome.status == "error" and learner.last is not None and learner.last.kind == "error":
                # The host itself failed (a crashed child): start clean for the next test.
                load = _load_safely(host.restart)
                if not load.ok:
                    break
        if not load.ok and len(checkpoint_tests) < len(spec.tests):
            checkpoint_tests.extend(
                TestResult(rest.name, "error", messages.not_run_after_load_problem(), visible=rest.visible)
                for rest in spec.tests[len(checkpoint_tests):]
            )
        results.append(CheckpointResult.from_tests(spec.id, checkpoint_tests))
    return GradeReport(
        checkpoints=_with_uses_failing(bundle, results),
        load=first_load,
        lesson=bundle.lesson,
        runner_version=runner.__version__,
        bundle_sha256=bundle.bundle_sha256,
    )
