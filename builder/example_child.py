"""Runs a lesson's examples in a fresh interpreter; started by verify_examples.

Standard library only. Reads one JSON object on stdin:
  {"solution": str | null, "examples": [{"code": str, "first_line": int}, ...]}
and writes one JSON object on its original stdout:
  {"solution_error": str | null, "solution_error_line": int | null,
   "statements": [{"line": int, "end_line": int, "stdout": str, "error": str | null}, ...]}
with one entry per top-level statement in order, stopping after the first that raises. Line numbers are lesson-file lines, so a
traceback in an example points at the Markdown the teacher wrote.
"""

import ast
import contextlib
import io
import json
import os
import sys
import traceback
from typing import Any


def describe_exception(exception: BaseException) -> str:
    return traceback.format_exception_only(type(exception), exception)[-1].strip()


def solution_line(exception: BaseException) -> int | None:
    """The line of solution.py the exception comes from: a syntax error's own line, else the
    innermost solution.py frame of the traceback."""
    if isinstance(exception, SyntaxError) and exception.filename == "solution.py":
        return exception.lineno
    frames = [frame for frame in traceback.extract_tb(exception.__traceback__) if frame.filename == "solution.py"]
    return frames[-1].lineno if frames else None


def run_examples(solution: str | None, examples: list[dict[str, Any]]) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "lesson_examples"}
    if solution is not None:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(solution, "solution.py", "exec"), namespace)
        except BaseException as exception:
            return {"solution_error": describe_exception(exception),
                    "solution_error_line": solution_line(exception), "statements": []}
    results: list[dict[str, Any]] = []
    for example in examples:
        tree = ast.parse(example["code"], filename="lesson")
        ast.increment_lineno(tree, example["first_line"] - 1)
        for statement in tree.body:
            captured = io.StringIO()
            error = None
            try:
                with contextlib.redirect_stdout(captured):
                    module = ast.Module(body=[statement], type_ignores=[])
                    exec(compile(module, "lesson", "exec"), namespace)
            except BaseException as exception:  # report SystemExit and friends too
                error = describe_exception(exception)
            results.append({"line": statement.lineno, "end_line": statement.end_lineno, "stdout": captured.getvalue(), "error": error})
            if error is not None:
                return {"solution_error": None, "solution_error_line": None, "statements": results}
    return {"solution_error": None, "solution_error_line": None, "statements": results}


def main() -> None:
    request = json.load(sys.stdin)
    # Keep the real stdout for the result alone: an example writing to sys.__stdout__ or fd 1
    # lands on stderr instead of corrupting the JSON.
    result_channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    result = run_examples(request["solution"], request["examples"])
    result_channel.write(json.dumps(result))
    result_channel.flush()


if __name__ == "__main__":
    main()
