"""'Laad in editor' brings along the earlier examples an example builds on."""

from builder.example_context import example_contexts


def test_an_example_takes_the_earlier_example_that_defines_its_names():
    codes = ["import hashlib\ndoc = make()\n", "chunks = split(doc)\n", "print(len(chunks))\n"]
    assert example_contexts(codes) == [[], [0], [0, 1]]


def test_an_example_that_defines_everything_itself_needs_nothing():
    codes = ["text = 'a b'\n", "text = 'c d'\nprint(text.split())\n"]
    assert example_contexts(codes) == [[], []]


def test_reading_a_name_before_rebinding_it_still_needs_the_earlier_value():
    codes = ["count = 1\n", "count = count + 1\nprint(count)\n"]
    assert example_contexts(codes) == [[], [0]]


def test_the_latest_definition_wins_and_builtins_need_nothing():
    codes = ["x = 1\n", "x = 2\n", "print(len([x]))\n"]
    assert example_contexts(codes) == [[], [], [1]]


def test_an_import_in_an_earlier_example_is_brought_along():
    codes = ["import re\n", "print(re.findall('a', 'aa'))\n"]
    assert example_contexts(codes) == [[], [0]]


def test_an_example_with_a_syntax_error_depends_on_nothing():
    assert example_contexts(["x = 1\n", "print(x\n"]) == [[], []]


def test_the_rendered_figure_carries_its_context(tmp_path):
    from builder.lesson_markdown import create_markdown

    html = create_markdown().render(
        "```python\nx = 1\n```\n\n```python\nprint(x)  # 1\n```\n", {"path": "lessons/t.md"},
    )
    first, second = html.split("</figure>")[:2]
    assert "data-context" not in first
    assert 'data-context="x = 1\n"' in second
