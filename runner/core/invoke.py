"""Runs inside the learner's interpreter: load main.py, call one of its functions.

Used by both hosts: in-process (browser, benchmark baseline) and in the offline child process.
Arguments come in and results go out in the plain encoding only (see runner.core.plain), so whatever
the learner returns, the tests on the other side see exact builtin values or opaque markers.
Learner stdout/stderr during loading and calls is captured (capped) and reported separately, so it
can never be mixed with the host's own protocol.
"""

from __future__ import annotations

import builtins
import contextlib
import inspect
import itertools
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from runner.core import messages, plain
from runner.core.model import MAX_MESSAGE_CHARS, ErrorInfo, FunctionInfo, LoadReport, ParameterInfo, clip

MODULE_NAME = "main"
# Below model.MAX_STDOUT_CHARS, so the "weggelaten" note always fits.
STDOUT_CAP_CHARS = 16_000
# Wire key meaning "the arguments after the call are exactly the ones sent"; the host then fills
# in args_after itself (`runner.core.host.outcome_from_wire`) instead of decoding a copy from the reply.
ARGS_UNCHANGED = "args_unchanged"
# Wire key: the value's encoding is exact (no marker, no escaped key). Only a host that ran invoke
# in its own process may believe it (InProcessHost); the offline grader looks at the reply itself.
VALUE_EXACT = "value_exact"
_CONTAINER_TYPES = frozenset({list, dict})
_IS_DICT = frozenset({dict}).__contains__
_IS_LIST = frozenset({list}).__contains__
# Called from C by map(): a Python function here cost a frame per dict.
_dict_values: Callable[[dict[Any, Any]], Iterable[Any]] = dict.values
# How many result containers the alias walk visits at most.
ALIAS_WALK_LIMIT = 200_000


