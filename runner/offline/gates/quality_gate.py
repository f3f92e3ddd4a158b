"""The quality gate on a lesson's tests: known solutions must get the verdicts they are known to deserve.

`checkpoints/<lesson>/` holds, besides the tests, solutions whose verdict is known:
- `solution.py` and `correct/*.py` must pass every test, offline-only tests included;
- `wrong/<checkpoint>__<mistake>.py` must fail its named checkpoint with the shipped tests
  alone (the ones the browser runs), and pass the other checkpoints, except those that use the
  named one (`uses` in checkpoints.toml, directly or through another): they may fail too.

A known solution is either a whole module, or a variation of the reference: a file whose first
line is `# after: solution.py` holds only what differs (redefined functions, `del name` for a
function the learner forgot); it is graded as solution.py followed by that file, so a mistake is
written down once and a fix to the reference reaches every variation.

Used by the builder (a build fails on a broken gate), by `python -m runner gate`, and by the tests.

The known solutions run in the same sandbox as learner code (`ChildProcessHost`, one zygote for
the whole gate, a fresh child per solution): `wrong/` invites pasting in real submissions, and the
build runs the gate as whoever builds, root often. Only the tests run in this process.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.model import CheckpointResult
from runner.offline.sandbox.host import ChildProcessHost, SandboxError, SandboxLimits

AFTER_SOLUTION_MARKER = "# after: solution.py"
# Per call of a learner function; known-wrong solutions may loop forever on purpose.
GATE_CALL_SECONDS = 2.0
# Sandboxes (each a zygote and its child) grading known solutions at once.
GATE_SANDBOXES = 2


@dataclass(frozen=True)
class KnownSolution:
    path: Path
    expected: str  # "pass" for the reference and correct/, else the checkpoint it must fail
    source: str  # what is graded: the whole module, composed for variations of the reference

    @property
    def must_pass(self) -> bool:
        return self.expected == "pass"


@dataclass(frozen=True)
class GateFailure:
    """One known solution that does not get its known verdict on one checkpoint.

    `expected` is the known solution's expectation ("pass", or the checkpoint it must fail);
    `checkpoint`, `test`, `status` and `message` say what happened there (the first test that
    did not pass, for a solution that must pass); `expected_value`/`actual_value`/`difference`
    come from the test's comparison when it made one, hidden tests included (the teacher's view).
    `reason` is all of it as one English line.
    """

    path: Path
    expected: str
    reason: str
    checkpoint: str | None = None
    test: str | None = None
    status: str | None = None
    message: str = ""
    expected_value: str | None = None
    actual_value: str | None = None
    difference: str | None = None

    def to_json(self, lesson_dir: Path) -> dict:
        """The record `python -m runner gate --json` prints; the path relative to the lesson."""
        try:
            shown = self.path.resolve().relative_to(Path(lesson_dir).resolve()).as_posix()
        except ValueError:
            shown = str(self.path)
        record = asdict(self)
        record["path"] = shown
        return record


def failing_test(known: KnownSolution, checkpoint: CheckpointResult, reason_start: str) -> GateFailure:
    """A failure on `checkpoint`, told through its first test that did not pass."""
    test = checkpoint.first_failure
    if test is None:  # a checkpoint without tests is never a pass
        return GateFailure(known.path, known.expected, f"{reason_start} {checkpoint.id}: it has no tests",
                           checkpoint=checkpoint.id, status=checkpoint.status)
    reason = f"{reason_start} {checkpoint.id}: test '{test.name}' ({test.status})"
    if test.message:
        reason += f": {test.message}"
    if test.difference:
        reason += f" [{test.difference}]"
    return GateFailure(
        path=known.path, expected=known.expected, reason=reason, checkpoint=checkpoint.id, test=test.name,
        status=test.status, message=test.message, expected_value=test.expected, actual_value=test.actual,
        difference=test.difference,
    )


def compose_source(text: str, solution_text: str) -> str:
    """A variation of the reference is graded as the reference followed by the variation."""
    if text.startswith(AFTER_SOLUTION_MARKER):
        return solution_text.rstrip("\n") + "\n\n\n" + text
    return text


def known_solutions(lesson_dir: Path) -> list[KnownSolution]:
    lesson_dir = Path(lesson_dir)
    reference = lesson_dir / "solution.py"
    solution_text = reference.read_text(encoding="utf-8")
    found = [KnownSolution(reference, "pass", solution_text)]
    for path in sorted((lesson_dir / "correct").glob("*.py")):
        found.append(KnownSolution(path, "pass", compose_source(path.read_text(encoding="utf-8"), solution_text)))
    for path in sorted((lesson_dir / "wrong").glob("*.py")):
        checkpoint = path.stem.partition("__")[0]
        found.append(KnownSolution(path, checkpoint, compose_source(path.read_text(encoding="utf-8"), solution_text)))
    return found


def gate_limits(call_seconds: float) -> SandboxLimits:
    """The sandbox's limits for known solutions: the gate's call limit; the rest as for learners."""
    defaults = SandboxLimits()
    return SandboxLimits(call_seconds=call_seconds, submission_seconds=max(defaults.submission_seconds, 20 * call_seconds))


def check_quality_gate(lesson_dir: Path, call_seconds: float = GATE_CALL_SECONDS) -> list[GateFailure]:
    """Grade every known solution in the learners' sandbox; an empty list means the tests hold.

    Every failure is listed, one per known solution and checkpoint, so a build shows them all.
    A known-wrong solution may also fail the checkpoints that use its checkpoint (`uses` in
    checkpoints.toml, also through another): their functions call the broken one.
    """
    lesson_dir = Path(lesson_dir)
    full = load_bundle(lesson_dir, include_offline=True)
    shipped = load_bundle(lesson_dir, include_offline=False)
    solutions = known_solutions(lesson_dir)
    found: list[list[GateFailure]] = [[] for _ in solutions]
    waiting = list(reversed(range(len(solutions))))
    hidden = gate_private_folders(lesson_dir)

    def work() -> None:
        # One sandbox per thread: the children run in parallel, and much of a gate is waiting
        # (known-wrong solutions that loop until the call limit).
        with ChildProcessHost(gate_limits(call_seconds), hidden_paths=hidden,
                              lesson_modules=full.settings.offline_modules) as host:
            while True:
                try:
                    index = waiting.pop()
                except IndexError:
                    return
                try:
                    found[index] = _check_known(solutions[index], full, shipped, host)
                finally:
                    host.finish_submission()  # nothing of one known solution runs on into the next

    workers = min(GATE_SANDBOXES, len(solutions))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in [pool.submit(work) for _ in range(workers)]:
            done.result()  # a sandbox that could not be set up stops the gate with its reason
    return [failure for failures in found for failure in failures]


def gate_private_folders(lesson_dir: Path) -> list[str]:
    """What known solutions must not see: as for learner code (the checkpoints tree with the
    hidden tests, the checkout and its history)."""
    from runner.offline.grading.batch import private_folders  # batch imports the sandbox too; import when used

    return private_folders(lesson_dir, lesson_dir, [])


def _check_known(known: KnownSolution, full, shipped, host: ChildProcessHost) -> list[GateFailure]:
    """The failures of one known solution (none when it gets its known verdict)."""
    failures: list[GateFailure] = []
    if not known.must_pass and known.expected not in shipped.function_names:
        return [GateFailure(known.path, known.expected, f"names no checkpoint of this lesson: '{known.expected}'")]
    bundle = full if known.must_pass else shipped
    # A solution that must pass must do so within the lesson's check limits, as in the page
    # (which is slower still): a reference the page would call "Te traag" stops the build.
    report = grade(bundle, host, known.source, reveal=True,
                   check_limits=bundle.check_limits() if known.must_pass else None)
    if getattr(host, "sandbox_failure", None):
        raise SandboxError(f"the sandbox could not run {known.path.name}: {host.sandbox_failure}")
    if known.must_pass:
        failures.extend(failing_test(known, checkpoint, "should pass but fails")
                        for checkpoint in report.checkpoints if checkpoint.status != "pass")
        return failures
    own = report.checkpoint(known.expected)
    if own.status == "pass":
        failures.append(GateFailure(known.path, known.expected,
                                    f"known to be wrong, but passes checkpoint {known.expected}",
                                    checkpoint=known.expected, status="pass"))
    dependents = shipped.dependents(known.expected)
    may_fail = {known.expected, *dependents}
    allowed = known.expected + (f" and what uses it ({', '.join(dependents)})" if dependents else "")
    failures.extend(failing_test(known, checkpoint, f"should fail only {allowed}, but also fails")
                    for checkpoint in report.checkpoints
                    if checkpoint.id not in may_fail and checkpoint.status != "pass")
    return failures
