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
remembers (in memory) the inputs of each gate that passed and what it verified, and an unchanged
lesson skips it. With `--gate-cache DIR` (or WERKPLAATS_GATE_CACHE) it also keeps them in DIR, one
file per passed gate named by the digest of its inputs, so a later build (another process) skips
the gate of a lesson whose checkpoint files, runner and Python are the same. A gate that failed is
never kept, and a kept file that does not read as a passed gate is ignored.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.metadata
import os
import subprocess
import sys
import tempfile
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
    passed, and the bundle it verified then; with `kept_in`, also every passed gate's report in
    that folder, as `<digest>.json`, for later builds."""

    def __init__(self, kept_in: Path | None = None) -> None:
        self._passed: dict[Path, tuple[str, VerifiedBundle]] = {}
        self.kept_in = kept_in

    def verified(self, lesson_dir: Path, digest: str) -> VerifiedBundle | None:
        """What the gate verified, when it passed on exactly these inputs."""
        passed = self._passed.get(lesson_dir.resolve())
        if passed is not None and passed[0] == digest:
            return passed[1]
        return self._kept(digest)

    def remember(self, lesson_dir: Path, digest: str, verified: VerifiedBundle, report: GateReport) -> None:
        self._passed[lesson_dir.resolve()] = (digest, verified)
        if self.kept_in is None:
            return
        # Written whole, then renamed: a build reading at the same time sees all of it or nothing.
        try:
            self.kept_in.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=self.kept_in, suffix=".tmp",
                                             delete=False) as file:
                file.write(report.to_json())
            os.replace(file.name, self.kept_in / f"{digest}.json")
        except OSError:
            pass  # a cache that cannot be written costs the next build a gate, nothing else

    @contextlib.contextmanager
    def gating(self, digest: str) -> Iterator[None]:
        """Held while the gate of these inputs runs: another build keeping gates in the same
        folder waits for it (a lock file beside the reports), instead of running the same gate.

        Once the gate's report is kept, the lock file goes (the folder would otherwise gain one
        for every set of inputs ever gated): a build still waiting on it reads the report once it
        has the lock, and a later one finds the report before it looks for a lock. A gate that
        failed leaves its lock file, so builds waiting on it never gate the same inputs twice at
        once."""
        if self.kept_in is None:
            yield
            return
        path = self.kept_in / f"{digest}.lock"
        try:
            self.kept_in.mkdir(parents=True, exist_ok=True)
            lock = open(path, "w")
        except OSError:
            yield
            return
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
            if (self.kept_in / f"{digest}.json").is_file():
                with contextlib.suppress(OSError):
                    path.unlink()

    def _kept(self, digest: str) -> VerifiedBundle | None:
        if self.kept_in is None:
            return None
        try:
            report = GateReport.from_json((self.kept_in / f"{digest}.json").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, GateReportError):
            return None
        return report.verified if report.passed else None


def verify_checkpoints(lesson: Lesson, passed_gates: PassedGates | None = None) -> VerifiedBundle | None:
    """Run the gate (raising BuildError when it fails), unless `passed_gates` knows these inputs
    passed; what it verified of the shipped tests (None for a lesson without checkpoints or tests)."""
    if not (lesson.checkpoints_dir / "tests").is_dir():
        # No hidden tests, nothing to gate: what ships is loaded here, once.
        return load_shipped(lesson) if lesson.checkpoints else None
    if passed_gates is None:
        return verified_by(lesson, check_gate(lesson))
    # Digested before the gate runs: a file saved while it runs makes the next rebuild gate again.
    digest = gate_inputs_digest(lesson.checkpoints_dir)
    verified = passed_gates.verified(lesson.checkpoints_dir, digest)
    if verified is not None:
        return verified
    # Two builds at once (test workers) gate the same inputs once: the second waits, then reads.
    with passed_gates.gating(digest):
        verified = passed_gates.verified(lesson.checkpoints_dir, digest)
        if verified is None:
            report = check_gate(lesson)  # raises on failure, so a failing gate is never remembered
            verified = verified_by(lesson, report)
            passed_gates.remember(lesson.checkpoints_dir, digest, verified, report)
    return verified


def load_shipped(lesson: Lesson) -> VerifiedBundle:
    """The shipped bundle of a lesson the gate does not run on, loaded in this process."""
    try:
        bundle = load_bundle(lesson.checkpoints_dir, include_offline=False)
    except BundleError as error:
        raise load_error(lesson, error) from None
    return VerifiedBundle(bundle.bundle_sha256, bundle.files)


def gate_inputs_digest(lesson_dir: Path) -> str:
    """SHA-256 over all the gate's verdict depends on: the lesson (its id, its checkpoint files),
    the runner that grades them and the interpreter that runs it, with its packages. Paths count
    relative to their folder, so a copy of a lesson's folder has the digest of the original."""
    digest = hashlib.sha256(f"{sys.executable}\0{sys.version}\0{lesson_dir.name}\0".encode())
    for name, version in sorted(installed_packages()):
        digest.update(f"{name}=={version}\0".encode())
    for label, folder in (("lesson", lesson_dir.resolve()), ("runner", RUNNER_DIR)):
        for path in gate_files(folder):
            try:
                content = path.read_bytes()
            except FileNotFoundError:
                continue  # gone since the listing (an editor's temporary file): no input then
            digest.update(f"{label}/{path.relative_to(folder).as_posix()}\0".encode() + hashlib.sha256(content).digest())
    return digest.hexdigest()


@functools.cache
def installed_packages() -> frozenset[tuple[str, str]]:
    """(name, version) of every distribution the interpreter can import: a test may use any."""
    return frozenset((str(dist.metadata["Name"]).lower(), dist.version) for dist in importlib.metadata.distributions())


def gate_files(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.rglob("*")):
        parts = path.relative_to(directory).parts
        # Bytecode is written by the imports of the gate itself, and an editor's swap and backup
        # files come and go while one saves: none of them is an input of the gate.
        if any(part == "__pycache__" or part.startswith(".") for part in parts) or path.name.endswith("~"):
            continue
        if path.is_file():
            yield path


def check_gate(lesson: Lesson) -> GateReport:
    """The report of a gate that passed; raises one BuildError per gate failure (BuildErrors when
    there are several)."""
    completed = run_gate(lesson)
    raise_if_any(gate_errors(lesson, completed))
    return GateReport.from_json(completed.stdout)  # gate_errors found it a report that passed


def verified_by(lesson: Lesson, report: GateReport) -> VerifiedBundle:
    """What a passed gate verified of the shipped tests."""
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
