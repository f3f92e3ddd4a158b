"""Goede oplossing in functionele stijl: pure functies, itertools en geen lussen met toestand."""

from hashlib import sha256
from itertools import accumulate, chain, count, takewhile
from re import compile as regex

ID_RE = regex(r"[A-Za-z0-9_\-]{1,40}")
WORD_RE = regex(r"\S+")
CHUNK_FIELDS = frozenset({"id", "document_id", "revision", "word_start", "word_end", "start", "end", "text"})


def fail(reason):
    raise ValueError(reason)


def digest(text):
    return sha256(text.encode("utf-8")).hexdigest()


def good_text(value, limit):
    return isinstance(value, str) and bool(value.strip()) and len(value) <= limit


def valid_fields(d):
    return isinstance(d["id"], str) and ID_RE.fullmatch(d["id"]) is not None and good_text(d["title"], 100) and good_text(d["text"], 20000)


def valid_record(d):
    return isinstance(d, dict) and set(d) == {"id", "title", "text"} and valid_fields(d)


def checked_document(d):
    ok = isinstance(d, dict) and set(d) == {"id", "title", "text", "revision"} and valid_fields(d)
    return d if ok and d["revision"] == digest(d["text"]) else fail("ongeldig document")


def document_snapshots(records):
    if not isinstance(records, list) or not 1 <= len(records) <= 32 or not all(map(valid_record, records)):
        fail("ongeldige records")
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        fail("dubbele ids")
    return [{**{k: r[k] for k in ("id", "title", "text")}, "revision": digest(r["text"])} for r in records]


def spans(text):
    return [m.span() for m in WORD_RE.finditer(text)]


def chunk_for(document, word_spans, first, stop):
    start, end = word_spans[first][0], word_spans[stop - 1][1]
    return {
        "id": f"{document['id']}:{first}",
        "document_id": document["id"],
        "revision": document["revision"],
        "word_start": first,
        "word_end": stop,
        "start": start,
        "end": end,
        "text": document["text"][start:end],
    }


def exact_int(value):
    return type(value) is int


def word_chunks(document, window=40, overlap=8):
    checked_document(document)
    if not (exact_int(window) and exact_int(overlap) and 1 <= window <= 256 and 0 <= overlap < window):
        fail("ongeldig venster")
    word_spans = spans(document["text"])
    n = len(word_spans)
    starts = count(0, window - overlap)
    # Keep every start up to and including the first window that reaches the last word.
    before_last = takewhile(lambda s: s + window < n, starts)
    all_starts = chain(before_last, [None])
    result = []
    for first in all_starts:
        if first is None:
            first = len(result) * (window - overlap)
        result.append(chunk_for(document, word_spans, first, min(first + window, n)))
    return result


def valid_chunk(document, word_spans, chunk):
    if not isinstance(chunk, dict) or set(chunk) != CHUNK_FIELDS:
        return False
    first, stop = chunk["word_start"], chunk["word_end"]
    if not (exact_int(first) and exact_int(stop) and 0 <= first < stop <= len(word_spans)):
        return False
    if not (exact_int(chunk["start"]) and exact_int(chunk["end"])):
        return False
    return chunk == chunk_for(document, word_spans, first, stop)


def chunk_coverage(document, chunks):
    checked_document(document)
    if not isinstance(chunks, list) or len(chunks) > 20000:
        fail("ongeldige chunks")
    word_spans = spans(document["text"])
    if not all(valid_chunk(document, word_spans, c) for c in chunks):
        fail("vervalste chunk")
    ids = [c["id"] for c in chunks]
    if len(set(ids)) != len(ids):
        fail("dubbel chunk-id")
    covered = set(chain.from_iterable(range(c["word_start"], c["word_end"]) for c in chunks))
    occurrences = list(accumulate((c["word_end"] - c["word_start"] for c in chunks), initial=0))[-1]
    total = len(word_spans)
    return {
        "total_words": total,
        "covered_words": len(covered),
        "coverage": len(covered) / total,
        "word_occurrences": occurrences,
        "duplication_factor": occurrences / len(covered) if covered else None,
        "missing_word_indices": sorted(set(range(total)) - covered),
    }
