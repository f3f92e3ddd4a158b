"""Grading mutants for the mutation gate: each source as a learner submission with the shipped
tests, in a forked child of its own whose memory is capped (`runner.offline.gates.forked`), each
checkpoint stopping at its first test that does not pass."""

from __future__ import annotations

from runner.core.bundle import SOLUTION_FILE, Bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.core.model import TestResult
from runner.offline.gates.forked import ChildDied, map_forked
from runner.offline.gates.mutants import Mutant
from runner.offline.gates.mutation_files import MutationSetupError
from runner.offline.gates.quality_gate import GATE_CALL_SECONDS

# Per worker process, beyond what it maps when it starts: a mutant that appends forever gets a
# MemoryError instead of the machine.
WORKER_MEMORY_BYTES = 2 * 1024**3
# A child still busy after this is stopped: each call has its own limit, this catches the rest.
CHILD_WALL_SECONDS = 300.0

# Set in the parent before the children fork, so they inherit the loaded bundle.
_WORKER_BUNDLE: Bundle | None = None
_WORKER_CALL_SECONDS = GATE_CALL_SECONDS


class _Decided(Exception):
    """A checkpoint's first test that does not pass: its status is that test's (as
    `CheckpointResult.from_tests` makes it), so the tests after it need not run."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


def _stop_at_first_failure(_checkpoint: str, result: TestResult) -> None:
    if result.status != "pass":
        raise _Decided(result.status)


def grade_fail_fast(bundle: Bundle, source: str, only: tuple[str, ...] | None, call_seconds: float) -> dict[str, str]:
    """Each checkpoint's status as `grade` gives it, but a checkpoint stops at its first test that
    does not pass: most mutants fail early, and only pass or not is read (the status of a
    checkpoint is the status of its first test that does not pass, so it is the same too).

    With `only` (the checkpoints a mutant reaches), a checkpoint that uses one of them which already
    failed is left out: a pass there is caught upstream (`mutate.caught_upstream`), a failure is a
    kill, so it cannot survive either way, and a mutant that loops would wait out its time limit
    once more for each such checkpoint (most of the gate's CPU)."""
    statuses: dict[str, str] = {}
    for spec in bundle.checkpoints:
        if only is not None and spec.id not in only:
            continue
        if only is not None and any(statuses.get(used, "pass") != "pass" for used in bundle.used_by_closure(spec.id)):
            continue
        try:
            report = grade(bundle, InProcessHost(call_timeout=call_seconds), source, only=(spec.id,),
                           on_progress=_stop_at_first_failure)
        except _Decided as decided:
            statuses[spec.id] = decided.status
        else:
            statuses.update(report.statuses())
    return statuses


def _grade_source(item: tuple[str, tuple[str, ...] | None]) -> dict[str, str]:
    assert _WORKER_BUNDLE is not None
    source, only = item
    try:
        return grade_fail_fast(_WORKER_BUNDLE, source, only, _WORKER_CALL_SECONDS)
    except MemoryError:
        return {spec.id: "error" for spec in _WORKER_BUNDLE.checkpoints if only is None or spec.id in only}


def grade_sources(bundle: Bundle, sources: list[str], jobs: int, call_seconds: float,
                  only: list[tuple[str, ...] | None] | None = None) -> list[dict[str, str]]:
    """Each source's checkpoint statuses (of every checkpoint, or of `only[i]` for source i), each
    graded in a memory-capped child of its own. A source whose child dies without an answer is an
    error on every checkpoint: so it would be for a learner, whose sandbox has a memory limit too."""
    global _WORKER_BUNDLE, _WORKER_CALL_SECONDS
    _WORKER_BUNDLE, _WORKER_CALL_SECONDS = bundle, call_seconds
    selections = only if only is not None else [None] * len(sources)
    answers = map_forked(_grade_source, list(zip(sources, selections)), jobs, WORKER_MEMORY_BYTES, CHILD_WALL_SECONDS)
    return [{spec.id: "error" for spec in bundle.checkpoints if selection is None or spec.id in selection}
            if isinstance(answer, ChildDied) else answer
            for answer, selection in zip(answers, selections)]


def grade_mutants(bundle: Bundle, solution: str, mutants: list[Mutant], jobs: int, call_seconds: float,
                  name: str = SOLUTION_FILE, reaching: list[list[str]] | None = None) -> list[dict[str, str]]:
    """Each mutant's checkpoint statuses; the unmutated file first, through the same children, so
    that a machine where grading itself fails cannot pass off every mutant as killed. (A file that
    fails its tests in-process is found before this, by the quality gate's root-cause check.)
    With `reaching` (per mutant, the checkpoints whose function runs its change), a mutant is graded
    on those checkpoints only: the verdict on the others is never read, and costs most of the run."""
    only: list[tuple[str, ...] | None] = [None]
    only += [None] * len(mutants) if reaching is None else [tuple(checkpoints) for checkpoints in reaching]
    sources = [solution] + [mutant.source for mutant in mutants]
    reference, *statuses = grade_sources(bundle, sources, jobs, call_seconds, only)
    failing = sorted(checkpoint for checkpoint, status in reference.items() if status != "pass")
    if failing:
        raise MutationSetupError(f"{name} does not pass {', '.join(failing)} in a grading worker "
                                 f"({WORKER_MEMORY_BYTES >> 20} MiB memory, {call_seconds:g} s per call)")
    return statuses
