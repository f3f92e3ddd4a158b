"""Differential property test: the text-units widget's units.js (in Node) against rag-00b's
reference solution.

For seeded texts of every UTF-8 width, the surrogate edges, combining marks, flags, skin tones and
ZWJ sequences, the JavaScript must give exactly the rows of utf8_offsets, the positions of
char_to_utf16 for every index (the end included), the bytes of str.encode("utf-8"), and the
verdict of byte_span_to_chars for every pair of byte offsets from -1 to one past the end: the same
[start, end], or a ValueError where the table says the span cuts a code point, lies outside the
bytes or is reversed. A lone surrogate makes the text invalid on both sides.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from tests.node_bridge import node_fixture

ROOT = Path(__file__).resolve().parents[3]
LESSON = ROOT / "checkpoints" / "rag-00b"
MAX_CODE_POINTS = 100

def _module(path: Path, name: str, **injected: object) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(injected)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lesson() -> tuple[ModuleType, ModuleType]:
    reference = _module(LESSON / "solution.py", "rag00b_widget_solution")
    shared = _module(LESSON / "tests" / "_shared.py", "rag00b_widget_shared", reference=reference)
    return reference, shared


node = node_fixture(Path(__file__).resolve().parent / "text_units_ops.mjs")


@pytest.fixture(scope="module")
def units(node):
    return lambda text, spans: node.ask({"text": text, "spans": spans})


def reference_span(reference, text, byte_start, byte_end):
    try:
        return reference.byte_span_to_chars(text, byte_start, byte_end)
    except ValueError:
        return "raises"


def check_text(reference, units, text):
    total = len(text.encode("utf-8"))
    spans = [[start, end] for start in range(-1, total + 2) for end in range(-1, total + 2)]
    reply = units(text, spans)
    assert reply["valid"] is True
    assert reply["offsets"] == reference.utf8_offsets(text)
    assert reply["positions"] == [reference.char_to_utf16(text, index) for index in range(len(text) + 1)]
    assert bytes(reply["bytes"]) == text.encode("utf-8")
    for (start, end), got in zip(spans, reply["spans"]):
        expected = reference_span(reference, text, start, end)
        assert (got if isinstance(got, list) else "raises") == expected, (text, start, end, got)
        if expected == "raises":
            assert got in ("outside", "cut", "reversed"), (text, start, end, got)


def test_the_lesson_examples(lesson, units):
    reference, shared = lesson
    for text in ["", shared.EXAMPLE_TEXT, shared.FLAG_TEXT, "".join(shared.EDGE_CHARS), *shared.CLUSTERS]:
        check_text(reference, units, text)


def test_the_worked_example_by_value(units):
    # The contract's numbers, independent of the reference: 6 code points, 10 bytes, 7 units.
    reply = units("café \U0001F642", [[3, 5], [6, 10], [0, 0], [3, 4], [4, 3], [0, 11]])
    assert reply["offsets"] == [[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 3, 5], [4, 5, 6], [5, 6, 10]]
    assert reply["positions"] == [0, 1, 2, 3, 4, 5, 7]
    assert reply["spans"] == [[3, 4], [5, 6], [0, 0], "cut", "cut", "outside"]


def test_seeded_texts(lesson, units):
    reference, shared = lesson
    for seed in range(150):
        check_text(reference, units, shared.random_text(random.Random(seed), 8))


def test_every_edge_code_point_alone(lesson, units):
    reference, _ = lesson
    for code_point in [0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F642, 0x10FFFF]:
        check_text(reference, units, chr(code_point))


def test_a_lone_surrogate_makes_the_text_invalid_as_in_python(lesson, units):
    reference, shared = lesson
    for surrogate in shared.SURROGATES:
        for text in [surrogate, "a" + surrogate, surrogate + "\U0001F642"]:
            with pytest.raises(ValueError):
                reference.utf8_offsets(text)
            assert units(text, [])["valid"] is False


def test_the_size_limit_is_the_one_validate_py_states(units):
    validate = _module(Path(__file__).resolve().parents[1] / "validate.py", "text_units_validate")
    assert validate.MAX_CODE_POINTS == MAX_CODE_POINTS
    assert units("\U0001F642" * MAX_CODE_POINTS, [])["tooLong"] is False
    assert units("\U0001F642" * (MAX_CODE_POINTS + 1), [])["tooLong"] is True
    validate.validate({"source": "x" * MAX_CODE_POINTS, "byte_start": 0, "byte_end": 0})
    with pytest.raises(ValueError, match="at most 100"):
        validate.validate({"source": "x" * (MAX_CODE_POINTS + 1), "byte_start": 0, "byte_end": 0})
    with pytest.raises(ValueError, match="byte_start must not come after byte_end"):
        validate.validate({"source": "café", "byte_start": 3, "byte_end": 1})
    with pytest.raises(ValueError, match="at most the source's 5 UTF-8 bytes"):
        validate.validate({"source": "café", "byte_start": 0, "byte_end": 6})
