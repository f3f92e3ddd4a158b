"""Pass 1: the quality gate on a lesson's hidden tests (runner.offline.gates.quality_gate), before anything is written.

The reference solution and correct/ must pass every test and each wrong/ solution must fail its
checkpoint (and may fail the checkpoints that use it); otherwise the tests cannot be trusted and
the build stops with every failure, one line each. The gate runs in a child interpreter with a
time limit, since the known-wrong solutions are code that misbehaves on purpose, and answers with
a `GateReport` in JSON (`python -m runner gate --json`, runner/offline/gates/gate_report.py, the
module both ends import), so nothing is scraped from its text.

A gate that passed also says which shipped tests it verified (a `VerifiedBundle`: their hash and
files); the render and write stages use that instead of executing the lesson's code again.

Every build gates every lesson, except within one `build.py serve` session: there PassedGates
remembers (in memory only) the inputs of each gate that passed and what it verified, and an
unchanged lesson skips it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from builder.errors import BuildError, raise_if_any
from builder.model import Lesson
from builder.paths import CODE_ROOT
from runner.core.bundle import BundleError, load_bundle
from runner.offline.gates.gate_report import GateReport, GateReportError, VerifiedBundle

TIME_LIMIT_SECONDS = 300
RUNNER_DIR = CODE_ROOT / "runner"  # what `python -m runner` runs, from CODE_ROOT


class PassedGates:
    """Per lesson's checkpoints folder: the digest of the gate inputs the last time its gate
    passed, and the bundle it verified then."""

    def __init__(self) -> None:
        self._passed: dict[Path, tuple[str, VerifiedBundle]] = {}

    def verified(self, lesson_dir: Path, digest: str) -> VerifiedBundle | None:
        """What the gate verified, when it passed on exactly these inputs."""
        passed = self._passed.get(lesson_dir.resolve())
        return passed[1] if passed is not None and passed[0] == digest else None

    def remember(self, lesson_dir: Path, digest: str, verified: VerifiedBundle) -> None:
        self._passed[lesson_dir.resolve()] = (digest, verified)


def verify_checkpoints(lesson: Lesson, passed_gates: PassedGates | None = None) -> VerifiedBundle | None:
    """Run the gate (raising BuildError when it fails), unless `passed_gates` knows these inputs
    passed; what it verified of the shipped tests (None for a lesson without checkpoints or tests)."""
    if not (lesson.checkpoints_dir / "tests").is_dir():
        # No hidden tests, nothing to gate: what ships is loaded here, once.
        return load_shipped(lesson) if lesson.checkpoints else None
    if passed_gates is None:
        return check_gate(lesson)
    # Digested before the gate runs: a file saved while it runs makes the next rebuild gate again.
    digest = gate_inputs_digest(lesson.checkpoints_dir)
    verified = passed_gates.verified(lesson.checkpoints_dir, digest)
    if verified is None:
        verified = check_gate(lesson)  # raises on failure, so a failing gate is never remembered
        passed_gates.remember(lesson.checkpoints_dir, digest, verified)
    return verified


def load_shipped(lesson: Lesson) -> VerifiedBundle:
    """The shipped bundle of a lesson the gate does not run on, loaded in this process."""
    try:
        bundle = load_bundle(lesson.checkpoints_dir, include_offline=False)
    except BundleError as error:
        raise load_error(lesson, error) from None
    return VerifiedBundle(bundle.bundle_sha256, bundle.files)


def gate_inputs_digest(lesson_dir: Path) -> str:
    """SHA-256 over all the gate's verdict depends on: the lesson's checkpoint files, the runner
    that grades them and the interpreter that runs it."""
    digest = hashlib.sha256(sys.executable.encode() + b"\0")
    for path in [*gate_files(lesson_dir.resolve()), *gate_files(RUNNER_DIR)]:
        try:
            content = path.read_bytes()
        except FileNotFoundError:
            continue  # gone since the listing (an editor's temporary file): no input then
        digest.update(str(path).encode() + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()


def gate_files(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.rglob("*")):
        parts = path.relative_to(directory).parts
        # Bytecode is written by the imports of the gate itself, and an editor's swap and backup
        # files come and go while one saves: none of them is an input of the gate.
        if any(part == "__pycache__" or part.startswith(".") for part in parts) or path.name.endswith("~"):
            continue
        if path.is_file():
            yield path


def check_gate(lesson: Lesson) -> VerifiedBundle:
    """What the gate verified; raises one BuildError per gate failure (BuildErrors when there are several)."""
    completed = run_gate(lesson)
    raise_if_any(gate_errors(lesson, completed))
    report = GateReport.from_json(completed.stdout)  # gate_errors found it a report that passed
    if report.verified is None:
        raise BuildError(lesson.checkpoints_shown_dir, None, "quality gate: it did not say which tests it verified")
    return report.verified


def run_gate(lesson: Lesson) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "runner", "gate", "--lesson", lesson.id,
               "--checkpoints-dir", str(lesson.checkpoints_dir.parent), "--json"]
    try:
        return subprocess.run(command, cwd=CODE_ROOT, capture_output=True, text=True,
                              encoding="utf-8", timeout=TIME_LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        raise BuildError(lesson.checkpoints_shown_dir, None,
                         f"the quality gate did not finish within {TIME_LIMIT_SECONDS} seconds") from None


def gate_errors(lesson: Lesson, completed: subprocess.CompletedProcess[str]) -> list[BuildError]:
    """The gate's answer (a GateReport) as build errors: one per failure, named by the known
    solution's file as the teacher knows it (`checkpoints/<id>/wrong/...`)."""
    try:
        report = GateReport.from_json(completed.stdout)
    except GateReportError:
        # The gate's interpreter died before it could answer (a usage error, an import that
        # failed): all there is, is its own words, first line.
        first = (completed.stderr.strip().splitlines() or [f"exit code {completed.returncode}"])[0]
        return [BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {first.removeprefix('error: ')}")]
    if report.crash is not None:
        return [BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {report.crash}")]
    failure = report.load_error
    if failure is not None:
        return [load_error(lesson, BundleError(failure.text, failure.file, failure.line, failure.reason))]
    shown = lesson.checkpoints_shown_dir
    return [BuildError(f"{shown}/{failure.path}", failure.line, failure.reason) for failure in report.failures]


def load_error(lesson: Lesson, error: BundleError) -> BuildError:
    """`checkpoints/<id>/tests/<file>.py:<line>: the tests cannot be loaded: <reason>` when the
    mistake is in one file of the lesson; else the runner's whole sentence at the lesson's folder."""
    if error.file and error.reason:
        return BuildError(f"{lesson.checkpoints_shown_dir}/{error.file}", error.line,
                          f"the tests cannot be loaded: {error.reason}")
    # The runner names files by absolute path; messages name them as the teacher knows them.
    text = str(error).replace(str(lesson.checkpoints_dir.resolve()), lesson.checkpoints_shown_dir)
    return BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: the tests cannot be loaded: {text}")
