"""The quality gate on a lesson's tests: known solutions must get the verdicts they are known to deserve.

`checkpoints/<lesson>/` holds, besides the tests, solutions whose verdict is known:
- `solution.py` and `correct/*.py` must pass every test, offline-only tests included;
- `wrong/<checkpoint>__<mistake>.py` must fail its named checkpoint with the shipped tests
  alone (the ones the browser runs), and pass the other checkpoints, except those that use the
  named one (`uses` in checkpoints.toml, directly or through another): they may fail too.

A known solution is either a whole module, or a variation of the reference: a file whose header
holds the line `# after: solution.py` holds only what differs (redefined functions, `del name` for
a function the learner forgot); it is graded as solution.py followed by that file, so a mistake is
written down once and a fix to the reference reaches every variation.

A known-wrong file names the test that must catch it, in its header (the `# ` lines it starts
with, in any order): `# caught by: <test name>`. The gate holds only when that test of the named
checkpoint fails, and by its own verdict: a crash of the learner's function (an unexpected
exception, a recursion limit) or a time-out catches it only when the header says so, with
`# ends in: <ExceptionName>` or `# ends in: time-out`. So a mistake that the tests notice only by
accident (another test, a crash on the way) is a failure of the gate, not a pass.

One root cause gives one line: a lesson whose tests do not load (BundleError), a checkpoint
without tests, or a reference that fails its own test is reported by itself, with the file and
line, and the known solutions are not judged against it (`lesson_root_causes`).

Used by the builder (a build fails on a broken gate), by `python -m runner gate`, and by the tests.

The known solutions run in the same sandbox as learner code (`ChildProcessHost`, one zygote for
the whole gate, a fresh child per solution): `wrong/` invites pasting in real submissions, and the
build runs the gate as whoever builds, root often. Only the tests run in this process.
"""

from __future__ import annotations

import re
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from runner.core.bundle import OFFLINE_DIR, SHIPPED_DIR, SOLUTION_FILE, Bundle, BundleError, bundle_hash, load_bundle
from runner.core.grade import LOAD_TEST_NAME, SIGNATURE_TEST_NAME, grade
from runner.core.host import InProcessHost
from runner.core.model import CheckpointResult, TestResult
from runner.offline.gates.gate_report import GateFailureRecord, GateReport, LoadErrorRecord, VerifiedBundle
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.protocol import SandboxError, SandboxLimits

AFTER_SOLUTION_MARKER = "# after: solution.py"
CAUGHT_BY_PREFIX = "# caught by: "
ENDS_IN_PREFIX = "# ends in: "
TIMEOUT_ENDING = "time-out"
# How a learner's function ended when a test reports it raised: "onverwachte fout: ZeroDivisionError: ..."
# (an error status) or "Je functie gaf TypeError." (a test that expected a ValueError).
_RAISED = re.compile(r"(?:onverwachte fout: |Je functie gaf )([A-Z][A-Za-z0-9_]*)")
# Per call of a learner function; known-wrong solutions may loop forever on purpose.
GATE_CALL_SECONDS = 2.0
# Sandboxes (each a zygote and its child) grading known solutions at once.
GATE_SANDBOXES = 2


@dataclass(frozen=True)
class KnownSolution:
    path: Path
    expected: str  # "pass" for the reference and correct/, else the checkpoint it must fail
    source: str  # what is graded: the whole module, composed for variations of the reference
    caught_by: str | None = None  # the header's `# caught by:` test name (known-wrong files)
    ends_in: str | None = None  # the header's `# ends in:` exception name or "time-out"

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
    line: int | None = None  # in `path`, where the cause is a line of a file (a test's definition)
    checkpoint: str | None = None
    test: str | None = None
    status: str | None = None
    message: str = ""
    expected_value: str | None = None
    actual_value: str | None = None
    difference: str | None = None

    def to_record(self, lesson_dir: Path) -> GateFailureRecord:
        """The record `python -m runner gate --json` prints; the path relative to the lesson."""
        try:
            shown = self.path.resolve().relative_to(Path(lesson_dir).resolve()).as_posix()
        except ValueError:
            shown = str(self.path)
        return GateFailureRecord(**{**asdict(self), "path": shown})


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


def header_lines(text: str) -> list[str]:
    """The `# ...` lines a file starts with: its header."""
    header = []
    for line in text.splitlines():
        if not line.startswith("# "):
            break
        header.append(line.rstrip())
    return header


def header_value(text: str, prefix: str) -> str | None:
    return next((line[len(prefix):].strip() for line in header_lines(text) if line.startswith(prefix)), None)


