"""Verify stage: run every Python example of a lesson and hold it to its `# value` comments.

The examples of one lesson run in order in ONE namespace preloaded with the lesson's
solution.py, in a separate interpreter (builder/example_child.py) with a time limit, so a
teacher's runaway loop or `sys.exit()` cannot hang or end the build.

Expectations, per top-level statement:
- its last line ends with `# value`: the statement must print exactly `value`;
- otherwise, comment-only lines directly below it are its expected output, one line each.
Statements without either are run but their output is not checked. Trailing spaces at the end
of printed lines are ignored (editors strip them from comments anyway). Every wrong expectation
is reported; running stops at the first statement that raises.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.errors import BuildError, raise_if_any
from builder.model import Example, Lesson

CHILD_SCRIPT = Path(__file__).with_name("example_child.py")
TIME_LIMIT_SECONDS = 60
# An explanation rather than output: three or more words of letters ("Dit is teken 2").
PROSE = re.compile(r"[^\W\d_]+(?:[ ,]+[^\W\d_]+){2,}")
PROSE_HINT = ("; a comment line directly under a statement is read as its expected output: "
              "put explanations above the statement")


@dataclass(frozen=True)
class Expectation:
    report_line: int  # the comment's line in the lesson file
    expected: str  # lines joined by "\n"
    below: bool = False  # comment-only lines under the statement, not a trailing `# value`


def verify_examples(lesson: Lesson) -> None:
    runnable = [example for example in lesson.examples if example.runs]
    if not runnable:
        return
    expectations: dict[int, Expectation] = {}  # by the statement's last line
    for example in runnable:
        expectations.update(read_expectations(lesson.path, example))
    outcome = run_in_child(lesson, runnable)
    if outcome["solution_error"]:
        raise BuildError(f"{lesson.checkpoints_shown_dir}/solution.py", outcome.get("solution_error_line"),
                         f"the reference solution failed while preparing the examples: {outcome['solution_error']}")
    errors: list[BuildError] = []
    for statement in outcome["statements"]:
        expectation = expectations.get(statement["end_line"])
        if statement["error"] is not None:
            errors.append(BuildError(lesson.path, statement["line"], f"example raised {statement['error']}"))
        elif expectation is not None:
            printed = normalise_output(statement["stdout"])
            if printed != expectation.expected:
                errors.append(BuildError(lesson.path, expectation.report_line, mismatch(printed, expectation)))
    raise_if_any(errors)


def mismatch(printed: str, expectation: Expectation) -> str:
    message = f"example printed {printed!r}, comment expects {expectation.expected!r}"
    if expectation.below and PROSE.search(expectation.expected):
        return message + PROSE_HINT
    return message


def normalise_output(stdout: str) -> str:
    return "\n".join(line.rstrip() for line in stdout.rstrip("\n").split("\n"))


def read_expectations(path: str, example: Example) -> dict[int, Expectation]:
    offset = example.first_line - 1
    try:
        tree = ast.parse(example.code)
    except SyntaxError as error:
        line = offset + (error.lineno or 1)
        raise BuildError(path, line, f"example has a syntax error: {error.msg}") from None
    trailing, comment_only = comments_by_line(example.code)
    expectations: dict[int, Expectation] = {}
    for statement in tree.body:
        last = statement.end_lineno or statement.lineno
        if last in trailing:
            expectations[offset + last] = Expectation(offset + last, trailing[last])
            continue
        lines: list[str] = []
        while last + 1 + len(lines) in comment_only:
            lines.append(comment_only[last + 1 + len(lines)])
        if lines:
            expectations[offset + last] = Expectation(offset + last + 1, "\n".join(lines), below=True)
    return expectations


def comments_by_line(code: str) -> tuple[dict[int, str], dict[int, str]]:
    """Comment texts (without '#') at the end of a code line, and on lines of their own."""
    trailing: dict[int, str] = {}
    comment_only: dict[int, str] = {}
    lines_with_code: set[int] = set()
    comments: dict[int, str] = {}
    ignorable = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                 tokenize.DEDENT, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.removeprefix("#").strip()
        elif token.type not in ignorable:
            lines_with_code.update(range(token.start[0], token.end[0] + 1))
    for line, comment in comments.items():
        (trailing if line in lines_with_code else comment_only)[line] = comment
    return trailing, comment_only


def run_in_child(lesson: Lesson, examples: list[Example]) -> dict[str, Any]:
    request = json.dumps({
        "solution": lesson.solution_code,
        "examples": [{"code": example.code, "first_line": example.first_line} for example in examples],
    })
    try:
        completed = subprocess.run(
            [sys.executable, "-I", str(CHILD_SCRIPT)], input=request, capture_output=True,
            text=True, encoding="utf-8", timeout=TIME_LIMIT_SECONDS,
        )
    except subprocess.TimeoutExpired:
        raise BuildError(lesson.path, examples[0].first_line,
                         f"the examples did not finish within {TIME_LIMIT_SECONDS} seconds") from None
    try:
        result: dict[str, Any] = json.loads(completed.stdout)
        return result
    except json.JSONDecodeError:
        last_words = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(lesson.path, examples[0].first_line,
                         f"the examples stopped the interpreter (exit code {completed.returncode}): {last_words}") from None
