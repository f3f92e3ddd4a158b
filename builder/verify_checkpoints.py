"""Pass 1: the quality gate on a lesson's hidden tests (runner.quality_gate), before anything is written.

The reference solution and correct/ must pass every test and each wrong/ solution must fail its
checkpoint; otherwise the tests cannot be trusted and the build stops. The gate runs in a child
interpreter with a time limit, since the known-wrong solutions are code that misbehaves on purpose.
"""

from __future__ import annotations

import subprocess
import sys

from builder.errors import BuildError
from builder.model import Lesson
from builder.paths import CODE_ROOT

TIME_LIMIT_SECONDS = 300


def verify_checkpoints(lesson: Lesson) -> None:
    if not (lesson.checkpoints_dir / "tests").is_dir():
        return  # a lesson without hidden tests has nothing to gate
    command = [sys.executable, "-m", "runner", "gate", "--lesson", lesson.id,
               "--checkpoints-dir", str(lesson.checkpoints_dir.parent)]
    try:
        completed = subprocess.run(command, cwd=CODE_ROOT, capture_output=True, text=True,
                                   encoding="utf-8", timeout=TIME_LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        raise BuildError(lesson.checkpoints_shown_dir, None,
                         f"the quality gate did not finish within {TIME_LIMIT_SECONDS} seconds") from None
    if completed.returncode == 0:
        return
    first = (completed.stderr.strip().splitlines() or [f"exit code {completed.returncode}"])[0]
    first = first.removeprefix("error: ")
    # The gate names files by absolute path; messages name them as the teacher knows them.
    directory = str(lesson.checkpoints_dir.resolve())
    if first.startswith(directory + "/"):
        first = lesson.checkpoints_shown_dir + first[len(directory):]
        raise BuildError(first.split(": ", 1)[0], None, first.split(": ", 1)[1])
    raise BuildError(lesson.checkpoints_shown_dir, None, f"quality gate: {first}")
