"""Pass 2: write pages and assets into a temporary directory, then swap it in for the output.

A build that fails halfway leaves the previous site exactly as it was: nothing is written into
the output directory itself, only renamed into place at the very end.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from builder.model import Lesson
from builder.render_page import Page

# A step adds files to the (temporary) output directory, e.g. the bundled front end.
BuildStep = Callable[[Path], None]


def default_steps(lessons: list[Lesson]) -> list[BuildStep]:
    """The asset and checkpoint-bundle steps of the modules that exist in this checkout."""
    steps: list[BuildStep] = []
    if module_exists("builder.assets"):
        steps.append(importlib.import_module("builder.assets").build_assets)
    if module_exists("builder.checkpoint_bundle"):
        write_bundle = importlib.import_module("builder.checkpoint_bundle").write_checkpoint_bundle
        for lesson in lessons:
            if lesson.checkpoints:
                steps.append(lambda out_dir, lesson=lesson: write_bundle(lesson, out_dir))
    return steps


def module_exists(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


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
