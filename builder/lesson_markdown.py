"""The Markdown dialect of lessons: CommonMark (no raw HTML) plus our six plugins."""

from __future__ import annotations

from markdown_it import MarkdownIt

from builder.plugins.callout import callout_plugin
from builder.plugins.checkpoint import checkpoint_plugin
from builder.plugins.examples import examples_plugin
from builder.plugins.math import math_plugin
from builder.plugins.tables import tables_plugin
from builder.plugins.widget import widget_plugin


def create_markdown() -> MarkdownIt:
    # Raw HTML is off: lesson text stays Markdown, so every page keeps the same accessible markup.
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    checkpoint_plugin(md)
    widget_plugin(md)
    callout_plugin(md)
    math_plugin(md)
    examples_plugin(md)
    tables_plugin(md)
    return md


def render_inline(md: MarkdownIt, text: str) -> str:
    """Short front-matter or checkpoint texts: `code`, *emphasis* and links, no paragraphs."""
    html: str = md.renderInline(text)
    return html
