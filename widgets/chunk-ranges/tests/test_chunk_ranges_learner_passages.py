""""Mijn passages": the calls through the shared runner entry (run here in CPython, as Pyodide
runs them) and the comparison drawn from their replies, for correct and typical wrong
word_chunks functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.core import web, wire

ROOT = Path(__file__).resolve().parents[3]
LAMP = "De lamp brandt groen na reset. Houd de knop tien seconden vast voor herstel."

CORRECT = (ROOT / "checkpoints" / "rag-01" / "solution.py").read_text(encoding="utf-8")
WIDGET_PYTHON = (ROOT / "widgets" / "chunk-ranges" / "widget.py").read_text(encoding="utf-8")

# The learner's typical slips, each a complete main.py.
WORD_CHUNKS_HEAD = '''
import hashlib, re

def word_chunks(document, window=40, overlap=8):
    if type(window) is not int or not 1 <= window <= 256:
        raise ValueError("window")
    if type(overlap) is not int or not 0 <= overlap < window:
        raise ValueError("overlap")
    spans = [m.span() for m in re.finditer(r"\\S+", document["text"])]
    chunks = []
'''


def chunk_builder(step, end_shift="0", stop="word_end == len(spans)"):
    return WORD_CHUNKS_HEAD + f'''
    word_start = 0
    while word_start < len(spans):
        word_end = min(word_start + window, len(spans))
        start, end = spans[word_start][0], spans[word_end - 1][1] + {end_shift}
        chunks.append({{"id": f"{{document['id']}}:{{word_start}}", "document_id": document["id"],
                       "revision": document["revision"], "word_start": word_start,
                       "word_end": word_end, "start": start, "end": end,
                       "text": document["text"][start:end]}})
        if {stop}:
            break
        word_start += {step}
    return chunks
'''


def compare(node, source, text=LAMP, window="6", overlap="2"):
    """The comparison widget.js draws, with both calls made by runner.core.web.call in CPython
    exactly as the worker makes them: the widget's own Python prepares the arguments, then the
    learner's word_chunks runs; their replies travel as plain JSON text."""
    prepared = web.call("learner_arguments", [text, window, overlap], source=WIDGET_PYTHON, filename="widget.py")
    assert prepared["status"] == "returned", prepared
    reply = None
    if prepared["value"] is not None:
        reply = wire.dumps(web.call("word_chunks", prepared["value"], source=source))
    return node.ask({
        "op": "compare", "text": text, "window": window, "overlap": overlap,
        "arguments": wire.dumps(prepared), "reply": reply,
    })


def statuses(comparison):
    return [item["status"] for item in comparison["learner"]], comparison["referenceStatus"]


def test_reference_solution_matches_everywhere(chunk_ranges_node):
    comparison = compare(chunk_ranges_node, CORRECT)
    assert comparison["verdict"] == "same"
    assert comparison["summary"] == (
        "Je passages zijn gelijk aan de referentie: 3 passages, dezelfde woorden, "
        "tekenbereiken en tekst."
    )
    assert statuses(comparison) == (["matching"] * 3, ["matching"] * 3)


def test_astral_text_keeps_python_offsets_through_the_snippet(chunk_ranges_node, reference_solution):
    text = "\U0001f600 Lamp\u00a0aan\ufeff!  \U0001f44d\U0001f3fd klaar\x85nu"
    comparison = compare(chunk_ranges_node, CORRECT, text=text, window="2", overlap="1")
    assert comparison["verdict"] == "same"
    document = reference_solution.document_snapshots([{"id": "d", "title": "t", "text": text}])[0]
    expected = reference_solution.word_chunks(document, 2, 1)
    assert [(item["start"], item["end"], item["text"]) for item in comparison["learner"]] == [
        (chunk["start"], chunk["end"], chunk["text"]) for chunk in expected
    ]
    # Code points, not UTF-16 units: the first word is one emoji, one Python character.
    assert comparison["learner"][0]["start"] == 0 and expected[0]["text"] == "\U0001f600 Lamp"


def test_stepping_a_whole_window_names_the_second_passage(chunk_ranges_node):
    comparison = compare(chunk_ranges_node, chunk_builder(step="window"))
    assert comparison["verdict"] == "different"
    assert comparison["summary"] == "Passage 2: word_start is 6, verwacht 4."
    # The learner's passages 2 and 3 stand where the reference's 2 and 3 should be.
    assert statuses(comparison) == (
        ["matching", "misplaced", "misplaced"], ["matching", "misplaced", "misplaced"],
    )


def test_an_end_one_character_too_far_is_misplaced(chunk_ranges_node):
    comparison = compare(chunk_ranges_node, chunk_builder(step="window - overlap", end_shift="1"))
    assert comparison["summary"] == "Passage 1: end is 31, verwacht 30."
    assert statuses(comparison) == (["misplaced"] * 3, ["misplaced"] * 3)
    assert comparison["learner"][0]["problem"] == "end is 31, verwacht 30"


