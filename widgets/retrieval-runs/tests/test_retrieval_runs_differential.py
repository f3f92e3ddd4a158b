"""Differential tests: the retrieval-runs widget's JavaScript (in Node) against the reference solutions.

The widget computes in the page what checkpoints/rag-03/solution.py computes: question_hits and
evaluate on seeded random test sets (with touching, overlapping, gapped and other-version spans),
rag-01's word_chunks windows (checkpoints/rag-01/solution.py) on texts with Unicode whitespace
and astral characters, and the lesson's results table, whose rankings a Python port of the
lesson's scorer rebuilds from rag-01's word_chunks. "Mijn evaluatie" is checked on replies made
by runner.core.web.call, as the page gets them.
"""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

from runner.core import web, wire
from tests.node_bridge import node_fixture

ROOT = Path(__file__).resolve().parents[3]
SEEDS = range(300)


def load(lesson: str, name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "checkpoints" / lesson / "solution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RAG01 = load("rag-01", "rag01_solution_for_runs")
RAG03 = load("rag-03", "rag03_solution_for_runs")


node = node_fixture(Path(__file__).resolve().parent / "retrieval_runs_ops.mjs")


WORDS = ["lamp", "knop", "😀", "𝔘𝔫𝔦", "café", "x", "reset.", "e\u0301"]
SEPARATORS = [" ", "  ", "\n", "\t", "\xa0", "\u3000", "\x1c", "\x85", "\u2028", "\u200b", "\ufeff"]


def random_text(rng: random.Random) -> str:
    parts = [rng.choice(["", " ", "\n"])]
    for _ in range(rng.randint(1, 40)):
        parts += [rng.choice(WORDS), rng.choice(SEPARATORS)]
    return "".join(parts)


def random_test_set(rng: random.Random):
    corpus = {}
    for index in range(rng.randint(1, 4)):
        text = random_text(rng)
        corpus[f"doc{index}-v1"] = text
        if rng.random() < 0.5:
            corpus[f"doc{index}-v2"] = text
    questions, rankings = [], {}
    for number in range(rng.randint(1, 8)):
        version = rng.choice(sorted(corpus))
        length = len(corpus[version])
        start = rng.randrange(length)
        end = rng.randint(start + 1, length)
        qid = f"q{number}"
        questions.append({"id": qid, "question": "Wat?", "evidence": [version, start, end], "quote": corpus[version][start:end]})
        ranking = []
        for _ in range(rng.randint(0, 20)):
            if rng.random() < 0.6:
                low = rng.randint(max(0, start - 3), end - 1)
                span = [version, low, rng.randint(low + 1, min(length, end + 3))]
            else:
                other = rng.choice(sorted(corpus))
                other_start = rng.randrange(len(corpus[other]))
                span = [other, other_start, rng.randint(other_start + 1, len(corpus[other]))]
            if span not in ranking:
                ranking.append(span)
        rankings[qid] = ranking
    return questions, rankings, corpus


def test_question_hits_and_evaluate_match_the_reference(node):
    for seed in SEEDS:
        rng = random.Random(seed)
        questions, rankings, corpus = random_test_set(rng)
        k = rng.choice([1, 2, 3, 5, 10, 20, 100])
        assert node.ask(op="evaluate", questions=questions, rankings=rankings, k=k) == RAG03.evaluate(questions, rankings, corpus, k), seed
        for question in questions:
            got = node.ask(op="hits", evidence=question["evidence"], ranking=rankings[question["id"]], k=k)
            pieces = got.pop("pieces")
            assert got == RAG03.question_hits(question["evidence"], rankings[question["id"]], corpus, k), seed
            # The drawn pieces are the covered characters, joined where they touch, without the gaps.
            assert sum(high - low for low, high in pieces) == got["covered_chars"]
            assert all(pieces[i][1] < pieces[i + 1][0] for i in range(len(pieces) - 1))


def test_touching_and_gapped_spans_as_the_contract_says(node):
    touching = node.ask(op="hits", evidence=["lamp-v1", 41, 62], ranking=[["lamp-v1", 33, 48], ["lamp-v1", 48, 63]], k=2)
    assert touching == {"single_rank": None, "union_hit": True, "covered_chars": 21, "pieces": [[41, 62]]}
    gapped = node.ask(op="hits", evidence=["lamp-v1", 41, 62], ranking=[["lamp-v1", 33, 47], ["lamp-v1", 48, 63]], k=2)
    assert gapped == {"single_rank": None, "union_hit": False, "covered_chars": 20, "pieces": [[41, 47], [48, 62]]}


def test_word_windows_are_rag01_word_chunks(node):
    for seed in SEEDS:
        rng = random.Random(seed)
        text = random_text(rng)
        window = rng.randint(1, 12)
        overlap = rng.randint(0, window - 1)
        document = {"id": "d", "title": "t", "text": text, "revision": RAG01.sha256_of(text)}
        expected = [[c["word_start"], c["word_end"], c["start"], c["end"]] for c in RAG01.word_chunks(document, window, overlap)]
        assert node.ask(op="windows", text=text, window=window, overlap=overlap) == expected, seed


SCORE_WORD = re.compile(r"[^\W_]+")


def score_words(text: str) -> set[str]:
    """The lesson's scorer in Python: different words (letters and digits) of at least 4 characters."""
    return {match.group().lower() for match in SCORE_WORD.finditer(text) if len(match.group()) >= 4}


def python_table_row(corpus, questions, window, overlap, k):
    passages = []
    for order, (version, text) in enumerate(corpus.items()):
        document = {"id": "d", "title": "t", "text": text, "revision": RAG01.sha256_of(text)}
        for chunk in RAG01.word_chunks(document, window, overlap):
            passages.append((order, version, chunk["start"], chunk["end"], chunk["word_end"] - chunk["word_start"]))
    rankings = {}
    for question in questions:
        wanted = score_words(question["question"])
        scored = [(len(wanted & score_words(corpus[version][start:end])), order, start, version, end)
                  for order, version, start, end, _ in passages]
        scored = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1], item[2]))
        rankings[question["id"]] = [[version, start, end] for _, _, start, version, end in scored[:20]]
    words = {(version, start, end): length for _, version, start, end, length in passages}
    context = sum(words[tuple(span)] for qid in rankings for span in rankings[qid][:k]) / len(questions)
    return {"passages": len(passages), "stored_words": sum(p[4] for p in passages), "rankings": rankings,
            "evaluation": RAG03.evaluate(questions, rankings, corpus, k), "context_words": context}