def compose_source(text: str, solution_text: str) -> str:
    """A variation of the reference is graded as the reference followed by the variation."""
    if AFTER_SOLUTION_MARKER in header_lines(text):
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
        text = path.read_text(encoding="utf-8")
        found.append(KnownSolution(path, checkpoint, compose_source(text, solution_text),
                                   header_value(text, CAUGHT_BY_PREFIX), header_value(text, ENDS_IN_PREFIX)))
    return found


def gate_limits(call_seconds: float) -> SandboxLimits:
    """The sandbox's limits for known solutions: the gate's call limit; the rest as for learners."""
    defaults = SandboxLimits()
    return SandboxLimits(call_seconds=call_seconds, submission_seconds=max(defaults.submission_seconds, 20 * call_seconds))


def ending(test: TestResult) -> str | None:
    """How the learner's code ended in a test that did not pass, when that was not the test's own
    verdict: "time-out", or the name of the exception it raised (RecursionError for a recursion
    limit); None for a verdict of the test itself (a wrong value, a missing ValueError, the
    signature)."""
    if test.status == "timeout":
        return TIMEOUT_ENDING
    raised = _RAISED.search(test.message)
    if raised is not None:
        return raised.group(1)
    if test.status == "error" and test.name not in (SIGNATURE_TEST_NAME, LOAD_TEST_NAME):
        return "error"
    return None


def describe_test(test: TestResult) -> str:
    text = f"test '{test.name}' ({test.status})"
    if test.message:
        text += f": {test.message}"
    return text


def test_location(bundle: Bundle, checkpoint: str, name: str, lesson_dir: Path) -> tuple[Path, int | None]:
    """The file and line where a test is defined (its function's `def`)."""
    for spec in bundle.checkpoint(checkpoint).tests:
        if spec.name == name:
            code = getattr(spec.run, "__code__", None)
            if code is not None:
                return Path(code.co_filename), code.co_firstlineno
    return lesson_dir / SHIPPED_DIR / f"{checkpoint}.py", None


def lesson_root_causes(lesson_dir: Path, full: Bundle, call_seconds: float = GATE_CALL_SECONDS) -> list[GateFailure]:
    """What makes every known solution's verdict meaningless, each cause once: no tests at all, a
    checkpoint without tests, the reference failing a test of its own lesson."""
    lesson_dir = Path(lesson_dir)
    reference = lesson_dir / SOLUTION_FILE
    if not any(spec.tests for spec in full.checkpoints):
        return [GateFailure(lesson_dir / SHIPPED_DIR, "pass", "no tests for any checkpoint")]
    causes = []
    for spec in full.checkpoints:
        if spec.shipped_test_count == 0:
            causes.append(GateFailure(lesson_dir / SHIPPED_DIR / f"{spec.id}.py", "pass",
                                      f"checkpoint {spec.id} has no tests", checkpoint=spec.id))
    if causes:
        return causes
    report = grade(full, InProcessHost(call_timeout=call_seconds), reference.read_text(encoding="utf-8"),
                   reveal=True, check_limits=full.check_limits())
    for checkpoint in report.checkpoints:
        test = checkpoint.first_failure
        if test is None:
            continue
        # A wrong value points at the test (or the reference); too slow is the reference's own.
        path, line = (reference, None) if test.status == "timeout" else test_location(
            full, checkpoint.id, test.name, lesson_dir)
        failure = failing_test(KnownSolution(reference, "pass", ""), checkpoint,
                               f"{SOLUTION_FILE} fails its own test of")
        causes.append(replace(failure, path=path, line=line))
    return causes


def lesson_root_cause(lesson_dir: Path) -> str | None:
    """The first root cause as one line (`file:line: message`), for the mutation gate."""
    lesson_dir = Path(lesson_dir)
    try:
        full = load_bundle(lesson_dir, include_offline=True)
    except BundleError as error:
        if error.file and error.reason:
            where = f"{lesson_dir / error.file}" + (f":{error.line}" if error.line else "")
            return f"{where}: the tests cannot be loaded: {error.reason}"
        return f"{lesson_dir}: the tests cannot be loaded: {error}"
    causes = lesson_root_causes(lesson_dir, full)
    if not causes:
        return None
    cause = causes[0]
    return f"{cause.path}{f':{cause.line}' if cause.line else ''}: {cause.reason}"


