"""Shared constants and helpers of the offline runner's tests (imported by name, unlike conftest).

Limits are short so hostile submissions end quickly, but long enough that a correct call on a
busy 2-core machine never hits them.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

from runner.offline.sandbox.protocol import SandboxLimits

HERE = Path(__file__).resolve().parent
LESSONS = HERE / "lessons"
MINI_LESSON = LESSONS / "mini-01"
ROOT = HERE.parent.parent

TEST_LIMITS = SandboxLimits(call_seconds=2.0, submission_seconds=30.0, memory_bytes=512 << 20)

CORRECT_MINI = '''
def double(x):
    return 2 * x

def words(text):
    return text.split()

def total(numbers):
    return sum(numbers)
'''


def processes_of_uid(uid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as handle:
                for line in handle:
                    if line.startswith("Uid:") and int(line.split()[1]) == uid:
                        found.append(int(name))
        except OSError:
            continue
    return found


def is_alive(pid: int) -> bool:
    """True for a running (not zombie) process."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop needs a grader running as root")


# Words of English sentences that are not Dutch words too (so "test", "code", "is" are not here).
ENGLISH = {"the", "and", "which", "does", "not", "for", "with", "file", "lesson", "lessons", "submission",
           "submissions", "grade", "graded", "grades", "points", "error", "syntax", "expected", "learner", "learners",
           "passed", "failed", "line", "field", "must", "appears", "twice", "holds", "only", "empty",
           "limit", "all", "invalid", "total", "report", "feedback", "see", "your", "this", "that", "was", "were",
           "could", "cannot", "unknown", "missing", "whitespace", "malformed", "unsupported", "type", "known",
           "counts", "counted", "nothing", "handed"}
CODE = re.compile(r'<div class="code">.*?</div>', re.DOTALL)


def english_words(page: str, allowed: set[str] = frozenset()) -> list[str]:
    """English words in the visible text of a page, outside code blocks."""
    text = CODE.sub(" ", page)
    text = re.sub(r"<(style|title)>.*?</\1>", " ", text, flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = re.sub(r"--[\w-]+", " ", text)  # a flag such as --lessons is what the teacher types, not a sentence
    words = re.findall(r"[A-Za-z]+", text)
    return [word for word in words if word.lower() in ENGLISH and word not in allowed]
