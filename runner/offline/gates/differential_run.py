"""The mutation gate's differential run: the lesson's seeded inputs (`mutant_inputs.py`) given to
the unmutated file and to a mutant, and any outcome the tests could see that differs (value,
exception, changed arguments, shared objects, time-out). It checks each listing of an equivalent
mutant, and shows for a survivor an input that tells it apart: the start of the missing test. Each
mutant runs in a memory-capped forked child (`runner.offline.gates.forked`), since it may loop and
allocate on an input the tests never gave it."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.core.host import InProcessHost
from runner.core.model import CallOutcome
from runner.offline.gates.forked import ChildDied, map_forked
from runner.offline.gates.mutant_grading import CHILD_WALL_SECONDS, WORKER_MEMORY_BYTES
from runner.offline.gates.mutants import Mutant
from runner.offline.gates.mutation_files import load_input_maker
from runner.offline.gates.quality_gate import GATE_CALL_SECONDS

# Inputs per checkpoint function in the differential run, from this seed on.
DIFFERENTIAL_CALLS = 300
DIFFERENTIAL_SEED = 20261201


@dataclass(frozen=True)
class Difference:
    """One input on which a mutant and the reference behave differently."""

    checkpoint: str
    call: str  # the call, shortened, as Python source
    reference: str
    mutant: str


def same_value(left: Any, right: Any) -> bool:
    """Equal with exactly the same types all the way down (1 is not 1.0, nor True)."""
    if type(left) is not type(right):
        return False
    if type(left) is dict:
        return left.keys() == right.keys() and all(same_value(left[key], right[key]) for key in left)
    if type(left) in (list, tuple):
        return len(left) == len(right) and all(same_value(a, b) for a, b in zip(left, right))
    if type(left) is float and left != left:
        return right != right
    return bool(left == right)


def brief(value: Any, depth: int = 0) -> str:
    """A repr that stays short: long strings and lists are cut, with their size said."""
    if type(value) is str:
        return repr(value) if len(value) <= 40 else f"{value[:24]!r}+{len(value) - 24} chars"
    if type(value) in (list, tuple) and depth < 3:
        items = [brief(item, depth + 1) for item in value[:3]]
        if len(value) > 3:
            items.append(f"... {len(value)} items")
        inner = ", ".join(items)
        return f"[{inner}]" if type(value) is list else f"({inner}{',' if len(value) == 1 else ''})"
    if type(value) is dict and depth < 3:
        return "{" + ", ".join(f"{key!r}: {brief(item, depth + 1)}" for key, item in value.items()) + "}"
    if type(value) in (list, tuple, dict):
        return f"<{type(value).__name__} of {len(value)}>"
    return _clipped(repr(value))


def describe_outcome(outcome: CallOutcome) -> str:
    if outcome.kind == "return":
        return f"returns {brief(outcome.value)}"
    if outcome.kind == "raise" and outcome.error is not None:
        return f"raises {outcome.error.type_name}"
    return outcome.kind


def same_outcome(reference: CallOutcome, mutant: CallOutcome) -> bool:
    """What the tests can see of a call: the value (exact types), a ValueError or not, the
    arguments afterwards, objects shared with the input or between positions of the value, and
    whether it finished in time."""
    if reference.kind != mutant.kind:
        return False
    if reference.kind == "raise":
        return reference.error.is_value_error == mutant.error.is_value_error and (
            reference.error.is_value_error or reference.error.type_name == mutant.error.type_name)
    if reference.kind != "return":
        return True
    return (same_value(reference.value, mutant.value)
            and same_value(reference.args_after, mutant.args_after)
            and same_value(reference.kwargs_after, mutant.kwargs_after)
            and set(reference.aliased_paths) == set(mutant.aliased_paths)
            and set(reference.shared_paths) == set(mutant.shared_paths))


def _clipped(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_call(function: str, args: list, kwargs: dict) -> str:
    parts = [brief(arg) for arg in args] + [f"{name}={brief(value)}" for name, value in kwargs.items()]
    return _clipped(f"{function}({', '.join(parts)})", 400)


class DifferentialRun:
    """The lesson's seeded inputs, and the reference's outcomes for them, made once per process."""

    def __init__(self, lesson_dir: Path, solution: str, function_names: tuple[str, ...],
                 calls: int = DIFFERENTIAL_CALLS, call_seconds: float = GATE_CALL_SECONDS) -> None:
        self.maker = load_input_maker(lesson_dir)
        self.function_names = function_names
        self.calls = calls
        self.call_seconds = call_seconds
        self.reference = InProcessHost(call_timeout=call_seconds)
        self.reference.load(solution, function_names)
        self._cases: dict[str, list[tuple[list, dict, CallOutcome]]] = {}

    def cases(self, checkpoint: str) -> list[tuple[list, dict, CallOutcome]]:
        if checkpoint not in self._cases:
            rng = random.Random(f"{DIFFERENTIAL_SEED}/{checkpoint}")
            made = []
            for args, kwargs in self.maker(checkpoint, rng)[: self.calls]:
                outcome = self.reference.call(checkpoint, list(args), dict(kwargs))
                if outcome.kind == "timeout":
                    self.reference.restart()
                made.append((list(args), dict(kwargs), outcome))
            self._cases[checkpoint] = made
        return self._cases[checkpoint]

    def differences(self, mutant: Mutant, checkpoints: Iterable[str], limit: int = 1) -> list[Difference]:
        """Up to `limit` inputs per checkpoint on which the mutant behaves differently."""
        host = InProcessHost(call_timeout=self.call_seconds)
        load = host.load(mutant.source, self.function_names)
        found: list[Difference] = []
        for checkpoint in checkpoints:
            per_checkpoint = 0
            for args, kwargs, expected in self.cases(checkpoint):
                if not load.ok:
                    found.append(Difference(checkpoint, "(loading the mutant)", "loads", load.problem or "error"))
                    return found
                try:
                    outcome = host.call(checkpoint, args, kwargs)
                except MemoryError:
                    # The mutant filled this worker's memory cap where the reference did not: a
                    # difference, and a fresh interpreter state for the next input.
                    load = host.restart()
                    found.append(Difference(checkpoint, describe_call(checkpoint, args, kwargs),
                                            describe_outcome(expected), "MemoryError (out of memory)"))
                    per_checkpoint += 1
                    if per_checkpoint >= limit:
                        break
                    continue
                if outcome.kind == "timeout":
                    load = host.restart()
                if not same_outcome(expected, outcome):
                    found.append(Difference(checkpoint, describe_call(checkpoint, args, kwargs),
                                            describe_outcome(expected), describe_outcome(outcome)))
                    per_checkpoint += 1
                    if per_checkpoint >= limit:
                        break
        host.close()
        return found


# Set in the parent before the children fork: the reference's outcomes are made there, once.
_DIFFERENTIAL: DifferentialRun | None = None


def _differences_of(item: tuple[Mutant, tuple[str, ...]]) -> list[Difference]:
    assert _DIFFERENTIAL is not None
    mutant, checkpoints = item
    return _DIFFERENTIAL.differences(mutant, checkpoints)


def differences_in_workers(lesson_dir: Path, solution: str, function_names: tuple[str, ...],
                           work: list[tuple[Mutant, list[str]]], jobs: int,
                           calls: int = DIFFERENTIAL_CALLS, call_seconds: float = GATE_CALL_SECONDS) -> list[list[Difference]]:
    """The differential run of each (mutant, checkpoints), in memory-capped children too: a
    mutant may loop and allocate on an input the tests never gave it."""
    global _DIFFERENTIAL
    if not work:
        return []
    _DIFFERENTIAL = DifferentialRun(lesson_dir, solution, function_names, calls, call_seconds)
    for checkpoint in sorted({checkpoint for _, checkpoints in work for checkpoint in checkpoints}):
        _DIFFERENTIAL.cases(checkpoint)
    answers = map_forked(_differences_of, [(mutant, tuple(checkpoints)) for mutant, checkpoints in work],
                         jobs, WORKER_MEMORY_BYTES, CHILD_WALL_SECONDS)
    found: list[list[Difference]] = []
    for (_mutant, checkpoints), answer in zip(work, answers):
        if isinstance(answer, ChildDied):
            # It ended the worker where the reference answered every input: a difference.
            answer = [Difference(checkpoint, "(the seeded inputs)", "answers", answer.describe())
                      for checkpoint in checkpoints]
        found.append(answer)
    return found
