"""Differential property test: chunk-ranges.js (in Node) against the reference solution.

For any valid text and any window/overlap a learner can type, the JavaScript visualizer must
give the same words, passages (word and character offsets, exact text), validity verdict and
coverage figures as checkpoints/rag-01/solution.py.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

PYTHON_WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]
# Characters that trip a naive port: JavaScript's \s disagrees on U+FEFF; zero-width ones look
# like gaps but are not whitespace; astral ones are two UTF-16 units but one Python character.
TRICKY = [
    "\ufeff", "\u200b", "\u200c", "\u200d", "\u2060", "\u180e", "\u00ad",
    "\U0001f600", "\U0001f468\u200d\U0001f469", "\U0001d400", "\U0010ffff", "e\u0301",
    "\r\n", "\t", "\n", "  ", "\u3000", "\x00",
]
characters = st.one_of(
    st.sampled_from(PYTHON_WHITESPACE),
    st.sampled_from(TRICKY),
    st.sampled_from("abcdeXYZ.,!?-"),
    # Any valid character: lone surrogates are not text a learner can paste.
    st.characters(exclude_categories=("Cs",)),
)
texts = st.lists(characters, max_size=120).map("".join)

# What a learner can type into a number field, as the field's text.
field_texts = st.one_of(
    st.integers(min_value=-3, max_value=300).map(str),
    st.sampled_from(["", "6.0", "4.5", "1e2", "-0", "007", "99999999999999999999"]),
)
small_windows = st.integers(min_value=1, max_value=12)
small_overlaps = st.integers(min_value=0, max_value=11)


def python_value_of_field(value):
    """The value word_chunks gets for a field: only an integer literal is an int."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text == "":
        return None
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return float(text)


def reference_outcome(solution, text, window, overlap):
    words = [[start, end, text[start:end]] for start, end in solution.word_spans(text)]
    try:
        document = solution.document_snapshots([{"id": "eigen-bron", "title": "t", "text": text}])[0]
        chunks = solution.word_chunks(
            document, python_value_of_field(window), python_value_of_field(overlap),
        )
    except ValueError:
        return {"valid": False, "words": words, "passages": [], "coverage": None}
    passages = [
        [chunk["word_start"], chunk["word_end"], chunk["start"], chunk["end"], chunk["text"]]
        for chunk in chunks
    ]
    return {
        "valid": True,
        "words": words,
        "passages": passages,
        "coverage": solution.chunk_coverage(document, chunks),
    }


def assert_same_as_reference(node, solution, text, window, overlap):
    expected = reference_outcome(solution, text, window, overlap)
    answer = node.ask({"op": "compute", "text": text, "window": window, "overlap": overlap})
    problems = answer.pop("problems")
    assert answer == expected
    # An invalid input always explains itself; a valid one never shows an explanation.
    assert bool(problems) == (not expected["valid"])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts,
    window=st.one_of(small_windows, st.integers(min_value=-2, max_value=300), field_texts),
    overlap=st.one_of(small_overlaps, st.integers(min_value=-2, max_value=300), field_texts),
)
@example(text="De lamp brandt groen na reset. Houd de knop tien seconden vast voor herstel.",
         window=6, overlap=2)
@example(text="  A  B\nC D E F G H  ", window=4, overlap=1)
@example(text="\U0001f600 a\xa0b\ufeffc\x85d\x1ce", window=2, overlap=1)
@example(text=" \t\n\u3000", window=6, overlap=2)
@example(text="", window=6, overlap=2)
@example(text="a b c", window=256, overlap=255)
@example(text="a b c", window=257, overlap=0)
@example(text="a b c", window=3, overlap=3)
@example(text="a b c", window="6.0", overlap=2)
def test_javascript_matches_reference(chunk_ranges_node, reference_solution, text, window, overlap):
    assert_same_as_reference(chunk_ranges_node, reference_solution, text, window, overlap)


@pytest.mark.parametrize(
    ("text", "window", "overlap"),
    [
        pytest.param("ab " * 6666 + "cd", 6, 2, id="20000 characters: the limit"),
        pytest.param("ab " * 6666 + "cde", 6, 2, id="20001 characters: one too many"),
        pytest.param("\U0001f600" * 20000, 1, 0, id="20000 astral characters are 40000 UTF-16 units"),
        pytest.param("\U0001f600 " * 10000 + "x", 3, 1, id="20001 with astral characters"),
        pytest.param("a " * 10000, 1, 0, id="10000 one-word passages"),
        # Not text a learner can paste, but a JavaScript string can hold it: no UTF-8, no revision.
        pytest.param("a \ud800 b", 6, 2, id="lone surrogate"),
    ],
)
def test_javascript_matches_reference_at_the_length_limit(
    chunk_ranges_node, reference_solution, text, window, overlap,
):
    assert_same_as_reference(chunk_ranges_node, reference_solution, text, window, overlap)


def test_a_lone_surrogate_explains_itself(chunk_ranges_node):
    answer = chunk_ranges_node.ask({"op": "compute", "text": "ab \udc00x", "window": 6, "overlap": 2})
    assert answer["problems"] == [
        "De brontekst bevat op teken 3 een los surrogaat-teken. Dat is geen geldig Unicode en "
        "heeft geen UTF-8-vorm, dus ook geen revision.",
    ]
