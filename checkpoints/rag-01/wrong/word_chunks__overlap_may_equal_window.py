# after: solution.py
# caught by: overlap van 0 tot window
"""Bewust foute oplossing voor word_chunks: Staat overlap == window toe en blijft dan eeuwig op dezelfde plek.

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""


def word_chunks(document, window=40, overlap=8):
    check_document(document)
    if not is_exact_int(window) or not 1 <= window <= MAX_WINDOW:
        raise ValueError("window is een geheel getal van 1 tot en met 256")
    if not is_exact_int(overlap) or not 0 <= overlap <= window:
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
