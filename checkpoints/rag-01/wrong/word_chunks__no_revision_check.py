# after: solution.py
# caught by: aangepaste tekst of revision geeft een ValueError
"""Bewust foute oplossing voor word_chunks: Controleert de revision van het document niet.

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""


def check_input(document):
    """Een document uit document_snapshots, met een revisie die nog bij de tekst past."""
    if not isinstance(document, dict) or set(document) != DOCUMENT_KEYS:
        raise ValueError("document heeft precies de sleutels id, title, text en revision")
    check_snapshot_fields(document)


def word_chunks(document, window=40, overlap=8):
    check_input(document)
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
