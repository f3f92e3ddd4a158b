"""The worker's Python side (site/src/pyodide_runtime.py), run in CPython: no browser needed."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import io
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

RUNTIME_PATH = Path(__file__).resolve().parents[2] / "site" / "src" / "pyodide_runtime.py"


@pytest.fixture(scope="module")
def runtime():
    spec = importlib.util.spec_from_file_location("werkplaats_pyodide_runtime", RUNTIME_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(runtime, source: str, read_line=None) -> tuple[str, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    main_before = sys.modules["__main__"]
    # A thread of its own: in a full test session Playwright's event loop runs in this one.
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        with ThreadPoolExecutor(max_workers=1) as executor:
            status = executor.submit(asyncio.run, runtime.run_learner_code(source, read_line)).result()
    assert sys.modules["__main__"] is main_before
    return status, stdout.getvalue(), stderr.getvalue()


def test_a_clean_program_runs_as_main(runtime):
    status, out, err = run(runtime, "print(__name__, __file__)\nif __name__ == '__main__':\n    print('ja')\n")
    assert (status, out, err) == ("ok", "__main__ main.py\nja\n", "")


def test_traceback_starts_at_the_learners_first_frame(runtime):
    status, out, err = run(runtime, "def f(x):\n    return 10 // x\n\nf(0)\n")
    assert status == "exception"
    # Newer Pythons underline the failing expression with ~ and ^; that is not our concern here.
    lines = [line for line in err.splitlines() if line.strip(" ~^")]
    assert lines == [
        "Traceback (most recent call last):",
        '  File "main.py", line 4, in <module>',
        "    f(0)",
        '  File "main.py", line 2, in f',
        "    return 10 // x",
        "ZeroDivisionError: integer division or modulo by zero",
    ]


def test_chained_exceptions_are_trimmed_too(runtime):
    source = "try:\n    {}['x']\nexcept KeyError as e:\n    raise ValueError('anders') from e\n"
    status, _, err = run(runtime, source)
    assert status == "exception"
    assert "KeyError: 'x'" in err
    assert "The above exception was the direct cause" in err
    assert err.rstrip().endswith("ValueError: anders")
    assert "pyodide_runtime" not in err


def test_stdlib_frames_below_the_learners_code_stay(runtime):
    _, _, err = run(runtime, "import json\njson.loads('{kapot')\n")
    assert 'File "main.py", line 2' in err
    assert "json" in err.split('File "main.py", line 2', 1)[1]
    assert "pyodide_runtime" not in err


def test_syntax_error_points_at_main_py(runtime):
    status, _, err = run(runtime, "x = 1\nprint(x\n")
    assert status == "exception"
    assert 'File "main.py", line 2' in err
    assert "SyntaxError" in err
    assert "Traceback" not in err


def test_keyboard_interrupt_is_reported_as_interrupted(runtime):
    status, _, err = run(runtime, "print('bezig')\nraise KeyboardInterrupt\n")
    assert (status, err) == ("interrupted", "")


def test_sys_exit_ends_quietly_or_prints_its_message(runtime):
    assert run(runtime, "import sys\nprint('a')\nsys.exit()\nprint('b')\n") == ("ok", "a\n", "")
    assert run(runtime, "import sys\nsys.exit('klaar ermee')\n") == ("ok", "", "klaar ermee\n")


def test_each_run_starts_with_fresh_globals(runtime):
    run(runtime, "geheim = 1\n")
    status, _, err = run(runtime, "print(geheim)\n")
    assert status == "exception"
    assert "NameError" in err


def test_top_level_await_is_allowed(runtime):
    assert run(runtime, "import asyncio\nawait asyncio.sleep(0)\nprint('klaar')\n") == ("ok", "klaar\n", "")


def test_tool_namespace_and_json_round_trip(runtime):
    namespace = runtime.tool_namespace('{"xs": [1, 2], "s": "\\ud800"}')
    assert namespace["args"] == {"xs": [1, 2], "s": "\ud800"}
    assert runtime.tool_namespace(None)["args"] is None
    assert runtime.to_json({"s": "\ud800é"}) == '{"s": "\\ud800\\u00e9"}'


def test_input_prints_its_prompt_and_reads_through_the_page(runtime):
    import builtins

    original = builtins.input
    lines = iter(["Sam", "41"])
    status, out, err = run(runtime, "naam = input('Naam? ')\nprint(naam, int(input()) + 1)\n", lambda: next(lines))
    assert (status, out, err) == ("ok", "Naam? Sam 42\n", "")
    assert builtins.input is original  # checks and widgets keep the closed stdin


def test_input_stopped_by_the_page_is_an_interrupt(runtime):
    status, out, _ = run(runtime, "try:\n    input('? ')\nexcept Exception:\n    print('gevangen')\n", lambda: None)
    assert (status, out) == ("interrupted", "? ")


def test_input_without_isolation_explains_itself_at_the_learners_line(runtime):
    status, out, err = run(runtime, "x = 1\nnaam = input('Naam? ')\n")
    assert status == "exception"
    lines = [line for line in err.splitlines() if line.strip(" ~^")]
    assert lines == [
        "Traceback (most recent call last):",
        '  File "main.py", line 2, in <module>',
        "    naam = input('Naam? ')",
        f"RuntimeError: {runtime.NO_INPUT_MESSAGE}",
    ]
