"""`$...$` and `$$...$$` math, turned into MathML at build time so pages need no math script."""

from __future__ import annotations

from collections.abc import Sequence

import latex2mathml.converter
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

from builder.plugins.directives import error_at

INLINE_TYPES = {"math_inline"}
BLOCK_TYPES = {"math_block", "math_inline_double"}


def math_plugin(md: MarkdownIt) -> None:
    # No digits right next to a `$`: "kost $5 en $6" stays text, as teachers expect.
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    # After "inline" so that inline math tokens exist; converting here (pass 1) reports bad
    # formulas as authoring mistakes before anything is written.
    md.core.ruler.after("inline", "math_to_mathml", convert_all)
    for token_type in (*INLINE_TYPES, *BLOCK_TYPES):
        md.add_render_rule(token_type, render_mathml)


def convert_all(state: StateCore) -> None:
    for block in state.tokens:
        if block.type in BLOCK_TYPES:
            block.meta["mathml"] = to_mathml(block.content, display=True, env=state.env, where=block)
        for child in block.children or []:
            if child.type in INLINE_TYPES or child.type in BLOCK_TYPES:
                child.meta["mathml"] = to_mathml(
                    child.content, display=child.type in BLOCK_TYPES, env=state.env, where=block)


def to_mathml(latex: str, display: bool, env: dict, where: Token) -> str:
    try:
        return latex2mathml.converter.convert(latex.strip(), display="block" if display else "inline")
    except Exception as error:  # latex2mathml's exceptions share no base class
        raise error_at(env, where, f"cannot read the formula '{latex.strip()}': {type(error).__name__}") from None


def render_mathml(self, tokens: Sequence[Token], index: int, options, env) -> str:
    token = tokens[index]
    if token.type in BLOCK_TYPES:
        return f'<div class="math">{token.meta["mathml"]}</div>\n'
    return token.meta["mathml"]
