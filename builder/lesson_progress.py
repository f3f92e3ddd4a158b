"""Render stage: what the index page needs to show a learner's progress per lesson (site/src/index-page.js).

The learner's results live in their browser (site/src/checkpoint-results.js). A stored pass counts
on the index only as it would on the lesson page: made with the lesson's current tests and with the
code the editor would open with. So each lesson card carries the hash of the shipped tests (the
same `bundle_sha256` as `checkpoints/<id>/meta.json`, from runner.core.bundle) and the fingerprints
of the starter code, which the editor shows when none of the learner's own code is stored: of the
whole file, and per checkpoint of the part it depends on (runner.core.fingerprint).

The tests' hash is the one the verify stage's gate computed (a `VerifiedBundle`): nothing of the
lesson is executed here. Only a caller without a verify stage has the bundle loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from builder.model import Lesson
from builder.verify_checkpoints import load_error
from runner.core.bundle import BundleError, load_bundle
from runner.core.fingerprint import checkpoint_fingerprints
from runner.offline.gates.gate_report import VerifiedBundle

FNV_OFFSET_BASIS = 0x811C9DC5
FNV_PRIME = 0x01000193
LINE_BREAK = re.compile(r"\r\n?")


@dataclass(frozen=True)
class LessonProgressFacts:
    lesson_id: str
    checkpoint_ids: list[str]
    bundle_sha256: str  # the tests a stored result must have been made with to count
    starter_fingerprint: str  # code_fingerprint of the code the editor opens with by default
    # {checkpoint id: runner.core.fingerprint} of that code: the part each checkpoint depends on
    starter_fingerprints: dict[str, str]


def code_fingerprint(code: str) -> str:
    """checkpoint-results.js `codeFingerprint`: FNV-1a (32 bits) over the UTF-16 code units of
    the code as the editor holds it (line breaks as "\\n", like the page's HTML and CodeMirror)."""
    data = LINE_BREAK.sub("\n", code).encode("utf-16-le")
    units = [int.from_bytes(data[at:at + 2], "little") for at in range(0, len(data), 2)]
    value = FNV_OFFSET_BASIS
    for unit in units:
        value = ((value ^ unit) * FNV_PRIME) & 0xFFFFFFFF
    return f"{len(units)}:{value:x}"


def shipped_tests_sha256(lesson: Lesson, verified: VerifiedBundle | None = None) -> str:
    """The hash checkpoint_bundle.py writes into meta.json, of the tests that ship to the browser."""
    if verified is not None:
        return verified.bundle_sha256
    try:
        return load_bundle(lesson.checkpoints_dir, include_offline=False).bundle_sha256
    except BundleError as error:
        raise load_error(lesson, error) from None


def progress_facts(lesson: Lesson, verified: VerifiedBundle | None = None) -> LessonProgressFacts | None:
    """None for a lesson without checkpoints: there is no progress to show. `verified` is what
    the verify stage established of the shipped tests."""
    if not lesson.checkpoints:
        return None
    return LessonProgressFacts(
        lesson_id=lesson.id,
        checkpoint_ids=lesson.checkpoint_ids,
        bundle_sha256=shipped_tests_sha256(lesson, verified),
        starter_fingerprint=code_fingerprint(lesson.starter_code),
        starter_fingerprints=checkpoint_fingerprints(lesson.starter_code, lesson.checkpoint_ids),
    )
