"""The mutation gate's files in a lesson folder, read and checked: which files are mutated
(solution.py and each `correct/*.py`), the survivors listed as equivalent in
`equivalent_mutants.toml`, and the input maker of the differential run in `mutant_inputs.py`.
A broken one is a `MutationSetupError`: one line, `file:line: message`."""

from __future__ import annotations

import random
import tomllib
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from runner.core.bundle import SHARED_FILE, SHIPPED_DIR, SOLUTION_FILE

EQUIVALENT_FILE = "equivalent_mutants.toml"
CORRECT_DIR = "correct"
INPUTS_FILE = "mutant_inputs.py"


@dataclass(frozen=True)
class EquivalentListing:
    key: str
    reason: str
    line: int  # in equivalent_mutants.toml, for one-line `file:line: message` errors
    file: str = SOLUTION_FILE  # the mutated file, relative to the lesson: solution.py or correct/<name>.py


class MutationSetupError(Exception):
    """The lesson's mutation files are broken: one line, `file:line: message`."""


def read_equivalent_listings(lesson_dir: Path) -> list[EquivalentListing]:
    path = lesson_dir / EQUIVALENT_FILE
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MutationSetupError(f"{path}: {error}") from None
    entries = data.get("mutant", [])
    unknown = set(data) - {"mutant"}
    if unknown:
        raise MutationSetupError(f"{path}:1: unknown top-level key '{sorted(unknown)[0]}' (only [[mutant]] entries)")
    listings, seen = [], set()
    for index, entry in enumerate(entries):
        line = _entry_line(text, index)
        if not isinstance(entry, dict) or not {"key", "reason"} <= set(entry) <= {"key", "reason", "file"}:
            raise MutationSetupError(f"{path}:{line}: a [[mutant]] has exactly a key and a reason (and a file "
                                     f"for a correct style)")
        key, reason, file = entry["key"], entry["reason"], entry.get("file", SOLUTION_FILE)
        if not isinstance(key, str) or not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            raise MutationSetupError(f"{path}:{line}: key and reason are strings; the reason is one line")
        if not isinstance(file, str) or not (lesson_dir / file).is_file() or file not in mutated_files(lesson_dir):
            raise MutationSetupError(f"{path}:{line}: file is solution.py or a correct/<name>.py of this lesson: {file!r}")
        if (file, key) in seen:
            raise MutationSetupError(f"{path}:{line}: mutant listed twice: {key!r}")
        seen.add((file, key))
        listings.append(EquivalentListing(key, reason.strip(), line, file))
    return listings


def mutated_files(lesson_dir: Path) -> list[str]:
    """solution.py and each correct style, relative to the lesson: the files whose mutants are made."""
    return [SOLUTION_FILE] + [f"{CORRECT_DIR}/{path.name}" for path in sorted((lesson_dir / CORRECT_DIR).glob("*.py"))]


def _entry_line(text: str, index: int) -> int:
    """Line of the index-th `[[mutant]]` header."""
    count = -1
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == "[[mutant]]":
            count += 1
            if count == index:
                return number
    return 1


def _exec_lesson_file(path: Path, name: str, injected: dict) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__dict__.update(injected)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


InputMaker = Callable[[str, random.Random], list]


def load_input_maker(lesson_dir: Path) -> InputMaker | None:
    """`inputs(checkpoint, rng)` from the lesson's mutant_inputs.py, with `reference` and `shared`
    injected as in the tests; None when the lesson has no such file."""
    path = lesson_dir / INPUTS_FILE
    if not path.exists():
        return None
    reference = _exec_lesson_file(lesson_dir / SOLUTION_FILE, "werkplaats_mutation_reference", {})
    injected: dict = {"reference": reference}
    shared_path = lesson_dir / SHIPPED_DIR / SHARED_FILE
    if shared_path.exists():
        injected["shared"] = _exec_lesson_file(shared_path, "werkplaats_mutation_shared", {"reference": reference})
    module = _exec_lesson_file(path, "werkplaats_mutation_inputs", injected)
    maker = module.__dict__.get("inputs")
    if not callable(maker):
        raise MutationSetupError(f"{path}:1: defines no function inputs(checkpoint, rng)")
    return maker
