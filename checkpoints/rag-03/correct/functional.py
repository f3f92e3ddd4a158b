"""Goede oplossing in functionele stijl: kleine pure functies, any/all en statistics.fmean."""

import re
from itertools import islice
from statistics import fmean

VERSION_RE = re.compile(r"[A-Za-z0-9_.:\-]{1,80}")
QID_RE = re.compile(r"[A-Za-z0-9_\-]{1,40}")


def need(condition, reason):
    if not condition:
        raise ValueError(reason)


def valid_corpus(corpus):
    need(isinstance(corpus, dict) and 0 < len(corpus) <= 1000, "corpus")
    need(all(isinstance(v, str) and VERSION_RE.fullmatch(v) for v in corpus), "versie-id")
    need(all(isinstance(t, str) and 0 < len(t) <= 200000 for t in corpus.values()), "tekst")
    return corpus


def valid_span(span, corpus):
    need(isinstance(span, list) and len(span) == 3, "span")
    version, start, end = span
    need(isinstance(version, str) and version in corpus, "versie")
    need(type(start) is int and type(end) is int and 0 <= start < end <= len(corpus[version]), "posities")
    return tuple(span)


def valid_ranking(ranking, corpus):
    need(isinstance(ranking, list) and len(ranking) <= 1000, "ranking")
    spans = [valid_span(span, corpus) for span in ranking]
    need(len(set(spans)) == len(spans), "dubbele span")
    return spans


def valid_k(k):
    need(type(k) is int and 1 <= k <= 100, "k")
    return k


def valid_question(q, corpus):
    need(isinstance(q, dict) and set(q) == {"id", "question", "evidence", "quote"}, "vraag")
    need(isinstance(q["id"], str) and QID_RE.fullmatch(q["id"]) is not None, "id")
    need(isinstance(q["question"], str) and q["question"].strip() != "", "vraagtekst")
    version, start, end = valid_span(q["evidence"], corpus)
    need(q["quote"] == corpus[version][start:end], "citaat")
    return q["id"], [version, start, end]


def evidence_index(questions, corpus):
    valid_corpus(corpus)
    need(isinstance(questions, list) and 1 <= len(questions) <= 1000, "vragen")
    pairs = [valid_question(q, corpus) for q in questions]
    ids = [qid for qid, _ in pairs]
    need(len(set(ids)) == len(ids), "dubbel id")
    return dict(pairs)


def union_length(start, end, intervals):
    def step(state, interval):
        reach, total = state
        low, high = max(interval[0], reach), min(interval[1], end)
        return (high, total + high - low) if low < high else state
    state = (start, 0)
    for interval in sorted(intervals):
        state = step(state, interval)
    return state[1]


def hits(evidence, spans, k):
    version, start, end = evidence
    top = list(islice(spans, k))
    rank = next((n for n, (v, a, b) in enumerate(top, 1) if v == version and a <= start and end <= b), None)
    covered = union_length(start, end, [(a, b) for v, a, b in top if v == version])
    return {"single_rank": rank, "union_hit": covered == end - start, "covered_chars": covered}


def question_hits(evidence, ranking, corpus, k=5):
    valid_corpus(corpus)
    span = valid_span(evidence, corpus)
    spans = valid_ranking(ranking, corpus)
    return hits(span, spans, valid_k(k))


def evaluate(questions, rankings, corpus, k=5):
    index = evidence_index(questions, corpus)
    valid_k(k)
    need(isinstance(rankings, dict) and set(rankings) == set(index), "rankings")
    results = [hits(tuple(index[qid]), valid_ranking(rankings[qid], corpus), k) for qid in index]
    return {
        "questions": len(results),
        "k": k,
        "single_hit_at_k": fmean(r["single_rank"] is not None for r in results),
        "union_hit_at_k": fmean(r["union_hit"] for r in results),
        "single_mrr_at_k": fmean(1 / r["single_rank"] if r["single_rank"] else 0.0 for r in results),
    }
