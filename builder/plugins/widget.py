"""`:::{widget} <name>`: where a widget stands in the text, with `key: value` option lines.

The options are checked against the widget's widget.toml (builder/widgets.py), the generic
`checkpoints:` option against the lesson's checkpoints, and then by the widget's own
`validate(options)` when it has one. Each instance gets a page-unique id prefix.
Needs the parse state's widgets: the project's, by name (none: every widget name is unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from builder.errors import BuildError
from builder.plugins.directives import register_directive
from builder.plugins.parse_state import ParseState, parse_state
from builder.widgets import CHECKPOINTS_OPTION, OptionError, Widget, WidgetInstance
from runner.core.lesson_config import suggestion


def widget_plugin(md: MarkdownIt) -> None:
    def handle(fence: Token, argument: str, state: StateCore) -> list[Token]:
        lesson = parse_state(state.env)
        widgets = lesson.widgets
        if not argument:
            raise lesson.error_at(fence, "a widget needs a name: ':::{widget} <name>'")
        widget = widgets.get(argument)
        if widget is None:
            raise lesson.error_at(fence, f"unknown widget '{argument}'{suggestion(argument, sorted(widgets))}")
        options, checkpoints = read_options(widget, fence, state)
        used = lesson.used_widgets
        if widget not in used:
            used.append(widget)
        counts = lesson.widget_counts
        counts[widget.name] = counts.get(widget.name, 0) + 1
        token = Token("widget", "div", 0)
        token.map = fence.map
        token.block = True
        token.meta = {"instance": WidgetInstance(widget, f"{widget.name}-{counts[widget.name]}", options, checkpoints)}
        return [token]

    register_directive(md, "widget", handle)
    md.add_render_rule("widget", render_widget)


def render_widget(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    instance: WidgetInstance = tokens[index].meta["instance"]
    return instance.widget.render(instance)


def option_line_token(fence: Token, number: int) -> Token:
    line_token = Token("", "", 0)
    line_token.map = [fence.map[0] + number, fence.map[0] + number + 1] if fence.map else None
    return line_token


def read_options(widget: Widget, fence: Token, state: StateCore) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The typed options (defaults filled in) and the checkpoints the widget shows."""
    lesson = parse_state(state.env)
    values: dict[str, Any] = {}
    checkpoints: tuple[str, ...] = ()
    seen: set[str] = set()
    known = [*widget.options, CHECKPOINTS_OPTION]
    for number, raw_line in enumerate(fence.content.splitlines(), start=1):
        line = raw_line.strip()
        if not line:
            continue
        where = option_line_token(fence, number)
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or not key:
            raise lesson.error_at(where, f"widget options are 'key: value' lines, got '{line}'")
        if key not in known:
            raise lesson.error_at(where, f"widget '{widget.name}' has no option '{key}'{suggestion(key, known)}")
        if key in seen:
            raise lesson.error_at(where, f"widget option '{key}' appears twice")
        seen.add(key)
        if key == CHECKPOINTS_OPTION:
            checkpoints = read_checkpoints(lesson, where, value)
            continue
        try:
            values[key] = widget.options[key].convert(value)
        except OptionError as error:
            raise lesson.error_at(where, f"widget {error}") from None
    for name, option in widget.options.items():
        if name in values:
            continue
        if option.required:
            raise lesson.error_at(fence, f"widget '{widget.name}' needs option '{name}'")
        values[name] = option.default
    if widget.validator is not None:
        try:
            widget.validator(dict(values))
        except ValueError as error:
            raise lesson.error_at(fence, f"widget '{widget.name}': {error}") from None
        except Exception as error:
            raise BuildError(f"{widget.shown_dir}/validate.py", None,
                             f"validate(options) failed: {type(error).__name__}: {error}") from None
    return values, checkpoints


def read_checkpoints(lesson: ParseState, where: Token, value: str) -> tuple[str, ...]:
    known = list(lesson.checkpoints)
    names = value.replace(",", " ").split()
    if not names:
        raise lesson.error_at(where, "widget option 'checkpoints' needs checkpoint ids, separated by spaces")
    for name in names:
        if name not in known:
            raise lesson.error_at(where, f"unknown checkpoint '{name}' in widget option 'checkpoints'"
                                       f"{suggestion(name, known)}")
    if len(set(names)) != len(names):
        raise lesson.error_at(where, "widget option 'checkpoints' names a checkpoint twice")
    return tuple(names)
