"""MyST-style `:::{name} argument` directives on top of mdit-py-plugins' colon fence.

Each directive plugin registers a handler that turns the fence token into its own tokens. One
core rule dispatches them, so directives nested in a callout are handled too, and any name no
plugin registered fails the build with the line it was written on.
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

# A handler gets the fence token, the text after `{name}`, and the core state; it returns the
# tokens that replace the fence (which may contain further fences: they are dispatched next).
DirectiveHandler = Callable[[Token, str, StateCore], list[Token]]

DIRECTIVE_INFO = re.compile(r"\{(?P<name>[^{}\s]*)\}\s*(?P<argument>.*)")
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
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type != "colon_fence":
            index += 1
            continue
        info = token.info.strip()
        match = DIRECTIVE_INFO.fullmatch(info)
        if match is None:
            raise error_at(state.env, token, f"a directive starts with ':::{{name}}', got ':::{info}'")
        name = match.group("name")
        if name not in handlers:
            raise error_at(state.env, token, f"unknown directive '{name}'")
        tokens[index:index + 1] = handlers[name](token, match.group("argument").strip(), state)


def error_at(env: dict, token: Token, message: str) -> BuildError:
    """A BuildError at the token's first line, in the lesson file's numbering."""
    return BuildError(env.get("path"), file_line(env, token), message)


def file_line(env: dict, token: Token) -> int:
    line = token.map[0] if token.map else 0
    return env.get("line_offset", 0) + line + 1


def parse_nested(md: MarkdownIt, state: StateCore, fence: Token) -> list[Token]:
    """Block-parse a directive's body; their maps become lines of the enclosing source."""
    nested: list[Token] = []
    md.block.parse(fence.content, md, state.env, nested)
    body_start = fence.map[0] + 1 if fence.map else 0
    for token in nested:
        if token.map:
            token.map = [token.map[0] + body_start, token.map[1] + body_start]
    return nested
