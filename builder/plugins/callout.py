"""`:::{callout} note|tip|warning|scenario [title]`: a boxed aside whose body is Markdown."""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from builder.plugins.directives import parse_nested, register_directive
from builder.plugins.parse_state import parse_state

# The label a reader sees when the author gives no title; a scenario speaks for itself.
CALLOUT_LABELS = {"note": "Let op", "tip": "Tip", "warning": "Waarschuwing", "scenario": None}


def callout_plugin(md: MarkdownIt) -> None:

    def handle(fence: Token, argument: str, state: StateCore) -> list[Token]:
        kind, _, title = argument.partition(" ")
        if kind not in CALLOUT_LABELS:
            kinds = "|".join(CALLOUT_LABELS)
            raise parse_state(state.env).error_at(fence, f"a callout needs a kind ({kinds}), got '{kind}'")
        if not fence.content.strip():
            raise parse_state(state.env).error_at(fence, "this callout has no text")
        opening = Token("callout_open", "aside", 1)
        opening.map = fence.map
        opening.block = True
        opening.meta = {"kind": kind, "title": title.strip() or CALLOUT_LABELS[kind]}
        closing = Token("callout_close", "aside", -1)
        closing.block = True
        return [opening, *parse_nested(md, state, fence), closing]

    register_directive(md, "callout", handle)
    md.add_render_rule("callout_open", render_open)
    md.add_render_rule("callout_close", render_close)


def render_open(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    meta = tokens[index].meta
    title = meta["title"]
    heading = f'<p class="callout__title">{escapeHtml(title)}</p>\n' if title else ""
    return f'<aside class="callout callout--{meta["kind"]}">\n{heading}'


def render_close(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    return "</aside>\n"
