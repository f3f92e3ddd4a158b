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
"""

from __future__ import annotations

import random
import time
import tomllib
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.core.bundle import SHARED_FILE, SHIPPED_DIR, SOLUTION_FILE, Bundle, load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.core.model import CallOutcome, TestResult
from runner.offline.gates.forked import ChildDied, map_forked
from runner.offline.gates.mutants import Mutant, checkpoints_reached, make_mutants, reached_scopes
from runner.offline.gates.quality_gate import GATE_CALL_SECONDS

EQUIVALENT_FILE = "equivalent_mutants.toml"
CORRECT_DIR = "correct"
INPUTS_FILE = "mutant_inputs.py"
# Inputs per checkpoint function in the differential run, from this seed on.
DIFFERENTIAL_CALLS = 300
DIFFERENTIAL_SEED = 20261201
# Per worker process, beyond what it maps when it starts: a mutant that appends forever gets a
# MemoryError instead of the machine.
WORKER_MEMORY_BYTES = 2 * 1024**3
# A child still busy after this is stopped: each call has its own limit, this catches the rest.
CHILD_WALL_SECONDS = 300.0


@dataclass(frozen=True)
class EquivalentListing:
    key: str
    reason: str
    line: int  # in equivalent_mutants.toml, for one-line `file:line: message` errors
    file: str = SOLUTION_FILE  # the mutated file, relative to the lesson: solution.py or correct/<name>.py


@dataclass(frozen=True)
class Difference:
    """One input on which a mutant and the reference behave differently."""

    checkpoint: str
    call: str  # the call, shortened, as Python source
    reference: str
    mutant: str


@dataclass
class MutantResult:
    mutant: Mutant
    checkpoints: list[str]  # the checkpoints whose function runs the changed code
    statuses: dict[str, str]  # checkpoint -> status when this mutant was graded
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


# ---- reading the lesson's files ----------------------------------------------------------------


class MutationSetupError(Exception):
    """The lesson's mutation files are broken: one line, `file:line: message`."""


def read_equivalent_listings(lesson_dir: Path) -> list[EquivalentListing]:
    path = lesson_dir / EQUIVALENT_FILE
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MutationSetupError(f"{path}: {error}") from None
    entries = data.get("mutant", [])
    unknown = set(data) - {"mutant"}
    if unknown:
        raise MutationSetupError(f"{path}:1: unknown top-level key '{sorted(unknown)[0]}' (only [[mutant]] entries)")
    listings, seen = [], set()
    for index, entry in enumerate(entries):
        line = _entry_line(text, index)
        if not isinstance(entry, dict) or not {"key", "reason"} <= set(entry) <= {"key", "reason", "file"}:
            raise MutationSetupError(f"{path}:{line}: a [[mutant]] has exactly a key and a reason (and a file "
                                     f"for a correct style)")
        key, reason, file = entry["key"], entry["reason"], entry.get("file", SOLUTION_FILE)
        if not isinstance(key, str) or not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            raise MutationSetupError(f"{path}:{line}: key and reason are strings; the reason is one line")
        if not isinstance(file, str) or not (lesson_dir / file).is_file() or file not in mutated_files(lesson_dir):
            raise MutationSetupError(f"{path}:{line}: file is solution.py or a correct/<name>.py of this lesson: {file!r}")
        if (file, key) in seen:
            raise MutationSetupError(f"{path}:{line}: mutant listed twice: {key!r}")
        seen.add((file, key))
        listings.append(EquivalentListing(key, reason.strip(), line, file))
    return listings


def mutated_files(lesson_dir: Path) -> list[str]:
    """solution.py and each correct style, relative to the lesson: the files whose mutants are made."""
    return [SOLUTION_FILE] + [f"{CORRECT_DIR}/{path.name}" for path in sorted((lesson_dir / CORRECT_DIR).glob("*.py"))]


def _entry_line(text: str, index: int) -> int:
    """Line of the index-th `[[mutant]]` header."""
    count = -1
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == "[[mutant]]":
            count += 1
            if count == index:
                return number
    return 1


def _exec_lesson_file(path: Path, name: str, injected: dict) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__dict__.update(injected)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


InputMaker = Callable[[str, random.Random], list]


def load_input_maker(lesson_dir: Path) -> InputMaker | None:
    """`inputs(checkpoint, rng)` from the lesson's mutant_inputs.py, with `reference` and `shared`
    injected as in the tests; None when the lesson has no such file."""
    path = lesson_dir / INPUTS_FILE
    if not path.exists():
        return None
    reference = _exec_lesson_file(lesson_dir / SOLUTION_FILE, "werkplaats_mutation_reference", {})
    injected: dict = {"reference": reference}
    shared_path = lesson_dir / SHIPPED_DIR / SHARED_FILE
    if shared_path.exists():
        injected["shared"] = _exec_lesson_file(shared_path, "werkplaats_mutation_shared", {"reference": reference})
    module = _exec_lesson_file(path, "werkplaats_mutation_inputs", injected)
    maker = module.__dict__.get("inputs")
    if not callable(maker):
        raise MutationSetupError(f"{path}:1: defines no function inputs(checkpoint, rng)")
    return maker


# ---- the differential run ---------------------------------------------------------------------


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


# ---- grading the mutants ----------------------------------------------------------------------

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
    checkpoint is the status of its first test that does not pass, so it is the same too)."""
    statuses: dict[str, str] = {}
    for spec in bundle.checkpoints:
        if only is not None and spec.id not in only:
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
