"""Read what the page needs from checkpoints/<lesson-id>/: titles, tasks, hints, starter, solution."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from builder.errors import BuildError
from builder.lesson_header import suggestion
from builder.model import Checkpoint

TOML_NAME = "checkpoints.toml"
CHECKPOINT_KEYS = ("id", "title", "task", "hint")
OPTIONAL_KEYS = ("uses",)  # ids of earlier checkpoints whose functions this one's function calls
TABLE_HEADER = re.compile(r"\[\[\s*checkpoint\s*\]\](\s*#.*)?")
TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")
TOML_POSITION = re.compile(r"\(at (line \d+, column \d+|end of document)\)")


@dataclass
class CheckpointFiles:
    checkpoints: list[Checkpoint]
    solution_code: str | None
    starter_code: str


def read_checkpoint_files(checkpoints_dir: Path, shown_dir: str, lesson_path: str,
                          wanted_ids: list[str], wanted_line: int) -> CheckpointFiles:
    """Checkpoints in the lesson's order; their ids must be exactly those of checkpoints.toml.

    `shown_dir` is how messages name the directory, e.g. "checkpoints/rag-01".
    """
    if not wanted_ids:
        return CheckpointFiles([], read_optional(checkpoints_dir / "solution.py"),
                               read_optional(checkpoints_dir / "starter.py") or "")
    toml_path = checkpoints_dir / TOML_NAME
    shown_toml = f"{shown_dir}/{TOML_NAME}"
    if not toml_path.is_file():
        raise BuildError(lesson_path, wanted_line, f"{shown_toml} does not exist")
    entries = read_toml_entries(toml_path, shown_toml)
    by_id = {entry["id"]: entry for entry in entries}
    for checkpoint_id in wanted_ids:
        if checkpoint_id not in by_id:
            raise BuildError(lesson_path, wanted_line,
                             f"unknown checkpoint '{checkpoint_id}' (not in {shown_toml})")
    toml_order = [entry["id"] for entry in entries]
    if toml_order != wanted_ids:
        raise BuildError(lesson_path, wanted_line,
                         f"checkpoints must list {', '.join(toml_order)} in the order of {shown_toml}")
    checkpoints = [
        Checkpoint(id=entry["id"], number=number, title=entry["title"],
                   task=entry["task"], hint=entry["hint"])
        for number, entry in enumerate(entries, start=1)
    ]
    for required in ("solution.py", "starter.py"):
        if not (checkpoints_dir / required).is_file():
            raise BuildError(lesson_path, wanted_line, f"{shown_dir}/{required} does not exist")
    return CheckpointFiles(
        checkpoints=checkpoints,
        solution_code=(checkpoints_dir / "solution.py").read_text(encoding="utf-8"),
        starter_code=(checkpoints_dir / "starter.py").read_text(encoding="utf-8"),
    )


def read_toml_entries(toml_path: Path, shown_toml: str) -> list[dict[str, str]]:
    toml_text = toml_path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as error:
        found = TOML_LINE.search(str(error))
        line = int(found.group(1)) if found else max(1, len(toml_text.splitlines()))
        reason = TOML_POSITION.sub("", str(error)).strip()
        raise BuildError(shown_toml, line, f"invalid TOML: {reason}") from None
    entries = data.get("checkpoint")
    if not isinstance(entries, list) or not entries:
        raise BuildError(shown_toml, 1, "expected [[checkpoint]] tables with id, title, task and hint")
    table_lines = checkpoint_table_lines(toml_text)
    seen: set[str] = set()
    for position, entry in enumerate(entries):
        line = table_lines[position] if position < len(table_lines) else 1
        # Unknown keys first: a mistyped `titel` explains the missing 'title' that follows from it.
        for key in entry:
            if key not in CHECKPOINT_KEYS + OPTIONAL_KEYS:
                raise BuildError(shown_toml, key_line(toml_text, key, line),
                                 f"checkpoint {position + 1} has unknown key '{key}'"
                                 f"{suggestion(key, list(CHECKPOINT_KEYS + OPTIONAL_KEYS))}")
        for key in CHECKPOINT_KEYS:
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise BuildError(shown_toml, line, f"checkpoint {position + 1} needs a non-empty text '{key}'")
        if entry["id"] in seen:
            raise BuildError(shown_toml, line, f"checkpoint id '{entry['id']}' appears twice")
        check_uses(entry, position, seen, [str(other.get("id")) for other in entries],
                   shown_toml, key_line(toml_text, "uses", line))
        seen.add(entry["id"])
    return entries


def check_uses(entry: dict, position: int, earlier: set[str], all_ids: list[str], shown_toml: str, line: int) -> None:
    """`uses` names checkpoints listed before this one: the order the learner meets them, no cycles."""
    uses = entry.get("uses", [])
    if not isinstance(uses, list) or not all(isinstance(item, str) for item in uses):
        raise BuildError(shown_toml, line, f"checkpoint {position + 1} 'uses' must be a list of checkpoint ids")
    for used in uses:
        if used in earlier:
            continue
        if used in all_ids:
            raise BuildError(shown_toml, line, f"checkpoint {position + 1} uses '{used}', "
                                               "which must be listed before it")
        raise BuildError(shown_toml, line, f"checkpoint {position + 1} uses unknown checkpoint '{used}'"
                                           f"{suggestion(used, sorted(earlier))}")


def checkpoint_table_lines(toml_text: str) -> list[int]:
    """Lines of the `[[checkpoint]]` headers: tomllib keeps no positions, so find them here."""
    return [number for number, line in enumerate(toml_text.splitlines(), start=1)
            if TABLE_HEADER.fullmatch(line.strip())]


def key_line(toml_text: str, key: str, table_line: int) -> int:
    """The line of `key = ...` in the table that starts at `table_line` (else that line)."""
    assignment = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number, line in enumerate(toml_text.splitlines()[table_line:], start=table_line + 1):
        if TABLE_HEADER.fullmatch(line.strip()):
            break
        if assignment.match(line):
            return number
    return table_line


def read_optional(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
