"""The render and write stages use what the verify stage's gate verified of a lesson's shipped
tests (a VerifiedBundle) and execute none of the lesson's code themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import runner.core.bundle
from builder.checkpoint_bundle import write_checkpoint_bundle
from builder.lesson_progress import progress_facts
from builder.load_lessons import load_lessons
from runner.core.bundle import load_bundle
from runner.offline.gates.gate_report import VerifiedBundle

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lesson():
    lessons = load_lessons(ROOT / "lessons", ROOT / "checkpoints", root=ROOT)
    return next(lesson for lesson in lessons if lesson.id == "rag-01")


def test_render_and_write_take_the_verified_bundle_and_run_nothing_of_the_lesson(lesson, tmp_path, monkeypatch):
    shipped = load_bundle(lesson.checkpoints_dir, include_offline=False)
    verified = VerifiedBundle(shipped.bundle_sha256, shipped.files)

    def must_not_run(*args, **kwargs):
        raise AssertionError("a lesson's code ran again after verify")

    monkeypatch.setattr(runner.core.bundle, "_exec_file", must_not_run)
    assert progress_facts(lesson, verified).bundle_sha256 == shipped.bundle_sha256
    meta = write_checkpoint_bundle(lesson, tmp_path, verified)
    written = json.loads((tmp_path / "checkpoints" / "rag-01" / "meta.json").read_text(encoding="utf-8"))
    assert meta.bundle_sha256 == written["bundle_sha256"] == shipped.bundle_sha256
