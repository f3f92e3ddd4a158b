"""Inside Pyodide: run the learner's code as main.py and report it in the learner's terms.

The worker loads this file once into a private namespace (it never lands in the learner's
globals). Plain CPython runs it too, which is how tests/browser/test_pyodide_runtime.py checks
the traceback trimming without a browser.
"""

import ast
import builtins
import json
import linecache
import sys
import types

# `traceback` is imported only when a learner's program fails: importing it (and `inspect`)
# up front would add to every learner's first Run.

LEARNER_FILE = "main.py"
# The name this file was compiled under ("<werkplaats-runtime>" in the worker, its path in tests).
RUNTIME_FILE = (lambda: None).__code__.co_filename

NO_INPUT_MESSAGE = (
    "input() werkt op deze pagina niet: de website staat niet toe dat Python wacht op wat je typt "
    "(de pagina is niet 'cross-origin isolated'). Zet de waarde zelf in je code, "
    "bijvoorbeeld naam = \"Sam\"."
)


def _from_first_learner_frame(tb):
    # Frames above the learner's first line are ours or Pyodide's: noise for a learner.
    while tb is not None and tb.tb_frame.f_code.co_filename != LEARNER_FILE:
        tb = tb.tb_next
    return tb


def _without_runtime_tail(tb):
    # Our input() stand-in is the last frame of its error: the learner's line is the one to see.
    last_learner = None
    node = tb
    while node is not None:
        if node.tb_frame.f_code.co_filename == LEARNER_FILE:
            last_learner = node
        elif node.tb_frame.f_code.co_filename != RUNTIME_FILE:
            return tb  # the learner's code went on into a library: keep everything
        node = node.tb_next
    if last_learner is not None:
        last_learner.tb_next = None
    return tb


def _trim_chain(exc, seen):
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    exc.__traceback__ = _without_runtime_tail(_from_first_learner_frame(exc.__traceback__))
    _trim_chain(exc.__cause__, seen)
    _trim_chain(exc.__context__, seen)


def format_learner_error(exc):
    """The traceback a learner should see: main.py frames onward, chained exceptions kept."""
    import traceback

    _trim_chain(exc, set())
    return "".join(traceback.format_exception(exc))


def _remember_source(source):
    # linecache lets tracebacks quote the learner's lines for a file that exists nowhere on disk.
    linecache.cache[LEARNER_FILE] = (len(source), None, source.splitlines(True), LEARNER_FILE)


def _exit_message(code):
    # sys.exit(...) ends a program normally; like CPython, only a non-integer code is printed.
    if code is None or isinstance(code, int):
        return ""
    return f"{code}\n"


def learner_input(read_line):
    """The program's input(): the prompt goes to stdout like CPython's, then `read_line()` (the
    worker's, blocking on the page's answer) gives the line; None means the page stopped the
    program. Without `read_line` (a page that is not cross-origin isolated) a Dutch error says why."""

    def input(prompt=""):
        if read_line is None:
            raise RuntimeError(NO_INPUT_MESSAGE)
        sys.stdout.write(str(prompt))
        sys.stdout.flush()
        line = read_line()
        if line is None:
            raise KeyboardInterrupt
        return str(line)

    return input


async def run_learner_code(source, read_line=None):
    """Run `source` as a fresh `__main__` module named main.py; its input() reads with
    `read_line` (see learner_input).

    Returns "ok", "exception" (traceback written to stderr) or "interrupted".
    """
    _remember_source(source)
    original_input = builtins.input
    builtins.input = learner_input(read_line)
    module = types.ModuleType("__main__")
    module.__file__ = LEARNER_FILE
    module.__builtins__ = builtins
    previous_main = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        code = compile(source, LEARNER_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        outcome = eval(code, module.__dict__)
        if isinstance(outcome, types.CoroutineType):
            await outcome
        return "ok"
    except KeyboardInterrupt:
        return "interrupted"
    except SystemExit as exit_request:
        sys.stderr.write(_exit_message(exit_request.code))
        return "ok"
    except BaseException as exc:
        sys.stderr.write(format_learner_error(exc))
        return "exception"
    finally:
        builtins.input = original_input  # checks and widgets keep the closed stdin
        if previous_main is not None:
            sys.modules["__main__"] = previous_main
        sys.stdout.flush()
        sys.stderr.flush()


def tool_namespace(args_json):
    """Globals for a trusted page-module snippet: only `args`, the JSON data the page sent."""
    return {"__name__": "werkplaats_tool", "args": None if args_json is None else json.loads(args_json)}


def to_json(value):
    """JSON text for a value a page module asked for (see worker-client.js `evaluate`)."""
    # ASCII escapes carry lone surrogates across to JavaScript intact.
    return json.dumps(value)
