"""Goede oplossing met een markeerarray: per teken van het bewijs een byte die zegt of het gedekt is.

Eenvoudig na te rekenen: geen sortering en geen cursor, alleen slices in een bytearray.
"""

import re

VERSION = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _corpus(corpus):
    if not isinstance(corpus, dict) or not corpus or len(corpus) > 1000:
        raise ValueError("corpus")
    for version in corpus:
        text = corpus[version]
        if not isinstance(version, str) or VERSION.fullmatch(version) is None:
            raise ValueError("versie-id")
        if not isinstance(text, str) or not text or len(text) > 200000:
            raise ValueError("tekst")


def _span(span, corpus):
    if not isinstance(span, list) or len(span) != 3:
        raise ValueError("span")
    if not isinstance(span[0], str) or span[0] not in corpus:
        raise ValueError("versie")
    if type(span[1]) is not int or type(span[2]) is not int:
        raise ValueError("int")
    if span[1] < 0 or span[1] >= span[2] or span[2] > len(corpus[span[0]]):
        raise ValueError("bereik")


def _ranking(ranking, corpus):
    if not isinstance(ranking, list) or len(ranking) > 1000:
        raise ValueError("ranking")
    seen = []
    for span in ranking:
        _span(span, corpus)
        if span in seen:
            raise ValueError("dubbel")
        seen.append(span)


def _k(k):
    if type(k) is not int or not 1 <= k <= 100:
        raise ValueError("k")


def evidence_index(questions, corpus):
    _corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= 1000:
        raise ValueError("vragen")
    result = {}
    for q in questions:
        if not isinstance(q, dict) or len(q) != 4 or not {"id", "question", "evidence", "quote"} <= q.keys():
            raise ValueError("vraag")
        if not isinstance(q["id"], str) or not QUESTION_ID.fullmatch(q["id"]) or q["id"] in result:
            raise ValueError("id")
        if not isinstance(q["question"], str) or q["question"].isspace() or q["question"] == "":
            raise ValueError("vraagtekst")
        _span(q["evidence"], corpus)
        version, start, end = q["evidence"]
        if not isinstance(q["quote"], str) or q["quote"] != corpus[version][start:end]:
            raise ValueError("citaat")
        result[q["id"]] = [version, start, end]
    return result


def _hits(evidence, ranking, k):
    version, start, end = evidence
    marks = bytearray(end - start)
    rank = None
    for position, (span_version, a, b) in enumerate(ranking[:k]):
        if span_version != version:
            continue
        if rank is None and a <= start and end <= b:
            rank = position + 1
        low, high = max(a, start), min(b, end)
        if low < high:
            marks[low - start:high - start] = b"\x01" * (high - low)
    covered = marks.count(1)
    return {"single_rank": rank, "union_hit": covered == len(marks), "covered_chars": covered}


def question_hits(evidence, ranking, corpus, k=5):
    _corpus(corpus)
    _span(evidence, corpus)
    _ranking(ranking, corpus)
    _k(k)
    return _hits(evidence, ranking, k)


def evaluate(questions, rankings, corpus, k=5):
    index = evidence_index(questions, corpus)
    _k(k)
    if not isinstance(rankings, dict) or sorted(rankings) != sorted(index):
        raise ValueError("rankings")
    single = union = 0
    mrr = 0.0
    for qid, evidence in index.items():
        _ranking(rankings[qid], corpus)
        hit = _hits(evidence, rankings[qid], k)
        single += hit["single_rank"] is not None
        union += hit["union_hit"]
        mrr += 1 / hit["single_rank"] if hit["single_rank"] else 0
    n = len(index)
    return {"questions": n, "k": k, "single_hit_at_k": single / n, "union_hit_at_k": union / n, "single_mrr_at_k": mrr / n}