@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_the_results_table_is_computed_as_the_lesson_says(node, k):
    lesson = node.ask(op="lesson", k=k)
    test_set, example = lesson["test_set"], lesson["example"]
    # The test sets are valid by the lesson's own rules: every quote sits exactly at its evidence.
    assert RAG03.evidence_index(test_set["questions"], test_set["corpus"]) == {q["id"]: q["evidence"] for q in test_set["questions"]}
    assert RAG03.evaluate(example["questions"], example["rankings"], example["corpus"], 2) == {
        "questions": 4, "k": 2, "single_hit_at_k": 0.5, "union_hit_at_k": 0.75, "single_mrr_at_k": 0.375}
    for row in lesson["configurations"]:
        expected = python_table_row(test_set["corpus"], test_set["questions"], row["window"], row["overlap"], k)
        assert {key: row[key] for key in expected} == expected, (row["window"], row["overlap"])


def test_the_table_shows_a_real_trade_off(node):
    # No configuration wins on every column: the one with the best hit rate sends the most context.
    rows = node.ask(op="lesson", k=2)["configurations"]
    best = max(rows, key=lambda row: row["evaluation"]["single_hit_at_k"])
    assert best["context_words"] == max(row["context_words"] for row in rows)
    assert min(row["evaluation"]["single_hit_at_k"] for row in rows) < best["evaluation"]["single_hit_at_k"]
    assert len({row["stored_words"] for row in rows}) > 1


CORRECT = (ROOT / "checkpoints" / "rag-03" / "solution.py").read_text(encoding="utf-8")


def learner_reply(source: str, k: int = 2) -> str:
    example = {
        "corpus": {"lamp-v1": "Houd de knop tien seconden vast. De lamp brandt groen na reset.",
                   "lamp-v2": "Houd de knop vijf seconden vast. De lamp brandt rood na reset."},
    }
    questions = [{"id": "q1", "question": "Hoe lang?", "evidence": ["lamp-v1", 13, 26], "quote": "tien seconden"}]
    rankings = {"q1": [["lamp-v2", 0, 32], ["lamp-v1", 0, 32]]}
    return wire.dumps(web.call("evaluate", [questions, rankings, example["corpus"], k], source=source))


EXPECTED_K2 = {"questions": 1, "k": 2, "single_hit_at_k": 1.0, "union_hit_at_k": 1.0, "single_mrr_at_k": 0.5}


def test_my_evaluation_agrees_with_a_correct_evaluate(node):
    answer = node.ask(op="compare", reply=learner_reply(CORRECT), expected=EXPECTED_K2)
    assert answer["verdict"] == "same"
    assert all(same for _, same in answer["same"])


def test_my_evaluation_names_the_keys_that_differ(node):
    wrong = CORRECT + "\n\n_right = evaluate\n\ndef evaluate(q, r, c, k=5):\n    result = _right(q, r, c, k)\n    result['single_mrr_at_k'] = 1\n    return result\n"
    answer = node.ask(op="compare", reply=learner_reply(wrong), expected=EXPECTED_K2)
    assert answer["verdict"] == "different"
    assert answer["summary"] == "Je evaluate wijkt af bij single_mrr_at_k."
    assert dict(answer["same"])["single_mrr_at_k"] is False  # the int 1 is not the float 0.5


def test_my_evaluation_reports_a_raised_error(node):
    raising = "def evaluate(questions, rankings, corpus, k=5):\n    raise ValueError('nog niet af')\n"
    answer = node.ask(op="compare", reply=learner_reply(raising), expected=EXPECTED_K2)
    assert answer["verdict"] == "raised"
    assert answer["summary"] == "Je evaluate gooide een ValueError op een geldige zoekronde: nog niet af"
