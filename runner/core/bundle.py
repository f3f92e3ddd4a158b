"""Load a lesson's checkpoints and tests: the test bundle that `runner.core.grade` runs.

Test modules are read from files and executed into a namespace we control (no sys.path
changes), so the same loader works on the checkout and on the archive unpacked in the browser.
"""

from __future__ import annotations

import hashlib
import traceback
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import runner
from runner.core.lesson_config import (
    CONFIG_FILE,
    GradingSettings,
    LessonConfigError,
    LessonSettings,
    read_lesson_config,
)
from runner.core.testkit import TEST_MARKER, Signature, TestSpec

SOLUTION_FILE = "solution.py"
SHARED_FILE = "_shared.py"  # helpers for the tests of one lesson, injected as `shared`
SHIPPED_DIR = "tests"
OFFLINE_DIR = "tests_offline"


class BundleError(Exception):
    """A lesson's checkpoint definitions or tests are broken (a teacher's mistake, not a learner's).

    `str()` is one line; `file` (relative to the lesson directory), `line` and `reason` are set
    when the mistake is in one file of the lesson, for tools that name it themselves.
    """

    def __init__(self, text: str, file: str | None = None, line: int | None = None, reason: str | None = None) -> None:
        super().__init__(text)
        self.file = file
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class CheckpointSpec:
    id: str  # the function name
    title: str
    task: str
    hint: str
    signature: Signature | None
    tests: tuple[TestSpec, ...]  # the shipped ones first, then those of tests_offline/
    uses: tuple[str, ...] = ()  # earlier checkpoints this one builds on (checkpoints.toml)
    check_seconds: int = LessonSettings.check_seconds  # the page's limit for its shipped tests together
    shipped_test_count: int = 0  # tests[:shipped_test_count] are the ones the page runs
    points: int = 1  # what passing it is worth in the offline grade (checkpoints.toml)


@dataclass(frozen=True)
class Bundle:
    lesson: str
    checkpoints: tuple[CheckpointSpec, ...]
    bundle_sha256: str
    files: tuple[str, ...]  # the hashed files, relative to the lesson directory
    include_offline: bool
    settings: LessonSettings = LessonSettings()  # [settings] of checkpoints.toml
    grading: GradingSettings = GradingSettings()  # the pass mark, also from [settings]

    @property
    def function_names(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.checkpoints)

    def check_limits(self, override: float | None = None) -> dict[str, float]:
        """Per checkpoint, the seconds its shipped tests may take together (runner.core.grade's
        `check_limits`): each checkpoint's own `check_seconds`, or `override` for all."""
        return {spec.id: spec.check_seconds if override is None else override for spec in self.checkpoints}

    def checkpoint(self, checkpoint_id: str) -> CheckpointSpec:
        for spec in self.checkpoints:
            if spec.id == checkpoint_id:
                return spec
        raise KeyError(checkpoint_id)

    def used_by_closure(self, checkpoint_id: str) -> tuple[str, ...]:
        """The checkpoints `checkpoint_id` uses, directly or through another, in lesson order."""
        used: set[str] = set()
        waiting = list(self.checkpoint(checkpoint_id).uses)
        while waiting:
            current = waiting.pop()
            if current not in used:
                used.add(current)
                waiting.extend(self.checkpoint(current).uses)
        return tuple(spec.id for spec in self.checkpoints if spec.id in used)

    def dependents(self, checkpoint_id: str) -> tuple[str, ...]:
        """The checkpoints that use `checkpoint_id`, directly or through another, in lesson order."""
        return tuple(spec.id for spec in self.checkpoints if checkpoint_id in self.used_by_closure(spec.id))


def bundle_hash(files: dict[str, bytes]) -> str:
    """SHA-256 over the runner version and the used files' contents, by relative path (sorted),
    so any change shows."""
    digest = hashlib.sha256()
    digest.update(f"werkplaats-runner {runner.__version__}\n".encode())
    for relative in sorted(files):
        digest.update(relative.encode() + b"\0" + hashlib.sha256(files[relative]).hexdigest().encode() + b"\n")
    return digest.hexdigest()


def _exec_file(lesson_dir: Path, relative: str, module_name: str, injected: dict[str, Any], used: dict[str, bytes]) -> types.ModuleType:
    """Execute one file of the lesson as a module; its bytes go into `used` for the bundle hash
    (the bytes that were executed, not a second read)."""
    path = lesson_dir / relative
    module = types.ModuleType(module_name)
    module.__file__ = str(path)
    module.__dict__.update(injected)
    try:
        content = path.read_bytes()
        used[relative] = content
        code = compile(content.decode("utf-8"), str(path), "exec")
        exec(code, module.__dict__)
    except Exception as error:
        line = _failing_line(error, str(path))
        where = relative if line is None else f"{relative}:{line}"
        reason = error.msg if isinstance(error, SyntaxError) else str(error)
        raise BundleError(f"{where}: {type(error).__name__}: {reason}", relative, line,
                          f"{type(error).__name__}: {reason}") from error
    return module


