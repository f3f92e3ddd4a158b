"""Write stage: write pages and assets into a temporary directory, then swap it in for the output.

A build that fails halfway leaves the previous site exactly as it was: nothing is written into
the output directory itself, only renamed into place at the very end.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from builder.assets import build_assets, build_widget_assets
from builder.checkpoint_bundle import write_checkpoint_bundle
from builder.model import Lesson
from builder.render_page import Page
from builder.service_worker import write_service_worker
from runner.offline.gates.gate_report import VerifiedBundle

# A step adds files to the (temporary) output directory, e.g. the bundled front end.
BuildStep = Callable[[Path], object]  # what a step returns is for its own tests


def default_steps(lessons: list[Lesson], verified: dict[str, VerifiedBundle] | None = None) -> list[BuildStep]:
    """The bundled front end and vendored runtime, the used widgets' bundles, each lesson's
    checkpoint archive (of the shipped tests the verify stage verified), and last the service
    worker, whose manifest lists all of them."""
    verified = verified or {}
    steps: list[BuildStep] = [build_assets]
    used_widgets = list({widget.name: widget for lesson in lessons for widget in lesson.widgets}.values())
    steps.append(lambda out_dir: build_widget_assets(used_widgets, out_dir))
    for lesson in lessons:
        if lesson.checkpoints:
            steps.append(functools.partial(checkpoint_step, lesson, verified.get(lesson.id)))
    steps.append(write_service_worker)
    return steps


def checkpoint_step(lesson: Lesson, verified: VerifiedBundle | None, out_dir: Path) -> None:
    write_checkpoint_bundle(lesson, out_dir, verified)


def write_site(pages: list[Page], out_dir: Path, steps: list[BuildStep]) -> None:
    out_dir = out_dir.absolute()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.tmp-", dir=out_dir.parent))
    try:
        os.chmod(staging, 0o755)  # mkdtemp makes it private; a site is meant to be read
        for page in pages:
            target = staging / page.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(page.html, encoding="utf-8")
        for step in steps:
            step(staging)
        swap_in(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def swap_in(staging: Path, out_dir: Path) -> None:
    if not out_dir.exists():
        staging.rename(out_dir)
        return
    retired = staging.with_name(staging.name.replace(".tmp-", ".old-"))
    out_dir.rename(retired)
    try:
        staging.rename(out_dir)
    except OSError:
        retired.rename(out_dir)  # put the old site back rather than leave none
        raise
    shutil.rmtree(retired, ignore_errors=True)
