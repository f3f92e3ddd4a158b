"""`:::{visualizer}`: where the chunk-range visualizer stands in the text.

Optional body lines `window: 6`, `overlap: 2`, `source: ...` override the defaults, which are
the reference lesson's lamp text. The markup itself is the visualizer's Jinja partial.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from builder.plugins.directives import error_at, register_directive

DEFAULT_SOURCE = "De lamp brandt groen na reset. Houd de knop tien seconden vast voor herstel."
MAX_WINDOW = 256

# Renders the partial with these options as its context; returns HTML.
RenderVisualizer = Callable[["VisualizerOptions"], str]


@dataclass(frozen=True)
class VisualizerOptions:
    window: int = 6
    overlap: int = 2
    source: str = DEFAULT_SOURCE

    def as_context(self) -> dict[str, object]:
        return asdict(self)


def visualizer_plugin(md: MarkdownIt, render: RenderVisualizer | None = None) -> None:
    """`render` is only needed to render (pass 2); parsing and validating work without it."""

    def handle(fence: Token, argument: str, state: StateCore) -> list[Token]:
        if argument:
            raise error_at(state.env, fence, f"the visualizer takes no argument, got '{argument}'")
        token = Token("visualizer", "div", 0)
        token.map = fence.map
        token.block = True
        token.meta = {"options": read_options(fence, state)}
        return [token]

    def render_visualizer(self, tokens: Sequence[Token], index: int, options, env) -> str:
        if render is None:
            raise RuntimeError("visualizer_plugin(md, render=...) is needed to render HTML")
        html = render(tokens[index].meta["options"])
        return html if not html or html.endswith("\n") else html + "\n"

    register_directive(md, "visualizer", handle)
    md.add_render_rule("visualizer", render_visualizer)


def read_options(fence: Token, state: StateCore) -> VisualizerOptions:
    values: dict[str, object] = {}
    for number, raw_line in enumerate(fence.content.splitlines(), start=1):
        line = raw_line.strip()
        if not line:
            continue
        line_token = Token("", "", 0)
        line_token.map = [fence.map[0] + number, fence.map[0] + number + 1] if fence.map else None
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or key not in ("window", "overlap", "source"):
            raise error_at(state.env, line_token,
                           f"visualizer options are 'window: N', 'overlap: N' and 'source: text', got '{line}'")
        if key in values:
            raise error_at(state.env, line_token, f"visualizer option '{key}' appears twice")
        if key == "source":
            if not value:
                raise error_at(state.env, line_token, "the visualizer source must not be empty")
            values[key] = value
        elif not value.isascii() or not value.isdigit():
            raise error_at(state.env, line_token, f"visualizer option '{key}' must be a whole number, got '{value}'")
        else:
            values[key] = int(value)
    options = VisualizerOptions(**values)  # type: ignore[arg-type]
    if not 1 <= options.window <= MAX_WINDOW or not 0 <= options.overlap < options.window:
        raise error_at(state.env, fence,
                       f"the visualizer needs 1 <= window <= {MAX_WINDOW} and 0 <= overlap < window, "
                       f"got window {options.window}, overlap {options.overlap}")
    return options
