# after: solution.py
# caught by: voorbeeld: venster 4 en overlap 1
"""Bewust foute oplossing voor word_chunks: Maakt end inclusief (één te klein).

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""


def new_chunk(document, spans, word_start, word_end):
    start = spans[word_start][0]
    end = spans[word_end - 1][1] - 1
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
        chunks.append(new_chunk(document, spans, word_start, word_end))
        if word_end == total:
            return chunks
        word_start += window - overlap
