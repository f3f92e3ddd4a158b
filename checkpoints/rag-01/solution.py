"""Voorbeeldoplossing van les rag-01: bronnen vastleggen, in passages knippen en de dekking meten.

Lees de functies in de volgorde van de les. Elke functie weigert ongeldige invoer met een ValueError
voordat ze iets teruggeeft. Ze gebruiken alleen hashlib en re uit de standaardbibliotheek.
"""

import hashlib
import re

MAX_DOCUMENTS = 32
MAX_TITLE_LENGTH = 100
MAX_TEXT_LENGTH = 20000
MAX_WINDOW = 256
MAX_CHUNKS = 20000

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
WORD_PATTERN = re.compile(r"\S+")
SNAPSHOT_KEYS = {"id", "title", "text"}
DOCUMENT_KEYS = SNAPSHOT_KEYS | {"revision"}
CHUNK_KEYS = {"id", "document_id", "revision", "word_start", "word_end", "start", "end", "text"}


def sha256_of(text):
    # encode() weigert losse surrogaten met UnicodeEncodeError, en dat is al een ValueError.
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_exact_int(value):
    # bool is een subklasse van int, maar True is geen geldig venster.
    return type(value) is int


def check_snapshot_fields(item):
    """Controleer id, title en text zoals checkpoint 1 ze eist."""
    doc_id, title, text = item["id"], item["title"], item["text"]
    if not isinstance(doc_id, str) or not ID_PATTERN.fullmatch(doc_id):
        raise ValueError(f"ongeldig id: {doc_id!r}")
    if not isinstance(title, str) or not title.strip() or len(title) > MAX_TITLE_LENGTH:
        raise ValueError("titel moet tekst zijn, niet leeg en hoogstens 100 tekens")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("tekst moet tekst zijn, niet leeg en hoogstens 20000 tekens")


def document_snapshots(records):
    if not isinstance(records, list) or not 1 <= len(records) <= MAX_DOCUMENTS:
        raise ValueError("geef een lijst met 1 tot en met 32 documenten")
    snapshots = []
    seen_ids = set()
    for item in records:
        if not isinstance(item, dict) or set(item) != SNAPSHOT_KEYS:
            raise ValueError("elk document heeft precies de sleutels id, title en text")
        check_snapshot_fields(item)
        if item["id"] in seen_ids:
            raise ValueError(f"dubbel id: {item['id']}")
        seen_ids.add(item["id"])
        snapshots.append({
            "id": item["id"],
            "title": item["title"],
            "text": item["text"],
            "revision": sha256_of(item["text"]),
        })
    return snapshots


def check_document(document):
    """Een document uit document_snapshots, met een revisie die nog bij de tekst past."""
    if not isinstance(document, dict) or set(document) != DOCUMENT_KEYS:
        raise ValueError("document heeft precies de sleutels id, title, text en revision")
    check_snapshot_fields(document)
    if document["revision"] != sha256_of(document["text"]):
        raise ValueError("revision hoort niet bij deze tekst")


def word_spans(text):
    return [match.span() for match in WORD_PATTERN.finditer(text)]


def make_chunk(document, spans, word_start, word_end):
    start = spans[word_start][0]
    end = spans[word_end - 1][1]
    return {
        "id": f"{document['id']}:{word_start}",
        "document_id": document["id"],
        "revision": document["revision"],
        "word_start": word_start,
        "word_end": word_end,
        "start": start,
        "end": end,
        "text": document["text"][start:end],
    }


def word_chunks(document, window=40, overlap=8):
    check_document(document)
    if not is_exact_int(window) or not 1 <= window <= MAX_WINDOW:
        raise ValueError("window is een geheel getal van 1 tot en met 256")
    if not is_exact_int(overlap) or not 0 <= overlap < window:
        raise ValueError("overlap is een geheel getal van 0 tot window")
    spans = word_spans(document["text"])
    total = len(spans)
    chunks = []
    word_start = 0
    while True:
        word_end = min(word_start + window, total)
        chunks.append(make_chunk(document, spans, word_start, word_end))
        if word_end == total:
            return chunks
        word_start += window - overlap


def check_chunk(document, spans, chunk):
    if not isinstance(chunk, dict) or set(chunk) != CHUNK_KEYS:
        raise ValueError("een chunk heeft precies de velden van word_chunks")
    word_start, word_end = chunk["word_start"], chunk["word_end"]
    if not is_exact_int(word_start) or not is_exact_int(word_end):
        raise ValueError("woordgrenzen zijn gehele getallen")
    if not 0 <= word_start < word_end <= len(spans):
        raise ValueError("woordgrenzen vallen buiten het document")
    if chunk != make_chunk(document, spans, word_start, word_end):
        raise ValueError(f"chunk {chunk['id']!r} klopt niet met de bron")
    # Vergelijken met == laat 2.0 voor 2 door; de typecontrole vangt dat.
    if not is_exact_int(chunk["start"]) or not is_exact_int(chunk["end"]):
        raise ValueError("tekengrenzen zijn gehele getallen")


def chunk_coverage(document, chunks):
    check_document(document)
    if not isinstance(chunks, list) or len(chunks) > MAX_CHUNKS:
        raise ValueError("chunks is een lijst met hoogstens 20000 passages")
    spans = word_spans(document["text"])
    seen_ids = set()
    covered = set()
    occurrences = 0
    for chunk in chunks:
        check_chunk(document, spans, chunk)
        if chunk["id"] in seen_ids:
            raise ValueError(f"dubbel chunk-id: {chunk['id']}")
        seen_ids.add(chunk["id"])
        covered.update(range(chunk["word_start"], chunk["word_end"]))
        occurrences += chunk["word_end"] - chunk["word_start"]
    total = len(spans)
    return {
        "total_words": total,
        "covered_words": len(covered),
        "coverage": len(covered) / total,
        "word_occurrences": occurrences,
        "duplication_factor": occurrences / len(covered) if covered else None,
        "missing_word_indices": [index for index in range(total) if index not in covered],
    }
