"""The mutation gate: mechanically made wrong solutions must fail the checkpoints they break.

`runner.offline.gates.mutants` makes the mutants of `checkpoints/<lesson>/solution.py` and of every
correct style in `correct/*.py`: a rule that one file checks through a shared helper is checked
field by field in another, so each style's own mistakes are made and graded. Each one is graded
as a learner submission with the shipped tests (the ones the browser runs, like the known-wrong
solutions of the quality gate), while the tests' `reference` stays the unmutated solution.py: the
bundle is loaded from the files, the mutant is only ever the submitted source.

A mutant is a wrong answer to every checkpoint whose function runs the changed code (found from
the names each top-level function uses). For each such checkpoint it is killed when that
checkpoint does not pass, and survives when it does. A survivor is a missing test, unless it is
listed with a reason in `checkpoints/<lesson>/equivalent_mutants.toml` (with `file = "correct/<name>.py"`
for a mutant of a correct style): a change that no input can tell apart. A listing is checked by a
seeded differential run: the lesson's `mutant_inputs.py` makes inputs for each checkpoint
function, and both the unmutated file and the mutant are called with them; any different outcome (value, exception, changed arguments, shared
objects, time-out) makes the listing invalid. The same run is done for unlisted survivors, so the
report can show an input that tells them apart: the start of the missing test. Each mutant is
graded, and run on the inputs, in a forked child process of its own whose memory is capped
(`runner.offline.gates.forked`), with the quality gate's per-call time limit: a mutant may loop and
allocate forever, and one that kills its child is a difference, never a crash of the gate.

This module runs the gate and renders its report; its parts: `mutation_files` (the lesson's files
and listings), `mutant_grading` (grading in memory-capped children), `differential_run` (the
seeded inputs).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.core.bundle import SOLUTION_FILE, Bundle, load_bundle
from runner.core.host import InProcessHost
from runner.offline.gates.differential_run import DIFFERENTIAL_CALLS, Difference, differences_in_workers
from runner.offline.gates.mutant_grading import CHILD_WALL_SECONDS, grade_mutants
from runner.offline.gates.mutants import Mutant, checkpoints_reached, make_mutants, reached_scopes
from runner.offline.gates.mutation_files import (
    EQUIVALENT_FILE,
    INPUTS_FILE,
    EquivalentListing,
    MutationSetupError,
    mutated_files,
    read_equivalent_listings,
)
from runner.offline.gates.quality_gate import GATE_CALL_SECONDS


@dataclass
class MutantResult:
    mutant: Mutant
    checkpoints: list[str]  # the checkpoints whose function runs the changed code
    statuses: dict[str, str]  # checkpoint -> status; none where a checkpoint it uses failed (mutant_grading)
    listing: EquivalentListing | None = None
    differences: list[Difference] = field(default_factory=list)
    file: str = SOLUTION_FILE  # the mutated file, relative to the lesson
    # Checkpoints it passes while a checkpoint they use (checkpoints.toml `uses`), which runs the
    # same changed code, fails: the learner is told there, as the quality gate allows for `wrong/`.
    caught_upstream: frozenset[str] = frozenset()

    def survives(self, checkpoint: str) -> bool:
        return self.statuses.get(checkpoint) == "pass" and checkpoint not in self.caught_upstream

    @property
    def surviving(self) -> list[str]:
        return [checkpoint for checkpoint in self.checkpoints if self.survives(checkpoint)]


@dataclass(frozen=True)
class CheckpointTally:
    checkpoint: str
    made: int
    killed: int
    equivalent: int
    survivors: int


@dataclass(frozen=True)
class FileTally:
    file: str  # relative to the lesson
    made: int
    killed: int  # mutants that fail every checkpoint whose function runs the changed code
    equivalent: int
    survivors: int


@dataclass
class MutationRun:
    lesson: str
    lesson_dir: Path
    solution: str
    results: list[MutantResult]
    problems: list[str]  # one line each, `file:line: message` where there is a file
    seconds: float
    jobs: int
    checkpoint_ids: tuple[str, ...]
    sources: dict[str, str] = field(default_factory=dict)  # each mutated file's text, by its name
    call_seconds: float = GATE_CALL_SECONDS  # the per-call limit it was graded with

    def file_tallies(self) -> list[FileTally]:
        tallies = []
        for name in self.sources or {SOLUTION_FILE: self.solution}:
            mine = [result for result in self.results if result.file == name]
            surviving = [result for result in mine if result.surviving]
            equivalent = sum(1 for result in surviving if result.listing is not None and not result.differences)
            tallies.append(FileTally(name, len(mine), len(mine) - len(surviving), equivalent,
                                     len(surviving) - equivalent))
        return tallies

    def tallies(self) -> list[CheckpointTally]:
        tallies = []
        for checkpoint in self.checkpoint_ids:
            reaching = [result for result in self.results if checkpoint in result.checkpoints]
            surviving = [result for result in reaching if result.survives(checkpoint)]
            equivalent = sum(1 for result in surviving if result.listing is not None and not result.differences)
            tallies.append(CheckpointTally(checkpoint, len(reaching), len(reaching) - len(surviving),
                                           equivalent, len(surviving) - equivalent))
        return tallies

    def unexplained(self) -> list[MutantResult]:
        """Survivors without a listing, and listed ones that the differential run tells apart."""
        return [result for result in self.results
                if result.surviving and (result.listing is None or result.differences)]


def caught_upstream(bundle: Bundle, checkpoints: list[str], statuses: dict[str, str]) -> frozenset[str]:
    """The reached checkpoints that pass while one they use, also reached, does not."""
    return frozenset(
        checkpoint for checkpoint in checkpoints
        if statuses.get(checkpoint) == "pass" and any(
            used in checkpoints and statuses.get(used, "pass") != "pass" for used in bundle.used_by_closure(checkpoint)))


def _file_source(lesson_dir: Path, name: str, solution: str) -> tuple[str, int]:
    """The text graded for a mutated file, and the line of that text where the file's own lines
    begin: a variation of the reference (`# after: solution.py`) is graded composed, and only its
    own lines are mutated (the reference's are mutated once, as solution.py)."""
    from runner.offline.gates.quality_gate import compose_source
    if name == SOLUTION_FILE:
        return solution, 1
    text = (lesson_dir / name).read_text(encoding="utf-8")
    composed = compose_source(text, solution)
    return composed, len(composed.splitlines()) - len(text.splitlines()) + 1


def run_mutation(lesson_dir: Path, jobs: int = 2, call_seconds: float = GATE_CALL_SECONDS,
                 differential_calls: int = DIFFERENTIAL_CALLS, files: Iterable[str] | None = None) -> MutationRun:
    """Make, grade and judge every mutant of the lesson's solution.py and of each correct/*.py
    (or of `files` only, names relative to the lesson)."""
    from runner.offline.gates.quality_gate import lesson_root_cause
    started = time.perf_counter()
    lesson_dir = Path(lesson_dir)
    cause = lesson_root_cause(lesson_dir)
    if cause is not None:
        raise MutationSetupError(cause)
    solution = (lesson_dir / SOLUTION_FILE).read_text(encoding="utf-8")
    bundle = load_bundle(lesson_dir, include_offline=False)
    checkpoint_ids = list(bundle.function_names)
    listings = read_equivalent_listings(lesson_dir)
    names = mutated_files(lesson_dir)
    if files is not None:
        wanted = list(files)
        unknown = [name for name in wanted if name not in names]
        if unknown:
            raise MutationSetupError(f"{lesson_dir / unknown[0]}: not solution.py or a correct/<name>.py of this lesson")
        names = [name for name in names if name in wanted]
    has_inputs = (lesson_dir / INPUTS_FILE).exists()
    listing_path = lesson_dir / EQUIVALENT_FILE
    results: list[MutantResult] = []
    problems: list[str] = []
    sources: dict[str, str] = {}
    for name in names:
        source, own_start = _file_source(lesson_dir, name, solution)
        sources[name] = source
        # Load it once here, before the children fork: they inherit its imports (numpy takes
        # seconds to import, on a busy machine more than a call's time limit in every child).
        warm = InProcessHost(call_timeout=CHILD_WALL_SECONDS)
        warm.load(source, bundle.function_names)
        warm.close()
        mutants = [mutant for mutant in make_mutants(source) if mutant.line >= own_start]
        reached = reached_scopes(source)
        reaching = [checkpoints_reached(mutant, reached, checkpoint_ids) for mutant in mutants]
        # A mutant that no checkpoint's function runs needs no grading: nothing can kill it.
        graded = [index for index, checkpoints in enumerate(reaching) if checkpoints]
        found = grade_mutants(bundle, source, [mutants[index] for index in graded], jobs, call_seconds, name,
                              [reaching[index] for index in graded])
        statuses: list[dict[str, str]] = [{} for _ in mutants]
        for index, status in zip(graded, found):
            statuses[index] = status
        by_key = {listing.key: listing for listing in listings if listing.file == name}
        file_results = [
            MutantResult(mutant, checkpoints, status, by_key.get(mutant.key), file=name,
                         caught_upstream=caught_upstream(bundle, checkpoints, status))
            for mutant, checkpoints, status in zip(mutants, reaching, statuses)
        ]
        results.extend(file_results)
        made_keys = {mutant.key for mutant in mutants}
        for listing in by_key.values():
            if listing.key not in made_keys:
                problems.append(f"{listing_path}:{listing.line}: no such mutant (any more): {listing.key!r}")
        surviving = [result for result in file_results if result.surviving]
        if has_inputs:
            found = differences_in_workers(lesson_dir, source, bundle.function_names,
                                           [(result.mutant, result.surviving) for result in surviving],
                                           jobs, differential_calls, call_seconds)
            for result, differences in zip(surviving, found):
                result.differences = differences
        for result in file_results:
            if result.listing is not None and not result.surviving:
                problems.append(f"{listing_path}:{result.listing.line}: listed as equivalent, but the tests kill it: "
                                f"{result.mutant.key!r}")
                continue
            if not result.surviving:
                continue
            if result.listing is None:
                problems.append(f"{lesson_dir / name}:{result.mutant.line - own_start + 1}: mutant survives "
                                f"{', '.join(result.surviving)}: {result.mutant.key}")
            elif not has_inputs:
                problems.append(f"{listing_path}:{result.listing.line}: cannot be checked without {INPUTS_FILE}: "
                                f"{result.mutant.key!r}")
            elif result.differences:
                first = result.differences[0]
                problems.append(f"{listing_path}:{result.listing.line}: not equivalent, {first.call} gives "
                                f"{first.mutant} instead of {first.reference}: {result.mutant.key!r}")
    return MutationRun(bundle.lesson, lesson_dir, solution, results, problems,
                       time.perf_counter() - started, jobs, bundle.function_names, sources, call_seconds)


def run_mutation_checked(lesson_dir: Path, files: list[str] | None = None,
                         check_inputs: bool = False) -> tuple[MutationRun, list[tuple[str, str]] | None]:
    """`run_mutation`, and with `check_inputs` its `undetected_by_inputs` too: one call, so a
    caller can run both in a fresh interpreter (`run_in_fresh_process`)."""
    run = run_mutation(lesson_dir, files=files)
    return run, undetected_by_inputs(run) if check_inputs else None


def run_in_fresh_process(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` in a newly started interpreter, its answer pickled back.

    Each mutant is graded in a child forked from the process that runs the gate, and a fork costs
    in proportion to what that process maps: forked from a test worker that has run the rest of
    a test suite (a browser driver, hundreds of thousands of objects), the same gate took two to
    four times the CPU it takes from a fresh interpreter (measured for the suite, issue 20)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


# ---- the report -------------------------------------------------------------------------------


def render_mutation_report(run: MutationRun) -> str:
    """Plain text: a table per checkpoint, then each survivor not explained away, with its diff."""
    files = run.file_tallies()
    lines = [f"mutation gate of {run.lesson}: {len(run.results)} mutants of {len(files)} "
             f"{'file' if len(files) == 1 else 'files'} ({run.seconds:.1f} s, {run.jobs} processes)", ""]
    lines.append(f"{'file':<40} {'made':>5} {'killed':>7} {'equivalent':>11} {'survivors':>10}")
    for tally in files:
        lines.append(f"{tally.file:<40} {tally.made:>5} {tally.killed:>7} {tally.equivalent:>11} {tally.survivors:>10}")
    lines.append("")
    lines.append(f"{'checkpoint':<24} {'made':>5} {'killed':>7} {'equivalent':>11} {'survivors':>10}")
    for tally in run.tallies():
        lines.append(f"{tally.checkpoint:<24} {tally.made:>5} {tally.killed:>7} {tally.equivalent:>11} {tally.survivors:>10}")
    for result in run.unexplained():
        lines.append("")
        state = "listed as equivalent, but differs" if result.listing is not None else "survives"
        lines.append(f"{state}: {result.file}: {', '.join(result.surviving)}: {result.mutant.key}")
        for difference in result.differences:
            lines.append(f"  differs on {difference.call}: reference {difference.reference}, mutant {difference.mutant}")
        lines.append(result.mutant.diff(run.sources.get(result.file, run.solution), result.file).rstrip("\n"))
    return "\n".join(lines) + "\n"


def undetected_by_inputs(run: MutationRun, calls: int = DIFFERENTIAL_CALLS) -> list[tuple[str, str]]:
    """(checkpoint, mutant key) for each killed mutant the differential run cannot tell apart from
    the reference: the inputs are too weak to check a listing of such a mutant. Empty is the aim."""
    if not (run.lesson_dir / INPUTS_FILE).exists():
        return [(checkpoint, f"(no {INPUTS_FILE})") for checkpoint in run.checkpoint_ids]
    missed = []
    for name, source in (run.sources or {SOLUTION_FILE: run.solution}).items():
        work = []
        for result in run.results:
            # Killed by the checkpoint's own tests (a pass excused upstream shows nothing there).
            killed = [checkpoint for checkpoint in result.checkpoints
                      if checkpoint in result.statuses and result.statuses[checkpoint] != "pass"]
            if killed and result.file == name:
                work.append((result.mutant, killed))
        found = differences_in_workers(run.lesson_dir, source, run.checkpoint_ids, work, run.jobs, calls,
                                       run.call_seconds)
        for (mutant, killed), differences in zip(work, found):
            told_apart = {difference.checkpoint for difference in differences}
            missed.extend((checkpoint, f"{name}: {mutant.key}" if name != SOLUTION_FILE else mutant.key)
                          for checkpoint in killed if checkpoint not in told_apart)
    return missed