@dataclass
class KnownVerdict:
    """What the gate saw of one known solution: for a known-wrong one, the test that decided its
    own checkpoint (its first test that did not pass); the failures of the gate it caused."""

    known: KnownSolution
    deciding: TestResult | None = None
    failures: list[GateFailure] = field(default_factory=list)


def caught_for_the_right_reason(known: KnownSolution, own: CheckpointResult, shipped: Bundle) -> GateFailure | None:
    """The named test catches the known mistake, by its own verdict or by the ending it names."""
    def failure(reason: str, test: TestResult | None = None) -> GateFailure:
        return GateFailure(known.path, known.expected, reason, checkpoint=known.expected,
                           test=None if test is None else test.name, status=None if test is None else test.status,
                           message="" if test is None else test.message)

    deciding = own.first_failure
    if known.caught_by is None:
        hint = f" (now: '{deciding.name}')" if deciding is not None else ""
        return failure(f"names no test that must catch it: add a header line '{CAUGHT_BY_PREFIX}<test name>'{hint}")
    named = next((test for test in own.tests if test.name == known.caught_by), None)
    # Besides the lesson's tests, the grader's own: the function's signature, loading the code.
    names = {spec.name for spec in shipped.checkpoint(known.expected).tests} | {SIGNATURE_TEST_NAME, LOAD_TEST_NAME}
    if known.caught_by not in names:
        return failure(f"'{CAUGHT_BY_PREFIX}{known.caught_by}': checkpoint {known.expected} has no shipped test of that name")
    if named is None:  # a grader's test before it (loading the code, the signature) stopped the checkpoint
        stopped_by = "no test ran" if deciding is None else describe_test(deciding)
        return failure(f"should be caught by test '{known.caught_by}', but the checkpoint stopped before it: "
                       f"{stopped_by}", deciding)
    if named.status == "pass":
        return failure(f"should be caught by test '{named.name}', but that test passes; caught only by "
                       f"{describe_test(deciding)}", deciding)
    ended = ending(named)
    if ended != (known.ends_in or None):
        if ended is None:
            return failure(f"says it ends in {known.ends_in}, but {describe_test(named)}", named)
        way = "a time-out" if ended == TIMEOUT_ENDING else f"a crash ({ended})"
        return failure(f"should be caught by test '{named.name}', but is caught by {way} it does not name "
                       f"('{ENDS_IN_PREFIX}...'): {describe_test(named)}", named)
    return None


def judge_known_solutions(lesson_dir: Path, call_seconds: float = GATE_CALL_SECONDS) -> tuple[list[GateFailure], list[KnownVerdict]]:
    """The lesson's root causes, or, when it has none, every known solution's verdict.

    Raises BundleError when the tests cannot be loaded (one line with its file and line)."""
    lesson_dir = Path(lesson_dir)
    full = load_bundle(lesson_dir, include_offline=True)
    return judge_loaded(lesson_dir, full, shipped_part(full, lesson_dir), call_seconds)


def shipped_part(full: Bundle, lesson_dir: Path) -> Bundle:
    """The bundle the browser grades with, taken from the full one rather than loaded again:
    each checkpoint's shipped tests come first (`shipped_test_count`), so it is those, and the
    hash is runner.core.bundle's over the files they came from (equal to a fresh
    `load_bundle(include_offline=False)`: tests/runner_offline/test_gate_report.py)."""
    files = tuple(name for name in full.files if not name.startswith(f"{OFFLINE_DIR}/"))
    return replace(
        full,
        checkpoints=tuple(replace(spec, tests=spec.tests[:spec.shipped_test_count]) for spec in full.checkpoints),
        bundle_sha256=bundle_hash({name: (Path(lesson_dir) / name).read_bytes() for name in files}),
        files=files,
        include_offline=False,
    )


def judge_loaded(lesson_dir: Path, full: Bundle, shipped: Bundle,
                 call_seconds: float = GATE_CALL_SECONDS) -> tuple[list[GateFailure], list[KnownVerdict]]:
    """`judge_known_solutions` on the lesson's bundles, loaded with and without its offline tests."""
    causes = lesson_root_causes(lesson_dir, full, call_seconds)
    if causes:
        return causes, []
    solutions = known_solutions(lesson_dir)
    verdicts = [KnownVerdict(known) for known in solutions]
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
                    _judge_known(verdicts[index], full, shipped, host)
                finally:
                    host.finish_submission()  # nothing of one known solution runs on into the next

    workers = min(GATE_SANDBOXES, len(solutions))
    if workers:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for done in [pool.submit(work) for _ in range(workers)]:
                done.result()  # a sandbox that could not be set up stops the gate with its reason
    return [], verdicts


