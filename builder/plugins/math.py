"""`$...$` and `$$...$$` math, turned into MathML at build time so pages need no math script.

latex2mathml reads almost anything: an unknown command becomes a variable named after it and a
missing `}` is assumed. Those are typos, so this plugin checks for them itself. A `$` that opens no
formula stays text, with a warning: it is usually a formula whose closing `$` is missing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

import latex2mathml.commands
import latex2mathml.converter
from latex2mathml.symbols_parser import SYMBOLS
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin

from builder.plugins.parse_state import ParseState, parse_state

INLINE_TYPES = {"math_inline"}
BLOCK_TYPES = {"math_block", "math_inline_double"}
# What latex2mathml makes of a command it does not know: an identifier or operator named `\name`.
UNKNOWN_COMMAND = re.compile(r"<m[io][^>]*>(\\[A-Za-z]+)</m[io]>")
# A Dutch decimal comma is written `1{,}2` (the braces keep TeX from spacing it as a list
# separator); latex2mathml makes that three pieces, which a browser lays out as "1, 2". One <mn>.
DECIMAL_COMMA = re.compile(r"<mn>([0-9][0-9,]*)</mn><mrow><mo>&#x0002C;</mo></mrow><mn>([0-9]+)</mn>")
KNOWN_COMMANDS = sorted(
    {name for name in SYMBOLS if re.fullmatch(r"\\[A-Za-z]+", name)}
    | {value for value in vars(latex2mathml.commands).values()
       if isinstance(value, str) and re.fullmatch(r"\\[A-Za-z]+", value)}
)


class FormulaError(Exception):
    """Why a formula cannot be read, in words for the teacher."""


def math_plugin(md: MarkdownIt) -> None:
    # No digits right next to a `$`: "kost $5 en $6" stays text, as teachers expect.
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    # After "inline" so that inline math tokens exist; converting here (pass 1) reports bad
    # formulas as authoring mistakes before anything is written.
    md.core.ruler.after("inline", "math_to_mathml", convert_all)
    for token_type in (*INLINE_TYPES, *BLOCK_TYPES):
        md.add_render_rule(token_type, render_mathml)


def convert_all(state: StateCore) -> None:
    lesson = parse_state(state.env)
    for block in state.tokens:
        if block.type in BLOCK_TYPES:
            convert_token(block, block, lesson)
        lone_dollar = False
        for child in block.children or []:
            if child.type in INLINE_TYPES or child.type in BLOCK_TYPES:
                convert_token(child, block, lesson)
            # An escaped `\$` is a "text_special" token: the author meant a dollar sign.
            lone_dollar = lone_dollar or (child.type == "text" and "$" in child.content)
        if lone_dollar:
            lesson.warn(block, "a '$' without a closing '$' is shown as a dollar sign: "
                               "close the formula, or write '\\$' for a dollar sign")


def convert_token(token: Token, where: Token, lesson: ParseState) -> None:
    latex = token.content.strip()
    try:
        token.meta["mathml"] = to_mathml(latex, display=token.type in BLOCK_TYPES)
    except FormulaError as error:
        lesson.report(lesson.error_at(where, f"cannot read the formula '{latex}': {error}"))
        token.meta["mathml"] = escapeHtml(latex)


def to_mathml(latex: str, display: bool) -> str:
    check_braces(latex)
    try:
        mathml = latex2mathml.converter.convert(latex, display="block" if display else "inline")
    except Exception as error:  # latex2mathml's exceptions share no base class
        raise FormulaError(type(error).__name__) from None
    unknown = UNKNOWN_COMMAND.search(mathml)
    if unknown:
        command = unknown.group(1)
        close = difflib.get_close_matches(command, KNOWN_COMMANDS, n=1, cutoff=0.75)
        raise FormulaError(f"unknown command '{command}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
    return join_decimal_commas(mathml)


def join_decimal_commas(mathml: str) -> str:
    """`1{,}25` as one number, <mn>1,25</mn>: read as one, never broken or spaced at the comma."""
    while True:
        joined = DECIMAL_COMMA.sub(r"<mn>\1,\2</mn>", mathml)
        if joined == mathml:
            return mathml
        mathml = joined


def check_braces(latex: str) -> None:
    depth = 0
    escaped = False
    for character in latex:
        if escaped:
            escaped = False  # `\{` and `\}` are braces to show, not to group
        elif character == "\\":
            escaped = True
        elif character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth < 0:
                raise FormulaError("a '}' has no '{' before it")
    if depth > 0:
        raise FormulaError("a '{' is not closed with '}'")


def render_mathml(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[index]
    if token.type in BLOCK_TYPES:
        # A wide formula scrolls sideways on a phone: focusable and named, like code blocks
        # (site/src/scroll-regions.js takes the tab stop away while it fits).
        return (f'<div class="math" tabindex="0" role="group" aria-label="Formule" data-scroll-region>'
                f'{token.meta["mathml"]}</div>\n')
    mathml: str = token.meta["mathml"]
    return mathml