class CappedText:
    """A write-only text stream that keeps the first STDOUT_CAP_CHARS characters."""

    def __init__(self, cap: int = STDOUT_CAP_CHARS) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def write(self, text: Any) -> int:
        if type(text) is not str:
            text = "" if text is None else plain.type_name(text)
        room = self.cap - self.size
        if room > 0:
            kept = text[:room]
            self.parts.append(kept)
            self.size += len(kept)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def getvalue(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n… ({self.dropped} tekens uitvoer weggelaten)"
        return text

    def take(self) -> str:
        """getvalue(), then start empty again."""
        text = self.getvalue()
        self.parts, self.size, self.dropped = [], 0, 0
        return text


class _Captured:
    """Swap sys.stdout/stderr for one capped buffer and always put the originals back."""

    def __init__(self) -> None:
        self.buffer = CappedText()

    def __enter__(self) -> CappedText:
        self.saved = (sys.stdout, sys.stderr)
        sys.stdout = sys.stderr = self.buffer
        return self.buffer

    def __exit__(self, *exc_info: Any) -> None:
        sys.stdout, sys.stderr = self.saved


@dataclass
class LoadedCode:
    report: LoadReport
    namespace: dict[str, Any]


def _safe_message(error: BaseException) -> str:
    # str() of a learner-defined exception runs learner code; it must not break the report.
    try:
        text = str(error)
    except KeyboardInterrupt:
        raise  # the time limit, not a broken message
    except BaseException:
        text = ""
    if type(text) is not str:
        text = ""
    return clip(text, MAX_MESSAGE_CHARS)


def _line_in(tb: types.TracebackType | None, filename: str) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def error_info(error: BaseException, filename: str = "main.py") -> ErrorInfo:
    try:
        line = _line_in(BaseException.__dict__["__traceback__"].__get__(error), filename)
    except BaseException:
        line = None
    return ErrorInfo(
        type_name=plain.type_name(error),
        # issubclass on the real type, not isinstance: __class__ can be faked by the learner.
        is_value_error=issubclass(type(error), ValueError),
        message=_safe_message(error),
        line=line,
    )


def describe_function(namespace: dict[str, Any], name: str) -> FunctionInfo:
    if name not in namespace:
        return FunctionInfo(name=name, exists=False, is_callable=False)
    value = namespace[name]
    if not callable(value):
        return FunctionInfo(name=name, exists=True, is_callable=False, type_name=plain.type_name(value))
    try:
        signature = inspect.signature(value)
        parameters = tuple(
            ParameterInfo(
                name=str(parameter.name),
                kind=parameter.kind.name,
                has_default=parameter.default is not inspect.Parameter.empty,
            )
            for parameter in signature.parameters.values()
        )
    except BaseException:
        parameters = None
    return FunctionInfo(name=name, exists=True, is_callable=True, parameters=parameters, type_name=plain.type_name(value))


def load_module(source: str, filename: str = "main.py", expected: Iterable[str] = ()) -> LoadedCode:
    """Compile and run source as a fresh module `main`; describe the expected functions."""
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = filename
    namespace = module.__dict__
    namespace["__builtins__"] = builtins
    # Learner dataclasses and pickling look their module up in sys.modules.
    sys.modules[MODULE_NAME] = module
    with _Captured() as output:
        try:
            code = compile(source, filename, "exec", dont_inherit=True)
        except SyntaxError as error:
            info = ErrorInfo("SyntaxError", False, _safe_message_text(error.msg), error.lineno)
            report = LoadReport(problem="syntax", error=info, message=messages.syntax_error(info))
            return LoadedCode(report, namespace)
        except ValueError as error:  # e.g. source with NUL bytes
            info = ErrorInfo("SyntaxError", False, _safe_message(error), None)
            report = LoadReport(problem="syntax", error=info, message=messages.syntax_error(info))
            return LoadedCode(report, namespace)
        try:
            exec(code, namespace)
        except KeyboardInterrupt:
            report = LoadReport.timed_out(stdout=output.getvalue())
            return LoadedCode(report, namespace)
        except BaseException as error:
            info = error_info(error, filename)
            report = LoadReport(
                problem="exception",
                error=info,
                message=messages.exception_at_load(info),
                stdout=output.getvalue(),
            )
            return LoadedCode(report, namespace)
        functions = tuple(describe_function(namespace, name) for name in expected)
    return LoadedCode(LoadReport(functions=functions, stdout=output.getvalue()), namespace)


def _safe_message_text(text: Any) -> str:
    return text if type(text) is str else ""


def _only_containers(values: Iterable[object]) -> Iterable[object]:
    """The exact lists and dicts among values, selected without a Python-level loop."""
    values = list(values)
    return itertools.compress(values, map(_CONTAINER_TYPES.__contains__, map(type, values)))


def _containers(value: Any, found: dict[int, object]) -> None:
    """Every list and dict in freshly decoded arguments, by id.

    The objects themselves are kept too: if the learner empties an input list, its dicts must
    stay alive, or a new result dict could reuse an old id and look like an alias.
    """
    containers = _all_containers(value, plain.MAX_NODES, plain.MAX_DEPTH + 1)
    found.update(zip(map(id, containers), containers))


def _all_containers(value: Any, limit: int, max_levels: int | None = None) -> list[object]:
    """Every exact list and dict in value, level by level, up to max_levels levels (None: as
    deep as they go) and at most limit containers. A whole level is handled at once with C-level
    chain/compress (a list of 20000 dicts costs no Python loop); only the builtin iterators of
    exact lists and dicts run, each inside one C call, so no learner thread can interleave."""
    found: list[object] = []
    level: list[Any] = list(_only_containers([value]))
    levels = itertools.count() if max_levels is None else range(max_levels)
    for _depth in levels:
        room = limit - len(found)
        if not level or room <= 0:
            break
        found.extend(level[:room])
        dicts = itertools.compress(level, map(_IS_DICT, map(type, level)))
        lists = itertools.compress(level, map(_IS_LIST, map(type, level)))
        children: Iterator[Any] = itertools.chain(itertools.chain.from_iterable(lists),
                                                  itertools.chain.from_iterable(map(_dict_values, dicts)))
        # tee: the items are filtered as they stream by, so only the containers are ever listed,
        # and at most as many as there is room for.
        items, kinds = itertools.tee(children)
        level = list(itertools.islice(
            itertools.compress(items, map(_CONTAINER_TYPES.__contains__, map(type, kinds))), room + 1))
    return found


def _result_containers(result: Any) -> list[object]:
    """Every exact list and dict in result (up to the walk limit), without building paths."""
    return _all_containers(result, ALIAS_WALK_LIMIT)


def _aliased_paths(result: Any, input_ids: dict[int, object], containers: list[object]) -> list[list[Any]]:
    """Paths in result (exact lists/dicts only) to objects that are input containers.

    containers: `_result_containers(result)`, walked once for both checks."""
    # Almost every result shares nothing with its input: find that out without building paths.
    if input_ids.keys().isdisjoint(map(id, containers)):
        return []
    paths: list[list[Any]] = []
    stack: list[tuple[Any, list[Any]]] = [(result, [])]
    visited = 0
    while stack and visited < ALIAS_WALK_LIMIT and len(paths) < 100:
        value, path = stack.pop()
        visited += 1
        if id(value) in input_ids and type(value) in (list, dict):
            paths.append(path)
            continue
        if len(path) >= plain.MAX_DEPTH:
            continue
        if type(value) is list:
            for index, item in enumerate(list.copy(value)):
                stack.append((item, path + [index]))
        elif type(value) is dict:
            for key, item in list(dict.items(value)):
                if type(key) is str:
                    stack.append((item, path + [key]))
    paths.sort(key=lambda p: [str(step) for step in p])
    return paths


def _shared_paths(result: Any, containers: list[object]) -> list[list[Any]]:
    """Paths in result to a list or dict that an earlier position (in reading order) holds too.

    The plain encoding copies every position, so "each item gets a new list" can only be checked
    here, where the objects still are what the learner returned."""
    # Almost every result holds each container once: find that out without building paths.
    if len(set(map(id, containers))) == len(containers):
        return []
    paths: list[list[Any]] = []
    seen: set[int] = set()
    stack: list[tuple[Any, list[Any]]] = [(result, [])]
    visited = 0
    while stack and visited < ALIAS_WALK_LIMIT and len(paths) < 100:
        value, path = stack.pop()
        visited += 1
        if type(value) not in _CONTAINER_TYPES:
            continue
        if id(value) in seen:
            paths.append(path)
            continue
        seen.add(id(value))
        if len(path) >= plain.MAX_DEPTH:
            continue
        entries: list[tuple[Any, list[Any]]]
        if type(value) is list:
            entries = [(item, path + [index]) for index, item in enumerate(list.copy(value))]
        else:
            mapping: dict[Any, Any] = value
            entries = [(item, path + [key]) for key, item in list(dict.items(mapping)) if type(key) is str]
        # Reversed onto the stack, so the first position in reading order is the one kept.
        stack.extend(reversed(entries))
    paths.sort(key=lambda p: [str(step) for step in p])
    return paths


def invoke(
    namespace: dict[str, Any],
    function: str,
    args: Any,
    kwargs: Any,
    call_guard: Callable[[], AbstractContextManager[Any]] | None = None,
    already_plain: bool = False,
    copy_value: bool = True,
) -> dict[str, Any]:
    """Call namespace[function] with encoded args/kwargs; return the wire form of a CallOutcome.

    call_guard, when given, makes a context manager that wraps only the learner's call (not the
    conversions around it); InProcessHost uses it for its time limit. already_plain: the trusted
    sender says args/kwargs are fresh objects that need no decoding (`plain.encode_checked`'s
    exact), so they are handed to the learner as they are. copy_value=False: the caller
    serializes the reply at once (the offline child), so a result that is its own encoding goes
    into the reply as it is instead of as a copy (`plain.encode_checked`).
    """
    try:
        if already_plain:
            decoded_args, decoded_kwargs = args, kwargs
        else:
            decoded_args = plain.decode(args)
            decoded_kwargs = plain.decode(kwargs)
    except plain.PlainError as error:
        return {"kind": "error", "message": f"ongeldige argumenten: {error}"}
    if type(decoded_args) is not list or type(decoded_kwargs) is not dict:
        return {"kind": "error", "message": "ongeldige argumenten"}
    target = namespace.get(function)
    if target is None or not callable(target):
        return {"kind": "error", "message": messages.missing_function(function)}
    # The mutation check compares with this, taken before the learner sees the arguments.
    # Arguments the trusted sender marked plain are parsed JSON or an exact copy: exact plain by
    # construction, so marshal alone fingerprints them. After the call they are checked again.
    fingerprint_sent = plain.fingerprint_of_plain if already_plain else plain.fingerprint
    sent_fingerprint = fingerprint_sent([decoded_args, decoded_kwargs])
    input_ids: dict[int, object] = {}
    _containers(decoded_args, input_ids)
    _containers(decoded_kwargs, input_ids)
    wire: dict[str, Any] = {"kind": "return", "value": None, "error": None}
    started = time.perf_counter()
    result: Any = None
    guard = call_guard() if call_guard is not None else contextlib.nullcontext()
    with _Captured() as output:
        try:
            with guard:
                try:
                    result = target(*decoded_args, **decoded_kwargs)
                except KeyboardInterrupt:
                    raise
                except BaseException as error:
                    # Still inside the guard: str() of a learner exception is learner code too.
                    wire = {"kind": "raise", "value": None, "error": error_info(error).to_wire()}
        except KeyboardInterrupt:
            wire = {"kind": "timeout", "value": None, "error": None}
    wire["duration_ms"] = (time.perf_counter() - started) * 1000
    if wire["kind"] == "return":
        wire["value"], wire[VALUE_EXACT] = plain.encode_checked(result, copy=copy_value)
        containers = _result_containers(result)
        wire["aliased_paths"] = _aliased_paths(result, input_ids, containers)
        wire["shared_paths"] = _shared_paths(result, containers)
    if sent_fingerprint is not None and plain.unchanged([decoded_args, decoded_kwargs], sent_fingerprint):
        # The usual case: say so instead of sending every argument back (see ARGS_UNCHANGED).
        wire[ARGS_UNCHANGED] = True
    else:
        wire["args_after"] = plain.encode(decoded_args)
        wire["kwargs_after"] = plain.encode(decoded_kwargs)
    wire["stdout"] = output.getvalue()
    return wire