def test_stopping_one_passage_early_names_the_missing_passage(chunk_ranges_node):
    # Stops one step too early when the last step would exactly reach the end: no tail.
    source = chunk_builder(step="window - overlap", stop="word_end + window - overlap >= len(spans)")
    comparison = compare(chunk_ranges_node, source)
    assert comparison["summary"] == (
        "Passage 3 ontbreekt: de referentie gaat door met woorden [8, 14), tekenbereik [39, 76), "
        "maar jouw lijst stopt na 2 passages."
    )
    assert statuses(comparison) == (["matching"] * 2, ["matching", "matching", "missing"])


def test_a_tail_of_only_overlap_is_an_extra_passage(chunk_ranges_node):
    source = chunk_builder(step="window - overlap", stop="False")
    comparison = compare(chunk_ranges_node, source)
    assert comparison["summary"] == (
        "Passage 4 is te veel: de referentie stopt na passage 3, want die eindigt al bij het "
        "laatste woord (word_end 14)."
    )
    assert statuses(comparison) == (["matching"] * 3 + ["extra"], ["matching"] * 3)


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        pytest.param("def word_chunks(document, window=40, overlap=8):\n    return ()\n",
                     "word_chunks moet een list teruggeven; jouw functie gaf een tuple.",
                     id="tuple"),
        pytest.param("def word_chunks(document, window=40, overlap=8):\n"
                     "    raise KeyError('<b>tekst</b>')\n",
                     "Je word_chunks gaf een KeyError ('<b>tekst</b>'), maar de referentie maakt "
                     "hier 3 passages.",
                     id="raises"),
        pytest.param("class Chunk(dict):\n    pass\n\n"
                     "def word_chunks(document, window=40, overlap=8):\n    return [Chunk()]\n",
                     "Passage 1: het is geen dict maar een Chunk.",
                     id="dict subclass"),
        pytest.param("def word_chunks(document, window=40, overlap=8):\n"
                     "    return [{'id': 'x'}]\n",
                     "Passage 1: de sleutels document_id, revision, word_start, word_end, start, "
                     "end, text ontbreken.",
                     id="keys missing"),
        pytest.param(CORRECT + "\n_right = word_chunks\n\n"
                     "def word_chunks(document, window=40, overlap=8):\n"
                     "    chunks = _right(document, window, overlap)\n"
                     "    chunks[0]['word_start'] = 0.0\n"
                     "    return chunks\n",
                     "Passage 1: word_start is 0.0 (een float), verwacht 0.",
                     id="float that equals the int"),
        pytest.param("def word_chunks(document window):\n    pass\n",
                     "Je code start niet: SyntaxError op regel 1: invalid syntax",
                     id="syntax error"),
        pytest.param("print('hallo')\n", "Je code definieert geen functie word_chunks.",
                     id="no function"),
    ],
)
def test_wrong_answers_are_named_in_dutch(chunk_ranges_node, source, summary):
    comparison = compare(chunk_ranges_node, source)
    assert comparison["summary"].startswith(summary)


def test_rejecting_invalid_input_like_the_reference_is_right(chunk_ranges_node):
    comparison = compare(chunk_ranges_node, CORRECT, overlap="6")
    assert comparison["verdict"] == "same"
    assert comparison["summary"] == (
        "Goed: je word_chunks weigert deze invoer met een ValueError, net als de referentie."
    )


def test_accepting_a_float_window_is_a_difference(chunk_ranges_node):
    lenient = CORRECT.replace("not is_exact_int(window) or ", "")
    comparison = compare(chunk_ranges_node, lenient, window="6.0")
    assert comparison["verdict"] == "different"
    assert comparison["summary"].startswith("De referentie weigert deze invoer met een ValueError")


def test_a_skipped_middle_passage_is_missing_and_its_neighbours_still_match(chunk_ranges_node):
    skip_second = CORRECT.replace(
        "        chunks.append(make_chunk(document, spans, word_start, word_end))",
        "        if word_start != window - overlap:\n"
        "            chunks.append(make_chunk(document, spans, word_start, word_end))",
    )
    assert skip_second != CORRECT
    comparison = compare(chunk_ranges_node, skip_second)
    assert comparison["summary"] == "Passage 2: word_start is 8, verwacht 4."
    assert statuses(comparison) == (["matching", "matching"], ["matching", "missing", "matching"])


def test_ten_thousand_passages_compare_in_one_go(chunk_ranges_node):
    comparison = compare(chunk_ranges_node, CORRECT, text="a " * 10000, window="1", overlap="0")
    assert comparison["verdict"] == "same"
    assert len(comparison["learner"]) == 10000
