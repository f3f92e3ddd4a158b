"""Pass 1: the quality gate on a lesson's hidden tests (runner.offline.gates.quality_gate), before anything is written.

The reference solution and correct/ must pass every test and each wrong/ solution must fail its
checkpoint (and may fail the checkpoints that use it); otherwise the tests cannot be trusted and
the build stops with every failure, one line each. The gate runs in a child interpreter with a
time limit, since the known-wrong solutions are code that misbehaves on purpose, and answers in
JSON (`python -m runner gate --json`), so nothing is scraped from its text.

Every build gates every lesson, except within one `build.py serve` session: there PassedGates
remembers (in memory only) the inputs of each gate that passed, and an unchanged lesson skips it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from builder.errors import BuildError, raise_if_any
from builder.model import Lesson
from builder.paths import CODE_ROOT
from runner.core.bundle import BundleError

TIME_LIMIT_SECONDS = 300
RUNNER_DIR = CODE_ROOT / "runner"  # what `python -m runner` runs, from CODE_ROOT


class PassedGates:
    """Per lesson's checkpoints folder: the digest of the gate inputs the last time its gate passed."""

    def __init__(self) -> None:
        self._digests: dict[Path, str] = {}

    def includes(self, lesson_dir: Path, digest: str) -> bool:
        return self._digests.get(lesson_dir.resolve()) == digest

    def remember(self, lesson_dir: Path, digest: str) -> None:
        self._digests[lesson_dir.resolve()] = digest


def verify_checkpoints(lesson: Lesson, passed_gates: PassedGates | None = None) -> None:
    """Run the gate (raising BuildError when it fails), unless `passed_gates` knows these inputs passed."""
    if not (lesson.checkpoints_dir / "tests").is_dir():
        return  # a lesson without hidden tests has nothing to gate
    if passed_gates is None:
        check_gate(lesson)
        return
    # Digested before the gate runs: a file saved while it runs makes the next rebuild gate again.
    digest = gate_inputs_digest(lesson.checkpoints_dir)
    if passed_gates.includes(lesson.checkpoints_dir, digest):
        return
    check_gate(lesson)  # raises on failure, so a failing gate is never remembered
    passed_gates.remember(lesson.checkpoints_dir, digest)


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


def check_gate(lesson: Lesson) -> None:
    """Raise one BuildError per gate failure (BuildErrors when there are several)."""
    raise_if_any(gate_errors(lesson, run_gate(lesson)))


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
    """The gate's answer (`python -m runner gate --json`) as build errors: one per failure, named
    by the known solution's file as the teacher knows it (`checkpoints/<id>/wrong/...`)."""
    try:
        answer = json.loads(completed.stdout)
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict) or not isinstance(answer.get("failures"), list):
        # The gate itself broke (a usage error, a crash): its own words, first line.
        first = (completed.stderr.strip().splitlines() or [f"exit code {completed.returncode}"])[0]
        return [BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {first.removeprefix('error: ')}")]
    failure = answer.get("load_error")
    if isinstance(failure, dict):
        return [load_error(lesson, BundleError(str(failure.get("text", "")), failure.get("file"),
                                               failure.get("line"), failure.get("reason")))]
    shown = lesson.checkpoints_shown_dir
    return [BuildError(f"{shown}/{failure['path']}", failure.get("line"), failure["reason"])
            for failure in answer["failures"]]


def load_error(lesson: Lesson, error: BundleError) -> BuildError:
    """`checkpoints/<id>/tests/<file>.py:<line>: the tests cannot be loaded: <reason>` when the
    mistake is in one file of the lesson; else the runner's whole sentence at the lesson's folder."""
    if error.file and error.reason:
        return BuildError(f"{lesson.checkpoints_shown_dir}/{error.file}", error.line,
                          f"the tests cannot be loaded: {error.reason}")
    # The runner names files by absolute path; messages name them as the teacher knows them.
    text = str(error).replace(str(lesson.checkpoints_dir.resolve()), lesson.checkpoints_shown_dir)
    return BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: the tests cannot be loaded: {text}")
