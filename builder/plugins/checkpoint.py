"""`:::{checkpoint} <id>`: the inline marker "01 CHECKPOINT <title>" after the section teaching it."""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from builder.model import Checkpoint
from builder.plugins.directives import register_directive
from builder.plugins.parse_state import parse_state


def checkpoint_plugin(md: MarkdownIt) -> None:
    """Needs the parse state's checkpoints: the lesson's, by id (from checkpoints.toml)."""

    def handle(fence: Token, argument: str, state: StateCore) -> list[Token]:
        lesson = parse_state(state.env)
        known: dict[str, Checkpoint] = lesson.checkpoints
        if not argument:
            raise lesson.error_at(fence, "a checkpoint marker needs an id: ':::{checkpoint} <id>'")
        if argument not in known:
            raise lesson.error_at(fence, f"unknown checkpoint '{argument}'")
        if fence.content.strip():
            raise lesson.error_at(fence, "a checkpoint marker has no text of its own; close it with ':::'")
        placed = lesson.placed_checkpoints
        if argument in placed:
            raise lesson.error_at(fence, f"checkpoint '{argument}' already has a marker")
        placed.add(argument)
        marker = Token("checkpoint_marker", "aside", 0)
        marker.map = fence.map
        marker.block = True
        marker.meta = {"checkpoint": known[argument]}
        return [marker]

    register_directive(md, "checkpoint", handle)
    md.add_render_rule("checkpoint_marker", render_marker)


def render_marker(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    checkpoint: Checkpoint = tokens[index].meta["checkpoint"]
    cid = escapeHtml(checkpoint.id)
    return (
        f'<aside class="checkpoint-marker" data-checkpoint-marker="{cid}" data-status="pending" '
        f'aria-label="Checkpoint {checkpoint.number:02d}">\n'
        f'<a href="#checkpoint-{cid}">'
        f'<span class="checkpoint-marker__number">{checkpoint.number:02d}</span> '
        f'<span class="checkpoint-marker__label">Checkpoint</span> '
        f'<span class="checkpoint-marker__title">{escapeHtml(checkpoint.title)}</span></a>\n'
        "</aside>\n"
    )
