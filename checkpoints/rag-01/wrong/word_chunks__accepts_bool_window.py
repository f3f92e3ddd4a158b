# after: solution.py
# caught by: window moet een exacte int zijn
"""Bewust foute oplossing voor word_chunks: Gebruikt isinstance(window, int), dat ook True doorlaat.

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""


def word_chunks(document, window=40, overlap=8):
    check_document(document)
    if not isinstance(window, int) or not 1 <= window <= MAX_WINDOW:
        raise ValueError("window is een geheel getal van 1 tot en met 256")
    if not isinstance(overlap, int) or not 0 <= overlap < window:
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
