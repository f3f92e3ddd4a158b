# after: solution.py
# caught by: voorbeeld: de visualisatie met venster 6 en overlap 2
"""Bewust foute oplossing voor word_chunks: Loopt met range() door alle startposities en maakt zo passages met alleen overlap.

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""


def word_chunks(document, window=40, overlap=8):
    check_document(document)
    if not is_exact_int(window) or not 1 <= window <= MAX_WINDOW:
        raise ValueError("window is een geheel getal van 1 tot en met 256")
    if not is_exact_int(overlap) or not 0 <= overlap < window:
        raise ValueError("overlap is een geheel getal van 0 tot window")
    spans = word_spans(document["text"])
    total = len(spans)
    chunks = []
    for word_start in range(0, total, window - overlap):
        word_end = min(word_start + window, total)
        chunks.append(make_chunk(document, spans, word_start, word_end))
    return chunks
