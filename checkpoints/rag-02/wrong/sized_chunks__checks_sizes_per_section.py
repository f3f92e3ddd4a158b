# after: solution.py
# caught by: ook zonder secties met tekst worden max_words en overlap gecontroleerd

def sized_chunks(document, max_words=40, overlap=8):
    check_document(document)
    text = document["text"]
    chunks = []
    for section_number, (_, path, section_start, section_end) in enumerate(sections_of(text)):
        # Pas bij de eerste sectie gecontroleerd: zonder secties met tekst nooit.
        if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
            raise ValueError("max_words is een geheel getal van 1 tot en met 256")
        if not is_exact_int(overlap) or not 0 <= overlap < max_words:
            raise ValueError("overlap is een geheel getal van 0 tot max_words")
        spans = [match.span() for match in WORD_PATTERN.finditer(text, section_start, section_end)]
        word_start = 0
        while True:
            word_end = min(word_start + max_words, len(spans))
            start, end = spans[word_start][0], spans[word_end - 1][1]
            headings = list(path)
            chunks.append({
                "id": f"{document['id']}:c{len(chunks)}",
                "document_id": document["id"],
                "revision": document["revision"],
                "chunk_number": len(chunks),
                "section": section_number,
                "headings": headings,
                "start": start,
                "end": end,
                "text": text[start:end],
                "embed_text": embed_text_of(headings, text[start:end]),
            })
            if word_end == len(spans):
                break
            word_start += max_words - overlap
    return chunks
