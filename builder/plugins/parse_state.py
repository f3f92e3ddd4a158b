"""What one parse of a lesson's Markdown knows and learns, shared by the builder's plugins: a typed
object instead of string keys in markdown-it's `env`.

The load stage (builder/load_lessons.py) makes a `ParseState` per lesson and parses with
`parse_env(state)`; each plugin reads it back with `parse_state(state.env)`. The parser itself is
shared by every lesson, so nothing of one parse may live anywhere else. A parse without a state
(a short text such as a task or hint) gets an empty one: no known checkpoints or widgets, the
first mistake raised, no warnings.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from markdown_it.token import Token

from builder.errors import BuildError, BuildWarning
from builder.model import Checkpoint, Example
from builder.widgets import Widget

ENV_KEY = "werkplaats"  # the one key this project puts into markdown-it's env


@dataclass
class ParseState:
    # Given by the caller:
    path: str | None = None  # the file as messages name it, e.g. "lessons/woorden-01.md"
    line_offset: int = 0  # lines before the parsed text in that file (the front matter)
    checkpoints: dict[str, Checkpoint] = field(default_factory=dict)  # the lesson's, by id (checkpoints.toml)
    widgets: dict[str, Widget] = field(default_factory=dict)  # the project's widgets/, by name
    errors: list[BuildError] | None = None  # a list: every mistake is collected; None: the first raises
    warnings: list[BuildWarning] | None = None  # None: this text has no warnings (short texts)
    # Learned by the plugins:
    placed_checkpoints: set[str] = field(default_factory=set)  # ids with a `:::{checkpoint}` marker
    examples: list[Example] = field(default_factory=list)  # the python fences, in order
    used_widgets: list[Widget] = field(default_factory=list)  # in order of first use
    widget_counts: dict[str, int] = field(default_factory=dict)  # instances so far per widget name

    def file_line(self, token: Token) -> int:
        """The token's first line in the lesson file's numbering."""
        return self.line_offset + (token.map[0] if token.map else 0) + 1

    def error_at(self, token: Token, message: str) -> BuildError:
        return BuildError(self.path, self.file_line(token), message)

    def report(self, error: BuildError) -> None:
        """Collect the mistake when this parse collects them, else stop here."""
        if self.errors is None:
            raise error
        self.errors.append(error)

    def warn(self, token: Token, message: str) -> None:
        if self.warnings is not None:
            self.warnings.append(BuildWarning(self.path or "", self.file_line(token), message))


def parse_env(state: ParseState) -> dict[str, Any]:
    """The env to parse with: markdown-it wants a mapping, and carries it to every rule."""
    return {ENV_KEY: state}


def parse_state(env: MutableMapping[str, Any]) -> ParseState:
    """The parse's state (an empty one, kept for the rest of the parse, when it was given none)."""
    state = env.get(ENV_KEY)
    if not isinstance(state, ParseState):
        state = env[ENV_KEY] = ParseState()
    return state
