"""MyST-style `:::{name} argument` directives on top of mdit-py-plugins' colon fence.

Each directive plugin registers a handler that turns the fence token into its own tokens. One
core rule dispatches them, so directives nested in a callout are handled too, and any name no
plugin registered fails the build with the line it was written on.

A directive ends at a line of at least as many colons as opened it. One that has none before the
end of the document (or of the directive around it), or whose body holds a heading of its own
section's level or higher, was not closed: the colon fence would otherwise swallow the rest of the
lesson silently. So was one whose body opens a directive with as many colons or more: that
directive's closing line ends the outer one instead (nesting needs fewer colons inside). Each is
blamed on the line that opened the unclosed directive, never on the correct one after it.

Mistakes go to the parse's state (builder/plugins/parse_state.py): with a list of errors there
the parse collects them all (the build does this), without one the first is raised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.colon_fence import colon_fence_plugin

from builder.errors import BuildError
from builder.plugins.parse_state import parse_state
from runner.core.lesson_config import suggestion

# A handler gets the fence token, the text after `{name}`, and the core state; it returns the
# tokens that replace the fence (which may contain further fences: they are dispatched next).
DirectiveHandler = Callable[[Token, str, StateCore], list[Token]]

DIRECTIVE_INFO = re.compile(r"\{(?P<name>[^{}\s]*)\}\s*(?P<argument>.*)")
# Text before a lesson's first heading belongs to its introduction, a level-2 section.
INTRODUCTION_LEVEL = 2
_handlers: WeakKeyDictionary[MarkdownIt, dict[str, DirectiveHandler]] = WeakKeyDictionary()


def register_directive(md: MarkdownIt, name: str, handler: DirectiveHandler) -> None:
    if md not in _handlers:
        install_dispatcher(md)
    _handlers[md][name] = handler


def install_dispatcher(md: MarkdownIt) -> None:
    _handlers[md] = {}
    colon_fence_plugin(md)
    # Before "inline": callout bodies become block tokens whose inline content still needs parsing.
    md.core.ruler.after("block", "directives", lambda state: dispatch(md, state))


def dispatch(md: MarkdownIt, state: StateCore) -> None:
    handlers = _handlers[md]
    tokens = state.tokens
    source_lines = state.src.split("\n")
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type != "colon_fence":
            index += 1
            continue
        try:
            name, argument = read_info(handlers, state, token)
            check_closed(md, state, token, name, source_lines, section_level(tokens, index))
            replacement = handlers[name](token, argument, state)
        except BuildError as error:
            parse_state(state.env).report(error)
            replacement = []  # the rest of the lesson is still checked
        tokens[index:index + 1] = replacement


def read_info(handlers: dict[str, DirectiveHandler], state: StateCore, token: Token) -> tuple[str, str]:
    info = token.info.strip()
    match = DIRECTIVE_INFO.fullmatch(info)
    if match is None:
        raise parse_state(state.env).error_at(token, f"a directive starts with ':::{{name}}', got ':::{info}'")
    name = match.group("name")
    if name not in handlers:
        raise parse_state(state.env).error_at(token, f"unknown directive '{name}'{suggestion(name, sorted(handlers))}")
    return name, match.group("argument").strip()


def check_closed(md: MarkdownIt, state: StateCore, fence: Token, name: str,
                 source_lines: list[str], level: int) -> None:
    opening = f"{fence.markup}{{{name}}}"
    intruder = first_intruder(md, state, fence, level)
    if intruder is not None and intruder.type == "heading_open":
        raise parse_state(state.env).error_at(fence, f"'{opening}' is not closed before the heading on line "
                                         f"{parse_state(state.env).file_line(intruder)}: end it with a '{fence.markup}' line")
    if intruder is not None:
        raise parse_state(state.env).error_at(fence, f"'{opening}' is not closed before the '{directive_opening(intruder)}' "
                                         f"on line {parse_state(state.env).file_line(intruder)}: end it with a "
                                         f"'{fence.markup}' line (or, to put that directive inside it, "
                                         f"open it with '{fence.markup}:')")
    if not has_closing_line(fence, source_lines):
        raise parse_state(state.env).error_at(fence, f"'{opening}' is not closed: end it with a '{fence.markup}' line")


def first_intruder(md: MarkdownIt, state: StateCore, fence: Token, level: int) -> Token | None:
    """The first token of the directive's body that shows it was not closed before it: a heading
    at `level` or higher (fewer #), or a directive opened with as many colons or more."""
    for token in parse_nested(md, state, fence):
        if token.type == "heading_open" and int(token.tag[1:]) <= level:
            return token
        if token.type == "colon_fence" and len(token.markup) >= len(fence.markup):
            return token
    return None


def directive_opening(fence: Token) -> str:
    """How a fence opened, as the author wrote it: ':::{checkpoint}'."""
    match = DIRECTIVE_INFO.fullmatch(fence.info.strip())
    return f"{fence.markup}{{{match.group('name')}}}" if match else f"{fence.markup}{fence.info.strip()}"


def has_closing_line(fence: Token, source_lines: list[str]) -> bool:
    # The colon fence ends at its closing line, or (unclosed) at the end of the enclosing text.
    if not fence.map or fence.map[1] - 1 <= fence.map[0] or fence.map[1] > len(source_lines):
        return False
    last = source_lines[fence.map[1] - 1].strip()
    return len(last) >= len(fence.markup) and set(last) == {":"}


def section_level(tokens: list[Token], index: int) -> int:
    for token in reversed(tokens[:index]):
        if token.type == "heading_open":
            return int(token.tag[1:])
    return INTRODUCTION_LEVEL


def parse_nested(md: MarkdownIt, state: StateCore, fence: Token) -> list[Token]:
    """Block-parse a directive's body; their maps become lines of the enclosing source."""
    nested: list[Token] = []
    md.block.parse(fence.content, md, state.env, nested)
    body_start = fence.map[0] + 1 if fence.map else 0
    for token in nested:
        if token.map:
            token.map = [token.map[0] + body_start, token.map[1] + body_start]
    return nested
