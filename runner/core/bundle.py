"""Load a lesson's checkpoints and tests: the test bundle that `runner.core.grade` runs.

Test modules are read from files and executed into a namespace we control (no sys.path
changes), so the same loader works on the checkout and on the archive unpacked in the browser.
"""

from __future__ import annotations

import hashlib
import tomllib
import traceback
import types
from dataclasses import dataclass
from pathlib import Path

import runner
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
    tests: tuple[TestSpec, ...]
    uses: tuple[str, ...] = ()  # earlier checkpoints whose functions this one's calls (checkpoints.toml)


@dataclass(frozen=True)
class Bundle:
    lesson: str
    checkpoints: tuple[CheckpointSpec, ...]
    bundle_sha256: str
    files: tuple[str, ...]  # the hashed files, relative to the lesson directory
    include_offline: bool

    @property
    def function_names(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.checkpoints)

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


def _exec_file(lesson_dir: Path, relative: str, module_name: str, injected: dict, used: dict[str, bytes]) -> types.ModuleType:
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
    except Exception as error:  # noqa: BLE001 - reported with the file's name and line
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


def _read_meta(lesson_dir: Path) -> tuple[str, list[dict]]:
    toml_path = lesson_dir / "checkpoints.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BundleError(f"{toml_path}: not found") from None
    except tomllib.TOMLDecodeError as error:
        raise BundleError(f"{toml_path}: {error}") from None
    entries = data.get("checkpoint")
    if not isinstance(entries, list) or not entries:
        raise BundleError(f"{toml_path}: no [[checkpoint]] entries")
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise BundleError(f"{toml_path}: every [[checkpoint]] needs an id")
    _check_uses(toml_path, entries)
    lesson = data.get("lesson", lesson_dir.name)
    return str(lesson), entries


def _check_uses(toml_path: Path, entries: list[dict]) -> None:
    """`uses` is optional: a list of ids of checkpoints listed before this one (so no cycles)."""
    earlier: list[str] = []
    for entry in entries:
        uses = entry.get("uses", [])
        if type(uses) is not list or not all(type(item) is str for item in uses):
            raise BundleError(f"{toml_path}: 'uses' of checkpoint {entry['id']!r} must be a list of checkpoint ids")
        for used in uses:
            if used not in earlier:
                raise BundleError(f"{toml_path}: checkpoint {entry['id']!r} uses {used!r}, "
                                  "which is not a checkpoint listed before it")
        earlier.append(entry["id"])


def load_bundle(lesson_dir: Path | str, include_offline: bool = True) -> Bundle:
    """Checkpoints from checkpoints.toml with their tests from tests/ (and tests_offline/)."""
    lesson_dir = Path(lesson_dir)
    lesson, entries = _read_meta(lesson_dir)
    ids = [entry["id"] for entry in entries]
    if len(set(ids)) != len(ids):
        raise BundleError(f"{lesson_dir / 'checkpoints.toml'}: duplicate checkpoint id")

    used: dict[str, bytes] = {}
    reference = _exec_file(lesson_dir, SOLUTION_FILE, f"werkplaats_reference_{lesson}", {}, used)
    injected: dict = {"reference": reference}
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
    for path in test_files:
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

    checkpoints = tuple(
        CheckpointSpec(
            id=entry["id"],
            title=str(entry.get("title", entry["id"])),
            task=str(entry.get("task", "")),
            hint=str(entry.get("hint", "")),
            signature=signatures.get(entry["id"]),
            tests=tuple(tests[entry["id"]]),
            uses=tuple(entry.get("uses", ())),
        )
        for entry in entries
    )
    return Bundle(
        lesson=lesson,
        checkpoints=checkpoints,
        bundle_sha256=bundle_hash(used),
        files=tuple(sorted(used)),
        include_offline=include_offline,
    )
