"""Differential property test: the heading-sections widget's structure.js (in Node) against
rag-02's reference solution (and rag-01's word_chunks for the fixed windows).

For seeded Markdown with fences, closing sequences, seven hashes, indentation, \\r\\n, Unicode
whitespace, \\v and U+2028 inside lines and astral characters, the JavaScript must give exactly the
headings of markdown_headings, the chunks of section_chunks and sized_chunks, and rag-01's
word_chunks windows, with code-point offsets and the same verdict on invalid sizes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from runner.core import plain, wire
from tests.node_bridge import node_fixture

ROOT = Path(__file__).resolve().parents[3]
SEEDS = range(400)
SIZES = [("5", "1"), ("1", "0"), ("2", "1"), ("40", "8"), ("256", "255"), ("3", "0")]
BAD_SIZES = [("0", "0"), ("257", "0"), ("4", "4"), ("4", "-1"), ("4.0", "1"), ("", "1"), ("4", "")]

def _module(path: Path, name: str, **injected: object) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(injected)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def solutions() -> tuple[ModuleType, ModuleType, ModuleType]:
    rag02 = _module(ROOT / "checkpoints" / "rag-02" / "solution.py", "rag02_widget_solution")
    shared = _module(ROOT / "checkpoints" / "rag-02" / "tests" / "_shared.py", "rag02_widget_shared", reference=rag02)
    rag01 = _module(ROOT / "checkpoints" / "rag-01" / "solution.py", "rag01_widget_solution")
    return rag02, shared, rag01


bridge = node_fixture(Path(__file__).resolve().parent / "heading_sections_ops.mjs")


@pytest.fixture(scope="module")
def node(bridge):
    return lambda text, max_words, overlap: bridge.ask({"text": text, "max_words": max_words, "overlap": overlap})


def expected(rag02: ModuleType, rag01: ModuleType, text: str, max_words: str, overlap: str) -> dict:
    document = {"id": "d", "title": "t", "text": text, "revision": hashlib.sha256(text.encode("utf-8")).hexdigest()}
    headings = rag02.markdown_headings(text)
    sections = [[c["chunk_number"], c["level"], c["headings"], c["start"], c["end"], c["text"]]
                for c in rag02.section_chunks(document)]
    try:
        sized = rag02.sized_chunks(document, int(max_words), int(overlap))
        windows = rag01.word_chunks(document, int(max_words), int(overlap))
    except ValueError:
        return {"valid": False, "headings": headings, "sections": sections, "sized": [], "fixed": []}
    return {
        "valid": True,
        "headings": headings,
        "sections": sections,
        "sized": [[c["chunk_number"], c["section"], c["headings"], c["start"], c["end"], c["text"], c["embed_text"]] for c in sized],
        "fixed": [[w["word_start"], w["word_end"], w["start"], w["end"], w["text"]] for w in windows],
    }


def test_lesson_manual(solutions, node) -> None:
    rag02, shared, rag01 = solutions
    assert node(shared.LAMP_TEXT, "5", "1") == expected(rag02, rag01, shared.LAMP_TEXT, "5", "1")


@pytest.mark.parametrize("index", range(len(_module(ROOT / "checkpoints" / "rag-02" / "tests" / "_shared.py", "rag02_trap_count", reference=None).TRAP_TEXTS)))
def test_heading_traps(solutions, node, index: int) -> None:
    rag02, shared, rag01 = solutions
    text = shared.TRAP_TEXTS[index]
    for max_words, overlap in SIZES[:3]:
        assert node(text, max_words, overlap) == expected(rag02, rag01, text, max_words, overlap)


def test_seeded_markdown(solutions, node) -> None:
    rag02, shared, rag01 = solutions
    differing = []
    for seed in SEEDS:
        rng = random.Random(seed)
        text = shared.random_document(rng, line_count=30)["text"]
        max_words, overlap = rng.choice(SIZES + BAD_SIZES[:1])
        if node(text, max_words, overlap) != expected(rag02, rag01, text, max_words, overlap):
            differing.append(seed)
    assert differing == []


@pytest.mark.parametrize("max_words, overlap", BAD_SIZES)
def test_invalid_sizes_draw_no_chunks(solutions, node, max_words: str, overlap: str) -> None:
    rag02, shared, _ = solutions
    reply = node(shared.LAMP_TEXT, max_words, overlap)
    assert reply["valid"] is False and reply["sized"] == [] and reply["fixed"] == []


def test_every_separator_of_python_str_split_and_none_else(solutions, node) -> None:
    """The widget keeps its own table of Python's whitespace: every character of it splits words,
    look-alikes that Python does not split on (zero-width space, BOM, U+180E) do not."""
    rag02, _, rag01 = solutions
    separators = [chr(code) for code in range(0x110000) if chr(code).isspace() and chr(code) not in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"]
    look_alikes = ["\u200b", "\ufeff", "\u180e", "\u2060"]
    body = "".join(f"w{index}{separator}" for index, separator in enumerate(separators + look_alikes))
    text = f"# Kop\n{body}einde\n\n## Tweede\n" + "\x0b".join(["a", "b", "c"]) + "\u2028d\n"
    for max_words, overlap in (("1", "0"), ("5", "1"), ("3", "2")):
        assert node(text, max_words, overlap) == expected(rag02, rag01, text, max_words, overlap)


def compare(bridge, mine, reference) -> str | None:
    return bridge.ask(op="compare", mine=wire.dumps(plain.encode(mine)), reference=wire.dumps(plain.encode(reference)))


def test_my_chunks_names_the_first_difference_grading_would_find(bridge) -> None:
    chunk = {"chunk_number": 0, "start": 0, "end": 5, "headings": ["Kop"]}
    assert compare(bridge, [chunk], [chunk]) is None
    assert compare(bridge, [dict(reversed(chunk.items()))], [chunk]) is None  # key order is no difference
    assert compare(bridge, [], [chunk]) == "In het resultaat staan 0 elementen; de referentie heeft er 1."
    assert compare(bridge, [{**chunk, "end": 5.0}], [chunk]) == "Op [0]['end']: de referentie heeft 5, jij gaf 5.0."
    assert compare(bridge, [{"chunk_number": 0}], [chunk]) == "In [0] ontbreekt de sleutel 'start'."
    assert compare(bridge, [{**chunk, "extra": 1}], [chunk]) == "In [0] staat een sleutel te veel: 'extra'."
    assert compare(bridge, [{**chunk, "headings": ["Kop", "Sub"]}], [chunk]) == \
        "In [0]['headings'] staan 2 elementen; de referentie heeft er 1."
