# after: solution.py
# caught by: stop na het venster dat bij het laatste woord eindigt
# Het aantal vensters met / en round(): soms één venster met alleen overlap te veel.

def sized_chunks(document, max_words=40, overlap=8):
    check_document(document)
    if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
        raise ValueError("max_words")
    if not is_exact_int(overlap) or not 0 <= overlap < max_words:
        raise ValueError("overlap")
    text = document["text"]
    chunks = []
    step = max_words - overlap
    for section_number, (_, path, a, b) in enumerate(sections_of(text)):
        spans = [m.span() for m in WORD_PATTERN.finditer(text, a, b)]
        n = len(spans)
        windows = 1 if n <= max_words else round((n - max_words) / step + 0.5) + 1
        for k in range(windows):
            ws = k * step
            we = min(ws + max_words, n)
            s, e = spans[ws][0], spans[we - 1][1]
            c = len(chunks)
            chunks.append({"id": f"{document['id']}:c{c}", "document_id": document["id"], "revision": document["revision"],
                "chunk_number": c, "section": section_number, "headings": list(path), "start": s, "end": e,
                "text": text[s:e], "embed_text": embed_text_of(path, text[s:e])})
    return chunks