def gate_private_folders(lesson_dir: Path) -> list[str]:
    """What known solutions must not see: as for learner code (the checkpoints tree with the
    hidden tests, the checkout and its history)."""
    from runner.offline.grading.batch import private_folders  # batch imports the sandbox too; import when used

    return private_folders(lesson_dir, lesson_dir, [])


def _judge_known(verdict: KnownVerdict, full: Bundle, shipped: Bundle, host: ChildProcessHost) -> None:
    """Grade one known solution in the sandbox; its gate failures go into `verdict.failures`."""
    known, failures = verdict.known, verdict.failures
    if not known.must_pass and known.expected not in shipped.function_names:
        failures.append(GateFailure(known.path, known.expected,
                                    f"names no checkpoint of this lesson: '{known.expected}'"))
        return
    bundle = full if known.must_pass else shipped
    # A solution that must pass must do so within the lesson's check limits, as in the page
    # (which is slower still): a reference the page would call "Te traag" stops the build.
    report = grade(bundle, host, known.source, reveal=True,
                   check_limits=bundle.check_limits() if known.must_pass else None)
    if host.sandbox_failure:
        raise SandboxError(f"the sandbox could not run {known.path.name}: {host.sandbox_failure}")
    if known.must_pass:
        failures.extend(failing_test(known, checkpoint, "should pass but fails")
                        for checkpoint in report.checkpoints if checkpoint.status != "pass")
        return
    own = report.checkpoint(known.expected)
    verdict.deciding = own.first_failure
    if own.status == "pass":
        failures.append(GateFailure(known.path, known.expected,
                                    f"known to be wrong, but passes checkpoint {known.expected}",
                                    checkpoint=known.expected, status="pass"))
    else:
        wrong_reason = caught_for_the_right_reason(known, own, shipped)
        if wrong_reason is not None:
            failures.append(wrong_reason)
    dependents = shipped.dependents(known.expected)
    may_fail = {known.expected, *dependents}
    allowed = known.expected + (f" and what uses it ({', '.join(dependents)})" if dependents else "")
    failures.extend(failing_test(known, checkpoint, f"should fail only {allowed}, but also fails")
                    for checkpoint in report.checkpoints
                    if checkpoint.id not in may_fail and checkpoint.status != "pass")


def check_quality_gate(lesson_dir: Path, call_seconds: float = GATE_CALL_SECONDS) -> list[GateFailure]:
    """Grade every known solution in the learners' sandbox; an empty list means the tests hold.

    Every failure is listed, one per known solution and checkpoint, so a build shows them all;
    a root cause of the whole lesson (see `lesson_root_causes`) is listed alone, once.
    A known-wrong solution may also fail the checkpoints that use its checkpoint (`uses` in
    checkpoints.toml, also through another): their functions call the broken one.
    """
    causes, verdicts = judge_known_solutions(lesson_dir, call_seconds)
    return causes or [failure for verdict in verdicts for failure in verdict.failures]


def gate_report(lesson: str, lesson_dir: Path, call_seconds: float = GATE_CALL_SECONDS) -> GateReport:
    """The whole gate as the builder reads it (`python -m runner gate --json`): the failures (as
    `check_quality_gate`), or why the tests cannot be loaded, or why the gate itself broke; and,
    once the tests loaded, the shipped bundle it verified."""
    lesson_dir = Path(lesson_dir)
    try:
        full = load_bundle(lesson_dir, include_offline=True)
        shipped = shipped_part(full, lesson_dir)
    except BundleError as error:
        return GateReport(lesson, load_error=LoadErrorRecord(str(error), error.file, error.line, error.reason))
    verified = VerifiedBundle(shipped.bundle_sha256, shipped.files)
    try:
        causes, verdicts = judge_loaded(lesson_dir, full, shipped, call_seconds)
        count = len(known_solutions(lesson_dir))
    except SandboxError as error:  # in the words `python -m runner` has for it
        return GateReport(lesson, crash=f"the sandbox could not be set up: {error}", verified=verified)
    except Exception as error:  # the gate itself broke: its reason in one line, the traceback on stderr
        traceback.print_exc()
        first = (str(error).strip().splitlines() or [""])[0]
        return GateReport(lesson, crash=f"{type(error).__name__}: {first}".rstrip(": "), verified=verified)
    failures = causes or [failure for verdict in verdicts for failure in verdict.failures]
    return GateReport(lesson, known_solutions=count, failures=[failure.to_record(lesson_dir) for failure in failures],
                      verified=verified)
