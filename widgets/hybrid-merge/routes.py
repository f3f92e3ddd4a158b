"""The two search routes of lesson rag-04, run in the page by the hybrid-merge widget.

The keyword route is BM25 in plain Python over the lesson's chunks. The semantic route ranks the
same chunks by cosine similarity to a question's vector; the chunk and question vectors were
computed once by make_vectors.py with the model the data names, and ship with the lesson as data
(corpus.json), since no embedding model runs in the page. widget.js imports corpus.json and hands
it to `search` as its first argument: {"model", "chunks", "chunk_vectors", "questions"}.
"""

import math
import re

K1 = 1.2  # how fast a term's repeated occurrences stop adding to the score
B = 0.75  # how much a long chunk is penalised (0: not at all, 1: fully)
TOKEN = re.compile(r"\w+(?::\w+)*")  # keeps "7:658" and "ecli:nl:hr:2019:1234" whole


def tokens(text):
    return TOKEN.findall(text.lower())


def bm25_scores(query, chunks):
    """{chunk id: BM25 score} for every chunk holding at least one query term."""
    words = {chunk_id: tokens(text) for chunk_id, text in chunks.items()}
    average_length = sum(len(found) for found in words.values()) / len(words)
    scores = {}
    for term in set(tokens(query)):
        having = sum(term in found for found in words.values())
        if having == 0:
            continue
        idf = math.log((len(words) - having + 0.5) / (having + 0.5) + 1)
        for chunk_id, found in words.items():
            frequency = found.count(term)
            if frequency:
                length_factor = 1 - B + B * len(found) / average_length
                scores[chunk_id] = scores.get(chunk_id, 0.0) + idf * frequency * (K1 + 1) / (frequency + K1 * length_factor)
    return scores


def cosine(left, right):
    dot = sum(a * b for a, b in zip(left, right))
    return dot / (math.sqrt(sum(a * a for a in left)) * math.sqrt(sum(b * b for b in right)))


def semantic_scores(question_vector, vectors):
    return {chunk_id: cosine(question_vector, vector) for chunk_id, vector in vectors.items()}


def ranked(scores, top):
    """The ids of the best `top` scores, ties broken by id so the order never depends on chance."""
    return sorted(scores, key=lambda chunk_id: (-scores[chunk_id], chunk_id))[:top]


def as_hit(chunk_id):
    document_id, number = chunk_id.split(":")
    return {"id": chunk_id, "document_id": document_id, "chunk_number": int(number)}


def question_by_key(questions, key):
    for question in questions:
        if question["key"] == key:
            return question
    raise ValueError(f"onbekende vraag {key!r}")


def chunk_counts(chunks):
    counts = {}
    for chunk_id in chunks:
        document_id, number = chunk_id.split(":")
        counts[document_id] = max(counts.get(document_id, 0), int(number) + 1)
    return counts


def search(corpus, key, top=6):
    """Both routes for one of the lesson's questions (corpus: the data of corpus.json): hits in
    rank order with their scores."""
    chunks = corpus["chunks"]
    question = question_by_key(corpus["questions"], key)
    keyword = bm25_scores(question["text"], chunks)
    semantic = semantic_scores(question["vector"], corpus["chunk_vectors"])
    return {
        "question": question["text"],
        "keyword": [dict(as_hit(chunk_id), score=round(keyword[chunk_id], 3)) for chunk_id in ranked(keyword, top)],
        "semantic": [dict(as_hit(chunk_id), score=round(semantic[chunk_id], 3)) for chunk_id in ranked(semantic, top)],
        "chunk_counts": chunk_counts(chunks),
        "texts": dict(chunks),
        "model": corpus["model"],
    }


def cap_passes(candidates, slots):
    """Which candidates pass 1 of the cap took, and which pass 2 refilled, as two lists of ids.
    The widget shows them; tests/lessons/rag-04 checks that together they are exactly what the
    reference's cap_per_document keeps."""
    cap = max(1, slots // 2)
    first, per_document = [], {}
    for candidate in candidates:
        if len(first) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            first.append(candidate["id"])
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    skipped = [candidate["id"] for candidate in candidates if candidate["id"] not in first]
    return {"cap": cap, "first": first, "refilled": skipped[: slots - len(first)]}
