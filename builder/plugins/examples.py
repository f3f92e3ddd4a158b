"""Fenced ```python blocks: highlighted examples with a "Laad in editor" button.

```python no-run marks an example that is shown but not executed by verify_examples. ```py and
```python3 (any letter case) are the same as ```python; a misspelt python (```pyhton) stops the
build, since it would silently become a plain block that is neither run nor checked.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from builder.example_context import example_contexts
from builder.model import Example
from builder.plugins.parse_state import parse_state

EXAMPLE_LANGUAGE = "python"
EXAMPLE_LANGUAGES = {EXAMPLE_LANGUAGE, "py", "python3", "py3"}
EXAMPLE_FLAGS = {"no-run"}
FORMATTER = HtmlFormatter(cssclass="highlight")
# A code block scrolls sideways when a line is wider than the page (always on a phone): it must
# then be reachable by keyboard and say what it is (axe's scrollable-region-focusable).
# site/src/scroll-regions.js takes the tab stop away again while the block fits.
SCROLL_REGION = 'tabindex="0" role="group" aria-label="{label}" data-scroll-region'
EXAMPLE_LABEL = "Codevoorbeeld"
CODE_LABEL = "Code"


def examples_plugin(md: MarkdownIt) -> None:
    # After "inline": by then the fences inside callouts exist too.
    md.core.ruler.after("inline", "python_examples", collect_examples)
    md.add_render_rule("fence", render_fence)


def collect_examples(state: StateCore) -> None:
    """Validate each python fence's flags and list the examples in the parse state."""
    lesson = parse_state(state.env)
    examples = lesson.examples
    example_tokens: list[Token] = []
    for token in state.tokens:
        if token.type != "fence":
            continue
        language, flags = split_info(token.info)
        if looks_like_misspelt_python(language):
            lesson.report(lesson.error_at(token,
                                       f"unknown code language '{language}' (did you mean '{EXAMPLE_LANGUAGE}'?)"))
            continue
        if language not in EXAMPLE_LANGUAGES:
            continue
        unknown = flags - EXAMPLE_FLAGS
        if unknown:
            lesson.report(lesson.error_at(token,
                                       f"unknown example option '{sorted(unknown)[0]}' (known: no-run)"))
            continue
        examples.append(Example(
            code=token.content,
            first_line=lesson.file_line(token) + 1,  # the code starts after the ``` line
            runs="no-run" not in flags,
        ))
        example_tokens.append(token)
    # "Laad in editor" also brings the earlier examples this one builds on (doc, chunks, ...).
    codes = [token.content for token in example_tokens]
    for token, context in zip(example_tokens, example_contexts(codes)):
        token.meta["context"] = "\n".join(codes[index] for index in context)


def split_info(info: str) -> tuple[str, set[str]]:
    words = info.split()
    return (words[0].lower() if words else ""), set(words[1:])


def looks_like_misspelt_python(language: str) -> bool:
    # Real languages that merely resemble python (pycon) are Pygments lexers; typos are not.
    if language in EXAMPLE_LANGUAGES or not difflib.get_close_matches(language, [EXAMPLE_LANGUAGE], cutoff=0.7):
        return False
    try:
        get_lexer_by_name(language)
    except ClassNotFound:
        return True
    return False


def as_scroll_region(highlighted: str, label: str) -> str:
    """Pygments' `<div class="highlight"><pre>` with the <pre> made a named, focusable scroller."""
    attributes = SCROLL_REGION.format(label=escapeHtml(label))
    return highlighted.replace("<pre>", f"<pre {attributes}>", 1)


def highlight_python(code: str, label: str = EXAMPLE_LABEL) -> str:
    return as_scroll_region(highlight(code, PythonLexer(), FORMATTER), label)


def render_example(code: str, context: str = "", label: str = EXAMPLE_LABEL) -> str:
    """The figure the front end wires: `[data-load-example]` puts `data-context` (the earlier
    examples this one needs) and `data-source` in the editor. `label` names the code block."""
    context_attribute = f' data-context="{escapeHtml(context)}"' if context else ""
    return (
        f'<figure class="example" data-example data-source="{escapeHtml(code)}"{context_attribute}>\n'
        f"{highlight_python(code, label)}"
        '<figcaption><button type="button" class="example__load" data-load-example>'
        "Laad in editor</button></figcaption>\n"
        "</figure>\n"
    )


def render_fence(self: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[index]
    language, _ = split_info(token.info)
    if language in EXAMPLE_LANGUAGES:
        return render_example(token.content, token.meta.get("context", "") if token.meta else "")
    try:
        lexer = get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    return as_scroll_region(highlight(token.content, lexer, FORMATTER), CODE_LABEL)
