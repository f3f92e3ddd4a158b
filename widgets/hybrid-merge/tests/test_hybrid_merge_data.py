"""The merge viewer of rag-04 (widgets/hybrid-merge/) against the lesson and its reference solution.

Pure Python, no browser: the widget's chunks are the lesson's, its BM25 is the lesson's, its
account of the cap's two passes keeps exactly what the reference's cap_per_document keeps, its
question list is the template's, and the shipped vectors still tell the story the lesson tells.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
WIDGET = ROOT / "widgets" / "hybrid-merge"
LESSON = ROOT / "lessons" / "rag-04.md"


def load_reference():
    spec = importlib.util.spec_from_file_location("rag04_solution_for_widget", ROOT / "checkpoints" / "rag-04" / "solution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def widget_namespace() -> dict:
    """routes.py as the page runs it, with the data of corpus.json as widget.js hands it over."""
    namespace: dict = {}
    exec(compile((WIDGET / "routes.py").read_text(encoding="utf-8"), "routes.py", "exec"), namespace)
    corpus = json.loads((WIDGET / "corpus.json").read_text(encoding="utf-8"))
    namespace.update(CORPUS=corpus, CHUNKS=corpus["chunks"], CHUNK_VECTORS=corpus["chunk_vectors"],
                     QUESTIONS=corpus["questions"], MODEL=corpus["model"])
    return namespace


def search(widget: dict, key: str) -> dict:
    return widget["search"](widget["CORPUS"], key)


def lesson_namespace() -> dict:
    """The lesson's first examples (the chunks, terms and bm25_search), run as the build runs them."""
    blocks = re.findall(r"```python\n(.*?)```", LESSON.read_text(encoding="utf-8"), re.S)
    namespace: dict = {}
    for block in blocks[:4]:
        exec(block, namespace)
    return namespace


@pytest.fixture(scope="module")
def widget():
    return widget_namespace()


@pytest.fixture(scope="module")
def lesson():
    return lesson_namespace()


def test_the_widget_searches_the_lessons_own_chunks(widget, lesson):
    assert widget["CHUNKS"] == lesson["CHUNKS"]
    assert list(widget["CHUNK_VECTORS"]) == list(widget["CHUNKS"])


def test_the_widgets_bm25_ranks_like_the_lessons(widget, lesson):
    queries = [question["text"] for question in widget["QUESTIONS"]]
    queries += ["de huurder", "werkgever werknemer", "AVG artikel 15 inzage", "ECLI:NL:HR:2019:1243", "niets hiervan"]
    for query in queries:
        scores = widget["bm25_scores"](query, widget["CHUNKS"])
        assert widget["ranked"](scores, 6) == lesson["bm25_search"](query, lesson["CHUNKS"]), query


def test_the_data_is_what_make_vectors_py_lists_and_writes(widget, tmp_path):
    # corpus.json is generated data: its chunks and questions are the generator's, and the
    # generator's writer gives back exactly this file from the same vectors.
    spec = importlib.util.spec_from_file_location("hybrid_merge_make_vectors", WIDGET / "make_vectors.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert widget["CHUNKS"] == generator.CHUNKS
    assert [(question["key"], question["text"]) for question in widget["QUESTIONS"]] == generator.QUESTIONS
    rewritten = tmp_path / "corpus.json"
    generator.write_corpus(rewritten, widget["MODEL"], list(widget["CHUNK_VECTORS"].values()),
                           [question["vector"] for question in widget["QUESTIONS"]])
    assert rewritten.read_text(encoding="utf-8") == (WIDGET / "corpus.json").read_text(encoding="utf-8")


def test_the_shipped_vectors_are_what_make_vectors_py_says(widget):
    model = widget["MODEL"]
    assert model["name"] == "WordLlama l2_supercat" and model["dimensions"] == 256
    for vector in [*widget["CHUNK_VECTORS"].values(), *(question["vector"] for question in widget["QUESTIONS"])]:
        assert len(vector) == 256
        assert abs(sum(value * value for value in vector) - 1) < 1e-3  # normalised, rounded to 4 decimals


def test_the_vectors_tell_the_lessons_story(widget):
    ecli = search(widget, "ecli")
    assert [hit["id"] for hit in ecli["keyword"]] == ["uitspraken:0"]
    assert [hit["id"] for hit in ecli["semantic"]][:2] == ["uitspraken:1", "uitspraken:0"]
    avg = search(widget, "avg")
    assert avg["keyword"][0]["id"] == "avg:1" and avg["semantic"][0]["id"] == "avg:0"
    huur = search(widget, "huur")
    assert huur["keyword"] == []
    assert huur["semantic"][0]["id"] == "uitspraken:2"
    assert {hit["id"] for hit in huur["semantic"]} >= {"huurrecht:0", "huurrecht:1", "huurrecht:3"}


def test_the_two_passes_keep_exactly_what_the_reference_keeps(widget):
    reference = load_reference()
    rng = random.Random(404)
    for _ in range(300):
        documents = rng.sample(["a", "b", "c", "d"], rng.randint(1, 4))
        population = [f"{d}:{n}" for d in documents for n in range(6)]
        ids = rng.sample(population, rng.randint(0, min(12, len(population))))
        candidates = [{"id": i, "document_id": i.split(":")[0], "chunk_number": int(i.split(":")[1]), "routes": ["semantic"]} for i in ids]
        slots = rng.randint(1, 10)
        passes = widget["cap_passes"](candidates, slots)
        kept = [c["id"] for c in reference.cap_per_document(candidates, slots)]
        assert passes["cap"] == max(1, slots // 2)
        assert set(passes["first"]).isdisjoint(passes["refilled"])
        assert sorted(passes["first"] + passes["refilled"], key=ids.index) == kept


def test_the_widgets_questions_are_the_templates_and_the_options(widget):
    keys = [question["key"] for question in widget["QUESTIONS"]]
    options = tomllib.loads((WIDGET / "widget.toml").read_text(encoding="utf-8"))["options"]
    assert options["question"]["choices"] == keys
    template = (WIDGET / "template.html").read_text(encoding="utf-8")
    shown = re.findall(r'<option value="([a-z]+)"[^>]*>([^<]+)</option>', template)
    assert shown == [(question["key"], question["text"]) for question in widget["QUESTIONS"]]


def test_a_question_without_a_vector_is_refused(widget):
    with pytest.raises(ValueError):
        search(widget, "eigen vraag")
