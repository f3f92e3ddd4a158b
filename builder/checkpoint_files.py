"""Read what the page needs from checkpoints/<lesson-id>/: checkpoints, settings, starter, solution.

checkpoints.toml is read by runner.core.lesson_config, the one strict reader the runner uses too;
its mistakes become BuildErrors here with the same file:line and message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from builder.assets import NODE_MODULES
from builder.errors import BuildError
from builder.model import Checkpoint
from runner.core.lesson_config import (
    CONFIG_FILE,
    DEFAULT_SETTINGS,
    LessonConfigError,
    LessonSettings,
    read_lesson_config,
    suggestion,
)

TOML_NAME = CONFIG_FILE
PYODIDE_LOCK = NODE_MODULES / "pyodide" / "pyodide-lock.json"


@dataclass
class CheckpointFiles:
    checkpoints: list[Checkpoint]
    solution_code: str | None
    starter_code: str
    settings: LessonSettings = DEFAULT_SETTINGS
    setting_lines: dict[str, int] | None = None  # line of each setting in checkpoints.toml


def read_checkpoint_files(checkpoints_dir: Path, shown_dir: str, lesson_path: str,
                          wanted_ids: list[str], wanted_line: int) -> CheckpointFiles:
    """Checkpoints in the lesson's order; their ids must be exactly those of checkpoints.toml.

    `shown_dir` is how messages name the directory, e.g. "checkpoints/woorden-01".
    """
    if not wanted_ids:
        return CheckpointFiles([], read_optional(checkpoints_dir / "solution.py"),
                               read_optional(checkpoints_dir / "starter.py") or "")
    toml_path = checkpoints_dir / TOML_NAME
    shown_toml = f"{shown_dir}/{TOML_NAME}"
    if not toml_path.is_file():
        raise BuildError(lesson_path, wanted_line, f"{shown_toml} does not exist")
    try:
        config = read_lesson_config(checkpoints_dir, shown_toml)
    except LessonConfigError as error:
        raise BuildError(error.file, error.line, error.message) from None
    check_browser_packages(config.settings.browser_packages, shown_toml, config.setting_lines.get("browser_packages", 1))
    for checkpoint_id in wanted_ids:
        if checkpoint_id not in config.ids:
            raise BuildError(lesson_path, wanted_line,
                             f"unknown checkpoint '{checkpoint_id}' (not in {shown_toml})")
    if list(config.ids) != wanted_ids:
        raise BuildError(lesson_path, wanted_line,
                         f"checkpoints must list {', '.join(config.ids)} in the order of {shown_toml}")
    for required in ("solution.py", "starter.py"):
        if not (checkpoints_dir / required).is_file():
            raise BuildError(lesson_path, wanted_line, f"{shown_dir}/{required} does not exist")
    return CheckpointFiles(
        checkpoints=list(config.checkpoints),
        solution_code=(checkpoints_dir / "solution.py").read_text(encoding="utf-8"),
        starter_code=(checkpoints_dir / "starter.py").read_text(encoding="utf-8"),
        settings=config.settings,
        setting_lines=config.setting_lines,
    )


def check_browser_packages(packages: tuple[str, ...], shown_toml: str, line: int,
                           lock_path: Path = PYODIDE_LOCK) -> None:
    """Each package the page preloads must be one the pinned Pyodide has (its lock file's names).
    Without node_modules/ there is nothing to check against; the asset step then asks for npm ci."""
    if not packages or not lock_path.is_file():
        return
    known = sorted(json.loads(lock_path.read_text(encoding="utf-8"))["packages"])
    for package in packages:
        if package.lower() not in known:
            raise BuildError(shown_toml, line, f"setting 'browser_packages' has '{package}', which Pyodide does not "
                                               f"have{suggestion(package.lower(), known)}")


def read_optional(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
