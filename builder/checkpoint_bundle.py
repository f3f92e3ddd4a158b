"""Write stage: what the browser needs to grade a lesson's checkpoints, in `_site/checkpoints/<id>/`.

Two files per lesson:
- `runner-<hash>.zip`: the grading core (all of `runner/core/`, entry runner.core.web) plus the
  lesson's shipped tests, solution and checkpoints.toml, laid out as `runner/...` and `checkpoints/<id>/...` so that the unpacked archive is what
  `runner.core.bundle.load_bundle` reads on the checkout. Offline-only tests, wrong/ and correct/ are
  never in it. The name carries the hash so a browser cache never serves old tests.
- `meta.json`: the bundle hash (runner.core.bundle's, of the shipped tests), the archive's name and
  checksum, the lesson revision, the checkpoints (id, number, title, uses, check_seconds) and the
  lesson's settings (runner.core.lesson_config.LessonSettings, the same the offline grader reads),
  read by checkpoint-panel.js.

What ships and its hash are what the verify stage's gate verified (a `VerifiedBundle`): the
lesson's code is not executed again here. Only a caller without a verify stage has it loaded.

The archive is byte-for-byte reproducible (fixed order and timestamps), so an unchanged lesson
keeps its hash and a learner's stored results stay valid.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import runner
from builder.errors import BuildError
from builder.model import Checkpoint, Lesson
from builder.verify_checkpoints import load_error
from runner.core.bundle import OFFLINE_DIR, SHIPPED_DIR, BundleError, load_bundle
from runner.offline.gates.gate_report import VerifiedBundle

RUNNER_DIR = Path(runner.__file__).resolve().parent
CORE_DIR = "core"  # runner/core/: the grading core, all of which ships (runner/core/web.py is the entry)
ZIP_TIMESTAMP = (2020, 1, 1, 0, 0, 0)
META_NAME = "meta.json"


@dataclass(frozen=True)
class CheckpointMeta:
    """A checkpoint as meta.json shows it: the part of runner.core.lesson_config.CheckpointConfig the page uses."""

    id: str
    number: int
    title: str
    uses: list[str]
    check_seconds: int

    @classmethod
    def of(cls, checkpoint: Checkpoint) -> CheckpointMeta:
        return cls(checkpoint.id, checkpoint.number, checkpoint.title, list(checkpoint.uses), checkpoint.check_seconds)


@dataclass(frozen=True)
class BundleMeta:
    lesson: str
    bundle_sha256: str  # runner.core.bundle's hash of the shipped tests: the "checkpoint version"
    runner_version: str
    lesson_revision: str  # SHA-256 of the lesson's Markdown file, for exported submissions
    archive: str  # file name next to meta.json
    archive_sha256: str
    lesson_dir: str  # where the archive puts the lesson's files, relative to its root
    checkpoints: list[CheckpointMeta]
    settings: dict[str, Any]  # LessonSettings.to_json(): the limits both hosts apply, the modules and packages


def runner_modules(runner_dir: Path = RUNNER_DIR) -> list[str]:
    """What ships: the package's `__init__` and every module of the grading core, `runner/core/`
    (the core imports only the standard library and itself: tests/builder/test_checkpoint_bundle.py)."""
    core = sorted(f"core/{path.stem}" for path in (runner_dir / CORE_DIR).glob("*.py"))
    return ["__init__", *core]


def shipped_lesson_files(bundle: VerifiedBundle) -> list[str]:
    """The lesson's files the browser grades with: exactly those runner.core.bundle hashes."""
    files = ["checkpoints.toml", *bundle.files]
    leaked = [name for name in files
              if name.startswith(f"{OFFLINE_DIR}/") or ("/" in name and not name.startswith(f"{SHIPPED_DIR}/"))]
    if leaked:  # a guard on runner.core.bundle: offline-only tests must never reach the site
        raise BuildError(None, None, f"refusing to ship {', '.join(leaked)}")
    return files


def archive_members(lesson: Lesson, bundle: VerifiedBundle) -> list[tuple[str, Path]]:
    members = [(f"runner/{name}.py", RUNNER_DIR / f"{name}.py") for name in runner_modules()]
    lesson_root = f"checkpoints/{lesson.id}"
    members += [(f"{lesson_root}/{name}", lesson.checkpoints_dir / name)
                for name in shipped_lesson_files(bundle)]
    return members


def build_archive(members: list[tuple[str, Path]]) -> bytes:
    target = io.BytesIO()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, path in sorted(members):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return target.getvalue()


def lesson_revision(lesson: Lesson) -> str:
    return hashlib.sha256(lesson.source.read_bytes()).hexdigest()


def loaded_bundle(lesson: Lesson) -> VerifiedBundle:
    bundle = load_bundle(lesson.checkpoints_dir, include_offline=False)
    return VerifiedBundle(bundle.bundle_sha256, bundle.files)


def write_checkpoint_bundle(lesson: Lesson, out_dir: Path, verified: VerifiedBundle | None = None) -> BundleMeta:
    """Write `out_dir/checkpoints/<lesson-id>/` (the archive and meta.json) of the shipped tests
    `verified` (loaded here when not given)."""
    try:
        bundle = verified or loaded_bundle(lesson)
        members = archive_members(lesson, bundle)
    except BundleError as error:
        raise load_error(lesson, error) from None
    data = build_archive(members)
    archive_sha256 = hashlib.sha256(data).hexdigest()
    archive_name = f"runner-{archive_sha256[:16]}.zip"
    target = out_dir / "checkpoints" / lesson.id
    target.mkdir(parents=True, exist_ok=True)
    (target / archive_name).write_bytes(data)
    meta = BundleMeta(
        lesson=lesson.id,
        bundle_sha256=bundle.bundle_sha256,
        runner_version=runner.__version__,
        lesson_revision=lesson_revision(lesson),
        archive=archive_name,
        archive_sha256=archive_sha256,
        lesson_dir=f"checkpoints/{lesson.id}",
        checkpoints=[CheckpointMeta.of(checkpoint) for checkpoint in lesson.checkpoints],
        settings=lesson.settings.to_json(),
    )
    (target / META_NAME).write_text(json.dumps(asdict(meta), ensure_ascii=False, indent=1), encoding="utf-8")
    return meta
