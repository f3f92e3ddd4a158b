"""Pass 1: the quality gate on a lesson's hidden tests (runner.offline.quality_gate), before anything is written.

The reference solution and correct/ must pass every test and each wrong/ solution must fail its
checkpoint; otherwise the tests cannot be trusted and the build stops. The gate runs in a child
interpreter with a time limit, since the known-wrong solutions are code that misbehaves on purpose.

Every build gates every lesson, except within one `build.py serve` session: there PassedGates
remembers (in memory only) the inputs of each gate that passed, and an unchanged lesson skips it.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from builder.errors import BuildError
from builder.model import Lesson
from builder.paths import CODE_ROOT

TIME_LIMIT_SECONDS = 300
RUNNER_DIR = CODE_ROOT / "runner"  # what `python -m runner` runs, from CODE_ROOT
CANNOT_LOAD = "the tests of this lesson cannot be loaded: "
# The runner's load failure: "tests/word_chunks.py:32: SyntaxError: invalid syntax".
LOAD_FAILURE = re.compile(r"(?P<file>[^:]+\.py)(?::(?P<line>\d+))?: (?P<reason>.*)")


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
    completed = run_gate(lesson)
    if completed.returncode != 0:
        raise gate_error(lesson, completed)


def run_gate(lesson: Lesson) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "runner", "gate", "--lesson", lesson.id,
               "--checkpoints-dir", str(lesson.checkpoints_dir.parent)]
    try:
        return subprocess.run(command, cwd=CODE_ROOT, capture_output=True, text=True,
                              encoding="utf-8", timeout=TIME_LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        raise BuildError(lesson.checkpoints_shown_dir, None,
                         f"the quality gate did not finish within {TIME_LIMIT_SECONDS} seconds") from None


def gate_error(lesson: Lesson, completed: subprocess.CompletedProcess[str]) -> BuildError:
    first = (completed.stderr.strip().splitlines() or [f"exit code {completed.returncode}"])[0]
    first = first.removeprefix("error: ")
    if first.startswith(CANNOT_LOAD):
        return load_error(lesson, first.removeprefix(CANNOT_LOAD))
    # The gate names files by absolute path; messages name them as the teacher knows them.
    directory = str(lesson.checkpoints_dir.resolve())
    if first.startswith(directory + "/"):
        first = lesson.checkpoints_shown_dir + first[len(directory):]
        return BuildError(first.split(": ", 1)[0], None, first.split(": ", 1)[1])
    return BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {first}")


def load_error(lesson: Lesson, failure: str) -> BuildError:
    """`checkpoints/<id>/tests/<file>.py:<line>: the tests cannot be loaded: <reason>` from the
    runner's `tests/<file>.py:<line>: <reason>` (the path within the lesson's folder)."""
    match = LOAD_FAILURE.fullmatch(failure)
    if match is None:
        return BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {CANNOT_LOAD}{failure}")
    line = int(match.group("line")) if match.group("line") else None
    return BuildError(f"{lesson.checkpoints_shown_dir}/{match.group('file')}", line,
                      f"the tests cannot be loaded: {match.group('reason')}")
