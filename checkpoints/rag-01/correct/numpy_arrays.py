"""Goede oplossing met numpy: woordposities als arrays, dekking als telling per woord.

Let op: numpy-getallen zijn geen Python-ints. Alles wat terugkomt wordt met int()/float()
omgezet, anders is het resultaat geen gewone Python-waarde.
"""

import hashlib
import re

import numpy as np

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _revision(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_fields(d):
    if not isinstance(d["id"], str) or not ID_PATTERN.fullmatch(d["id"]):
        raise ValueError("id")
    for key, limit in (("title", 100), ("text", 20000)):
        value = d[key]
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise ValueError(key)


def _check_document(d):
    if not isinstance(d, dict) or set(d) != {"id", "title", "text", "revision"}:
        raise ValueError("document")
    _check_fields(d)
    if d["revision"] != _revision(d["text"]):
        raise ValueError("revision")


def _bounds(text):
    matches = list(re.finditer(r"\S+", text))
    starts = np.array([m.start() for m in matches], dtype=np.int64)
    ends = np.array([m.end() for m in matches], dtype=np.int64)
    return starts, ends


def document_snapshots(records):
    if not isinstance(records, list) or len(records) < 1 or len(records) > 32:
        raise ValueError("records")
    out = []
    for r in records:
        if not isinstance(r, dict) or set(r) != {"id", "title", "text"}:
            raise ValueError("record")
        _check_fields(r)
        if any(o["id"] == r["id"] for o in out):
            raise ValueError("dubbel id")
        out.append({"id": r["id"], "title": r["title"], "text": r["text"], "revision": _revision(r["text"])})
    return out


def _chunk(document, starts, ends, first, stop):
    start, end = int(starts[first]), int(ends[stop - 1])
    return {
        "id": f"{document['id']}:{first}",
        "document_id": document["id"],
        "revision": document["revision"],
        "word_start": int(first),
        "word_end": int(stop),
        "start": start,
        "end": end,
        "text": document["text"][start:end],
    }


def word_chunks(document, window=40, overlap=8):
    _check_document(document)
    if type(window) is not int or type(overlap) is not int or not 1 <= window <= 256 or not 0 <= overlap < window:
        raise ValueError("window/overlap")
    starts, ends = _bounds(document["text"])
    n = len(starts)
    step = window - overlap
    # The last chunk is the first one whose end reaches n.
    last_first = max(0, -(-(n - window) // step)) * step
    firsts = np.arange(0, last_first + 1, step)
    return [_chunk(document, starts, ends, int(f), min(int(f) + window, n)) for f in firsts]


def chunk_coverage(document, chunks):
    _check_document(document)
    if not isinstance(chunks, list) or len(chunks) > 20000:
        raise ValueError("chunks")
    starts, ends = _bounds(document["text"])
    n = len(starts)
    hits = np.zeros(n, dtype=np.int64)
    ids = set()
    for c in chunks:
        if not isinstance(c, dict) or set(c) != {"id", "document_id", "revision", "word_start", "word_end", "start", "end", "text"}:
            raise ValueError("chunk")
        first, stop = c["word_start"], c["word_end"]
        if type(first) is not int or type(stop) is not int or not 0 <= first < stop <= n:
            raise ValueError("woordgrenzen")
        if type(c["start"]) is not int or type(c["end"]) is not int or c != _chunk(document, starts, ends, first, stop):
            raise ValueError("chunk klopt niet")
        if c["id"] in ids:
            raise ValueError("dubbel chunk-id")
        ids.add(c["id"])
        hits[first:stop] += 1
    covered = int(np.count_nonzero(hits))
    occurrences = int(hits.sum())
    return {
        "total_words": int(n),
        "covered_words": covered,
        "coverage": covered / n,
        "word_occurrences": occurrences,
        "duplication_factor": occurrences / covered if covered else None,
        "missing_word_indices": [int(i) for i in np.flatnonzero(hits == 0)],
    }
