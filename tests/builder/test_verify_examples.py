"""Lesson examples run at build time, in order, in one namespace with the solution preloaded."""

from __future__ import annotations

import pytest
from project_copy import LESSON, ProjectCopy

import builder.verify_examples
from builder.errors import BuildError, raise_if_any
from builder.load_lessons import load_lessons
from builder.verify_lessons import verify_lessons

ORIGINAL_EXAMPLE = """```python
print(count_words("De lamp  brandt"))  # 3
words = "een twee".split()
print(words)
# ['een', 'twee']
```"""


def load_and_verify(project: ProjectCopy) -> None:
    """The build's first two stages: load the lessons, then run their examples."""
    raise_if_any(verify_lessons(load_lessons(project.root / "lessons", project.root / "checkpoints",
                                             root=project.root)))


def load_with_examples(tmp_path, markdown: str) -> ProjectCopy:
    project = ProjectCopy(tmp_path)
    project.replace(LESSON, ORIGINAL_EXAMPLE, markdown)
    load_and_verify(project)
    return project


def build_error(tmp_path, markdown: str) -> str:
    with pytest.raises(BuildError) as raised:
        load_with_examples(tmp_path, markdown)
    return str(raised.value)


def test_examples_share_one_namespace_across_blocks(tmp_path):
    load_with_examples(tmp_path, '```python\ntotal = count_words("a b")\n```\n\nTekst.\n\n'
                                 '```python\nprint(total * 10)  # 20\n```')


def test_statements_without_a_comment_are_run_but_not_compared(tmp_path):
    load_with_examples(tmp_path, '```python\nprint("vrij")\nprint("ook vrij")\n```')


def test_comment_block_lists_every_printed_line(tmp_path):
    load_with_examples(tmp_path, '```python\nfor word in ["a", "b"]:\n    print(word)\n# a\n# b\n```')


def test_comment_block_that_misses_a_line_fails(tmp_path):
    message = build_error(tmp_path, '```python\nfor word in ["a", "b"]:\n    print(word)\n# a\n```')
    assert message.endswith("example printed 'a\\nb', comment expects 'a'")


def test_only_a_statements_last_line_holds_its_expected_value(tmp_path):
    # The comment on the first line of a two-line call is a remark, not an expected output.
    load_with_examples(tmp_path, '```python\nprint(count_words("a"),  # een woord\n      "!")  # 1 !\n```')


def test_comments_inside_strings_are_not_expectations(tmp_path):
    load_with_examples(tmp_path, '```python\nprint("# geen commentaar")  # # geen commentaar\n```')


def test_no_run_examples_are_not_executed(tmp_path):
    load_with_examples(tmp_path, "```python no-run\nraise SystemExit('never runs')\n```")


def test_exit_in_an_example_is_reported_not_obeyed(tmp_path):
    project_line = 29  # the first code line of the example in the fixture lesson
    message = build_error(tmp_path, "```python\nimport sys\nsys.exit(3)\n```")
    assert message == f"{LESSON}:{project_line + 1}: example raised SystemExit: 3"


def test_syntax_error_names_the_line(tmp_path):
    message = build_error(tmp_path, "```python\nx = 1\nprint(x +)\n```")
    assert message == f"{LESSON}:30: example has a syntax error: invalid syntax"


def test_writing_to_the_real_stdout_cannot_confuse_the_build(tmp_path):
    load_with_examples(tmp_path, '```python\nimport os, sys\nos.write(1, b"{}")\nsys.__stdout__.write("]")\n'
                                 'print("ok")  # ok\n```')


def test_runaway_example_is_stopped_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setattr(builder.verify_examples, "TIME_LIMIT_SECONDS", 1)
    message = build_error(tmp_path, "```python\nwhile True:\n    pass\n```")
    assert message == f"{LESSON}:29: the examples did not finish within 1 seconds"


def test_a_broken_solution_is_blamed_on_the_solution(tmp_path):
    project = ProjectCopy(tmp_path)
    (project.root / "checkpoints/tekst-01/solution.py").write_text("def count_words(text):\n    return 1 / 0\n"
                                                                    "count_words('x')\n")
    with pytest.raises(BuildError) as raised:
        load_and_verify(project)
    assert str(raised.value) == ("checkpoints/tekst-01/solution.py:2: the reference solution failed while "
                                 "preparing the examples: ZeroDivisionError: division by zero")


def test_example_inside_a_callout_reports_its_own_line(tmp_path):
    message = build_error(tmp_path, ':::{callout} tip Probeer\nEerst tekst.\n\n```python\nprint(1 + 1)  # 3\n```\n:::')
    assert message == f"{LESSON}:32: example printed '2', comment expects '3'"


def test_every_wrong_expectation_is_reported(tmp_path):
    message = build_error(tmp_path, '```python\nprint(1)  # 2\nprint(3)  # 3\nprint(4)  # 5\n```')
    assert message.splitlines() == [f"{LESSON}:29: example printed '1', comment expects '2'",
                                    f"{LESSON}:31: example printed '4', comment expects '5'"]


def test_an_explanation_under_a_statement_gets_a_hint(tmp_path):
    message = build_error(tmp_path, '```python\nprint("De"[1])\n# Dit is de tweede letter\n```')
    assert message == (f"{LESSON}:30: example printed 'e', comment expects 'Dit is de tweede letter'; a comment "
                       "line directly under a statement is read as its expected output: put explanations above "
                       "the statement")


def test_a_syntax_error_in_the_solution_names_its_line(tmp_path):
    project = ProjectCopy(tmp_path)
    (project.root / "checkpoints/tekst-01/solution.py").write_text("def count_words(text):\n"
                                                                    "    return len(text.split()\n")
    with pytest.raises(BuildError) as raised:
        load_and_verify(project)
    assert str(raised.value) == ("checkpoints/tekst-01/solution.py:2: the reference solution failed while "
                                 "preparing the examples: SyntaxError: '(' was never closed")
