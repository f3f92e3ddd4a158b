"""Each Markdown extension on its own, against the fixture files in tests/fixtures/."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_cases import FixtureCase, read_fixture_cases, rewrite_expected
from markdown_it import MarkdownIt

from builder.errors import BuildError
from builder.lesson_markdown import create_markdown
from builder.model import Checkpoint, Example
from builder.plugins.callout import callout_plugin
from builder.plugins.checkpoint import checkpoint_plugin
from builder.plugins.directives import register_directive
from builder.plugins.examples import examples_plugin
from builder.plugins.math import math_plugin
from builder.plugins.parse_state import ParseState, parse_env
from builder.plugins.tables import tables_plugin
from builder.plugins.widget import widget_plugin
from builder.widgets import discover_widgets
from tests.golden_versions import rendering_note
from tests.lessons.lesson_tests import updating

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# The project's own widgets (chunk-ranges) and the test project's (counter, echo).
WIDGETS = {**discover_widgets(ROOT), **discover_widgets(FIXTURES / "widget-project")}
CHECKPOINTS = {
    "document_snapshots": Checkpoint("document_snapshots", 1, "Een citaat hoort bij één bronversie", "t", "h"),
    "word_chunks": Checkpoint("word_chunks", 2, "Overlap <bewaart> context", "t", "h"),
}
def markdown_with(plugin_name: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    plugins = {"checkpoint": checkpoint_plugin, "callout": callout_plugin,
               "math": math_plugin, "examples": examples_plugin, "widget": widget_plugin,
               "tables": tables_plugin}
    plugins[plugin_name](md)
    return md


def render(md: MarkdownIt, source: str) -> tuple[str, ParseState]:
    state = ParseState(path="fixture.md", checkpoints=CHECKPOINTS, widgets=WIDGETS)
    env = parse_env(state)
    tokens = md.parse(source, env)
    return md.renderer.render(tokens, md.options, env), state


def parse_collecting(md: MarkdownIt, source: str) -> ParseState:
    """Parse as the build does: every mistake and warning is collected in the parse state."""
    state = ParseState(path="fixture.md", checkpoints=CHECKPOINTS, widgets=WIDGETS, errors=[], warnings=[])
    md.parse(source, parse_env(state))
    return state


def fixture_params(plugin_name: str) -> list:
    return [pytest.param(plugin_name, case, id=f"{plugin_name}:{case.line}:{case.title}")
            for case in read_fixture_cases(FIXTURES / f"{plugin_name}.md")]


@pytest.mark.parametrize("plugin_name, case", [
    *fixture_params("checkpoint"), *fixture_params("widget"), *fixture_params("callout"),
    *fixture_params("math"), *fixture_params("examples"), *fixture_params("tables"),
])
def test_fixture_case(plugin_name: str, case: FixtureCase):
    md = markdown_with(plugin_name)
    if case.expected.startswith("error: "):
        with pytest.raises(BuildError) as raised:
            render(md, case.source)
        assert f"error: {raised.value}\n" == case.expected.splitlines(keepends=True)[0]
        # The build collects every mistake of the case, one "error: " line each.
        collected = parse_collecting(md, case.source).errors
        assert "".join(f"error: {error}\n" for error in collected) == case.expected
    else:
        html, _ = render(md, case.source)
        if updating():
            rewrite_expected(FIXTURES / f"{plugin_name}.md", case, html)
            return
        assert html == case.expected, (f"tests/fixtures/{plugin_name}.md:{case.line}: the output of "
                                       f"'{case.title}' changed; {rendering_note()}")


def test_two_instances_get_their_own_ids_and_the_page_lists_the_widget_once():
    source = ":::{widget} counter\nfunction: f\n:::\n\n:::{widget} counter\nfunction: g\n:::\n"
    html, state = render(markdown_with("widget"), source)
    assert 'id="counter-1"' in html and 'id="counter-1-title"' in html
    assert 'id="counter-2"' in html and 'id="counter-2-title"' in html
    assert [widget.name for widget in state.used_widgets] == ["counter"]


def test_without_widgets_every_name_is_unknown():
    md = markdown_with("widget")
    with pytest.raises(BuildError) as raised:
        md.parse(":::{widget} counter\n:::\n", parse_env(ParseState(path="fixture.md")))
    assert str(raised.value) == "fixture.md:1: unknown widget 'counter'"


def test_examples_are_listed_with_their_first_code_line_and_run_flag():
    source = "Tekst.\n\n```python\nprint(1)  # 1\n```\n\n```python no-run\nwhile True: pass\n```\n"
    _, state = render(markdown_with("examples"), source)
    assert state.examples == [
        Example(code="print(1)  # 1\n", first_line=4, runs=True),
        Example(code="while True: pass\n", first_line=8, runs=False),
    ]


def test_error_lines_count_from_the_top_of_the_lesson_file():
    md = markdown_with("checkpoint")
    env = parse_env(ParseState(path="lessons/x.md", line_offset=12, checkpoints=CHECKPOINTS))
    with pytest.raises(BuildError) as raised:
        md.parse("Tekst.\n\n:::{chekpoint} word_chunks\n:::\n", env)
    assert str(raised.value) == "lessons/x.md:15: unknown directive 'chekpoint' (did you mean 'checkpoint'?)"


def test_one_parser_serves_lesson_after_lesson_without_carrying_anything_over():
    md = create_markdown()
    lesson = "Tekst.\n\n```python\nprint(1)  # 1\n```\n\n:::{checkpoint} word_chunks\n:::\n"
    _, first = render(md, lesson)
    _, second = render(md, lesson)  # the same marker again is no "already has a marker"
    assert second.examples == first.examples == [Example(code="print(1)  # 1\n", first_line=4, runs=True)]
    assert second.placed_checkpoints == {"word_chunks"}


def test_an_unknown_directive_is_matched_against_every_registered_name():
    """Whatever plugins the parser has, the did-you-mean looks among their directives."""
    md = MarkdownIt("commonmark", {"html": False})
    callout_plugin(md)
    register_directive(md, "widget", lambda fence, argument, state: [])
    state = ParseState(path="fixture.md", errors=[])
    md.parse(":::{widgt} teller\n:::\n\n:::{calout} tip\nTekst.\n:::\n\n:::{plaatje}\n:::\n", parse_env(state))
    assert [str(error) for error in state.errors or []] == [
        "fixture.md:1: unknown directive 'widgt' (did you mean 'widget'?)",
        "fixture.md:4: unknown directive 'calout' (did you mean 'callout'?)",
        "fixture.md:8: unknown directive 'plaatje'",
    ]
