"""Markdown tables inside a scroll box: a wide table scrolls sideways on a phone instead of
widening the page, and the box is focusable and named so a keyboard can scroll it too
(site/src/scroll-regions.js takes the tab stop away again while the table fits)."""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

TABLE_LABEL = "Tabel"


def tables_plugin(md: MarkdownIt) -> None:
    md.enable("table")
    md.add_render_rule("table_open", render_table_open)
    md.add_render_rule("table_close", render_table_close)


def render_table_open(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict,
                      env: EnvType) -> str:
    box = f'<div class="table-scroll" tabindex="0" role="group" aria-label="{TABLE_LABEL}" data-scroll-region>\n'
    return box + self.renderToken(tokens, index, options, env)


def render_table_close(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict,
                       env: EnvType) -> str:
    return self.renderToken(tokens, index, options, env) + "</div>\n"
