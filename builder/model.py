"""The domain objects of a lesson, as the load stage validates them and the render stage renders them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from builder.errors import BuildWarning
from builder.widgets import Widget
from runner.core.lesson_config import DEFAULT_SETTINGS, CheckpointConfig, LessonSettings


@dataclass(frozen=True)
class Module:
    id: str
    number: int
    title: str


@dataclass(frozen=True)
class Prerequisite:
    title: str
    lesson_id: str | None  # linked only when a lesson with this id is built


@dataclass(frozen=True)
class RelatedLab:
    text: str
    link_text: str
    lesson_id: str | None


@dataclass(frozen=True)
class NextStep:
    lesson_id: str | None
    title: str
    teaser: str


@dataclass(frozen=True)
class Source:
    title: str
    url: str


@dataclass(frozen=True)
class PlannedLesson:
    """A lesson of lessons/planned.yaml: not written yet, but other lessons may link to it."""

    id: str
    title: str
    path: str  # the planned file as messages name it, e.g. "lessons/planned.yaml"
    line: int


# One record of a checkpoint for builder and runner: the strict reader's (runner.core.lesson_config).
Checkpoint = CheckpointConfig


@dataclass(frozen=True)
class Example:
    """A fenced ```python block of the lesson body."""

    code: str
    first_line: int  # line of the first code line in the lesson file (1-based)
    runs: bool  # False for ```python no-run


@dataclass
class Lesson:
    id: str
    path: str  # as shown in messages, e.g. "lessons/woorden-01.md"
    source: Path  # the Markdown file it was loaded from
    module: Module
    number: int
    title: str
    subtitle: str
    duration: int  # minutes
    goals: list[str]
    takeaways: list[str]
    reviewed: datetime.date
    prerequisites: list[Prerequisite]
    related: RelatedLab | None
    next_step: NextStep | None
    sources: list[Source]
    checkpoints: list[Checkpoint]
    checkpoints_dir: Path  # checkpoints/<id>/, read by the checkpoint bundle (issue 4)
    checkpoints_shown_dir: str  # the same directory as messages name it, e.g. "checkpoints/woorden-01"
    solution_code: str | None
    show_solution: bool  # front matter `solution: hidden` keeps it off the page (graded work)
    starter_code: str
    body_tokens: list[Token]
    examples: list[Example]
    settings: LessonSettings = DEFAULT_SETTINGS  # [settings] of checkpoints.toml: limits, modules, packages
    # Front-matter field name -> line, for mistakes found after loading (links, duplicates).
    field_lines: dict[str, int] = field(default_factory=dict)
    warnings: list[BuildWarning] = field(default_factory=list)  # found while loading it
    # The widgets its text uses, in order of first use: the page loads only their JS and CSS.
    widgets: list[Widget] = field(default_factory=list)

    @property
    def checkpoint_ids(self) -> list[str]:
        return [checkpoint.id for checkpoint in self.checkpoints]
