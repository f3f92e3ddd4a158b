"""Deterministic grading costs of a lesson, and the budget each lesson records for them.

Seconds depend on the machine and on whatever else runs on it; what the channel carries does
not. `measure` grades a lesson's reference solution with every test (shipped and offline) through
`LoopbackHost`, which builds every request and reply line exactly as `ChildProcessHost` and the
child do (`SentArguments`, `wire.wire_line`, `invoke`), but in this process and without a clock,
and counts per checkpoint:

    calls           learner calls (each one request line and one reply line)
    bytes_sent      bytes of the request lines, grader -> child (a load request included)
    bytes_received  bytes of the reply lines, child -> grader
    largest_line    the largest single line either way: the largest value that crosses

The counts are those of the first submission a grading process sees: every large result crosses
in full, as it does until the grader knows it (runner/offline/sandbox/known_values.py names a
large result it knows by a digest instead; the budget does not count on that).

Request ids are written as "1" and the reply's `duration_ms` as 0, so the counts are the same on every machine and every
run. Each lesson keeps its budget beside its other test data, tests/lessons/<id>/budget.json;
tests/lessons/test_grade_budget.py fails when a count goes past its budget by more than
MARGIN, and says how to raise the budget on purpose (tests/lessons/record_budget.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from runner.core import invoke, wire
from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import encode_as_json, outcome_from_wire
from runner.core.model import CallOutcome, LoadReport, WireError

BUDGET_FILE = "budget.json"
# A count may grow this much past its budget before the budget test fails: room for a small
# test added in passing, none for a test that doubles what crosses the channel.
MARGIN = 0.10
# ... and at least this much, so a checkpoint of a few tiny calls does not fail for one more.
SLACK = {"calls": 5, "bytes_sent": 4096, "bytes_received": 4096, "largest_line": 4096}
COSTS = ("calls", "bytes_sent", "bytes_received", "largest_line")
WHOLE_LESSON = "the whole lesson"


@dataclass
class Costs:
    calls: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0
    largest_line: int = 0

    def add_exchange(self, request: bytes, reply: bytes, is_call: bool) -> None:
        self.calls += is_call
        self.bytes_sent += len(request)
        self.bytes_received += len(reply)
        self.largest_line = max(self.largest_line, len(request), len(reply))

    def total_with(self, other: Costs) -> Costs:
        return Costs(self.calls + other.calls, self.bytes_sent + other.bytes_sent,
                     self.bytes_received + other.bytes_received, max(self.largest_line, other.largest_line))


@dataclass
class LessonCosts:
    lesson: str
    checkpoints: dict[str, Costs] = field(default_factory=dict)

    @property
    def total(self) -> Costs:
        total = Costs()
        for costs in self.checkpoints.values():
            total = total.total_with(costs)
        return total

    def to_json(self) -> str:
        data = {
            "lesson": self.lesson,
            "margin": MARGIN,
            "note": "Deterministic costs of grading solution.py with every test; see runner/offline/gates/budget.py. "
                    "Raise on purpose only: tests/lessons/record_budget.py, with bench/grade_batch.py figures "
                    "in the commit message.",
            "total": asdict(self.total),
            "checkpoints": {name: asdict(costs) for name, costs in self.checkpoints.items()},
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


class BudgetError(ValueError):
    """A budget file that cannot be read: `path: reason`."""


def read_budget(path: Path) -> LessonCosts:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        checkpoints = {name: Costs(**{key: int(values[key]) for key in COSTS})
                       for name, values in data["checkpoints"].items()}
        return LessonCosts(str(data["lesson"]), checkpoints)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise BudgetError(f"{path}: not a budget file ({type(error).__name__}: {error})") from None


def over_budget(measured: LessonCosts, budget: LessonCosts) -> list[str]:
    """One line per count that went past its budget by more than MARGIN (and SLACK), per
    checkpoint and for the lesson as a whole; a checkpoint without a budget counts as over."""
    problems = []
    rows = [(name, costs, budget.checkpoints.get(name)) for name, costs in measured.checkpoints.items()]
    rows.append((WHOLE_LESSON, measured.total, budget.total))
    for name, costs, allowed in rows:
        if allowed is None:
            problems.append(f"{name}: no budget recorded")
            continue
        for key in COSTS:
            value, limit = getattr(costs, key), getattr(allowed, key)
            if value > max(limit * (1 + MARGIN), limit + SLACK[key]):
                problems.append(f"{name}: {key} {value} > budget {limit} (+{MARGIN:.0%})")
    return problems


class LoopbackHost:
    """A Host that does what ChildProcessHost and the child do to every value, in this process:
    the request line as the grader writes it, `invoke` as the child runs it, the reply line as the
    child writes it, parsed and decoded as the grader does. Counts the lines per checkpoint."""

    def __init__(self) -> None:
        self.namespace: dict = {}
        self.source: str | None = None
        self.expected: tuple[str, ...] = ()
        self.costs: dict[str, Costs] = {}
        self.checkpoint = ""  # set by measure() before each checkpoint

    def _count(self, request: bytes, reply: bytes, is_call: bool) -> None:
        self.costs.setdefault(self.checkpoint, Costs()).add_exchange(request, reply, is_call)

    def load(self, source: str, expected: Sequence[str] = ()) -> LoadReport:
        self.source, self.expected = source, tuple(expected)
        request_id = "1"  # the real host counts; written as 1 so the counts do not grow with it
        request = wire.wire_line({"id": request_id, "op": "load", "source": source, "expected": list(expected)})
        loaded = invoke.load_module(source, "main.py", self.expected)
        self.namespace = loaded.namespace
        reply = wire.wire_line({"id": request_id, "body": loaded.report.to_wire()})
        self._count(request, reply, is_call=False)
        return LoadReport.from_wire(wire.wire_loads(reply)["body"])

    def restart(self) -> LoadReport:
        if self.source is None:
            raise RuntimeError("restart() before load()")
        return self.load(self.source, self.expected)

    def call(self, function: str, args: list, kwargs: dict | None = None, time_limit: float | None = None) -> CallOutcome:
        sent, args_json, kwargs_json = encode_as_json(args, kwargs)
        request_id = "1"
        request = wire.wire_line_with({"id": request_id, "op": "call", "function": function, "plain": sent.exact},
                                       {"args": args_json, "kwargs": kwargs_json})
        message = wire.wire_loads(request)
        body = invoke.invoke(self.namespace, function, message["args"], message["kwargs"],
                             already_plain=message["plain"] is True, copy_value=False)
        body["duration_ms"] = 0  # the one part of a reply that depends on the clock
        reply = wire.wire_line({"id": request_id, "body": body})
        self._count(request, reply, is_call=True)
        try:
            return outcome_from_wire(wire.wire_loads(reply)["body"], sent, value_plain=b'"$' not in reply)
        except WireError as error:
            return CallOutcome.host_error(f"ongeldig antwoord ({error})")

    def close(self) -> None:
        self.namespace = {}


def measure(lesson_dir: Path | str) -> LessonCosts:
    """The costs of grading the lesson's solution.py with every test, per checkpoint."""
    lesson_dir = Path(lesson_dir)
    bundle = load_bundle(lesson_dir, include_offline=True)
    source = (lesson_dir / "solution.py").read_text(encoding="utf-8")
    host = LoopbackHost()
    costs = LessonCosts(bundle.lesson)

    # One checkpoint at a time (each with its own load, counted with it), so every line is
    # counted under the checkpoint whose tests sent it.
    for spec in bundle.checkpoints:
        host.checkpoint = spec.id
        report = grade(bundle, host, source, only=[spec.id])
        if report.score != report.max_score:
            failing = next(test.name for result in report.checkpoints for test in result.tests if test.status != "pass")
            raise BudgetError(f"{lesson_dir}: solution.py does not pass {spec.id} ({failing}): no budget to measure")
    for name, value in host.costs.items():
        costs.checkpoints[name] = value
    return costs