def _failing_line(error: Exception, filename: str) -> int | None:
    """The line of `filename` where loading it failed: the syntax error's, or the innermost frame
    in that file (not a helper it called, nor the exec() that ran it)."""
    if isinstance(error, SyntaxError):
        return error.lineno if error.filename == filename else None
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    return lines[-1] if lines else None


def load_bundle(lesson_dir: Path | str, include_offline: bool = True) -> Bundle:
    """Checkpoints from checkpoints.toml with their tests from tests/ (and tests_offline/)."""
    lesson_dir = Path(lesson_dir)
    try:  # the same strict reader as the builder's (runner.core.lesson_config)
        config = read_lesson_config(lesson_dir)
    except LessonConfigError as error:
        raise BundleError(str(error), CONFIG_FILE, error.line, error.message) from None
    lesson = config.lesson
    ids = list(config.ids)

    used: dict[str, bytes] = {}
    reference = _exec_file(lesson_dir, SOLUTION_FILE, f"werkplaats_reference_{lesson}", {}, used)
    injected: dict[str, Any] = {"reference": reference}
    shared_relative = f"{SHIPPED_DIR}/{SHARED_FILE}"
    if (lesson_dir / shared_relative).exists():
        injected["shared"] = _exec_file(lesson_dir, shared_relative, f"werkplaats_shared_{lesson}", {"reference": reference}, used)

    test_files = sorted((lesson_dir / SHIPPED_DIR).glob("[!_]*.py"))
    if include_offline:
        test_files += sorted((lesson_dir / OFFLINE_DIR).glob("[!_]*.py"))

    tests: dict[str, list[TestSpec]] = {checkpoint_id: [] for checkpoint_id in ids}
    signatures: dict[str, Signature] = {}
    # Shipped modules named after their checkpoint come first, in the lesson's order.
    test_files.sort(key=lambda p: (p.parent.name != SHIPPED_DIR, ids.index(p.stem) if p.stem in ids else len(ids), p.name))
    shipped_counts: dict[str, int] | None = None  # per checkpoint, counted when the offline tests begin
    for path in test_files:
        if path.parent.name == OFFLINE_DIR and shipped_counts is None:
            shipped_counts = {checkpoint_id: len(found) for checkpoint_id, found in tests.items()}
        relative = f"{path.parent.name}/{path.name}"
        module = _exec_file(lesson_dir, relative, f"werkplaats_tests_{lesson}_{path.parent.name}_{path.stem}", injected, used)
        declared = module.__dict__.get("SIGNATURE")
        if isinstance(declared, Signature):
            if path.stem not in ids:
                raise BundleError(f"{relative}: SIGNATURE in a module that is not named after a checkpoint")
            signatures[path.stem] = declared
        for value in list(module.__dict__.values()):
            spec = getattr(value, TEST_MARKER, None) if callable(value) else None
            if not isinstance(spec, TestSpec):
                continue
            if spec.checkpoint not in tests:
                raise BundleError(f"{relative}: test {spec.name!r} names unknown checkpoint {spec.checkpoint!r}")
            if any(existing.name == spec.name for existing in tests[spec.checkpoint]):
                raise BundleError(f"{relative}: duplicate test name {spec.name!r}")
            tests[spec.checkpoint].append(spec)
    if shipped_counts is None:  # no offline tests (or not included): every test is a shipped one
        shipped_counts = {checkpoint_id: len(found) for checkpoint_id, found in tests.items()}

    checkpoints = tuple(
        CheckpointSpec(
            id=checkpoint.id,
            title=checkpoint.title,
            task=checkpoint.task,
            hint=checkpoint.hint,
            signature=signatures.get(checkpoint.id),
            tests=tuple(tests[checkpoint.id]),
            uses=checkpoint.uses,
            check_seconds=checkpoint.check_seconds,
            shipped_test_count=shipped_counts.get(checkpoint.id, 0),
            points=checkpoint.points,
        )
        for checkpoint in config.checkpoints
    )
    return Bundle(
        lesson=lesson,
        checkpoints=checkpoints,
        bundle_sha256=bundle_hash(used),
        files=tuple(sorted(used)),
        include_offline=include_offline,
        settings=config.settings,
        grading=config.grading,
    )
