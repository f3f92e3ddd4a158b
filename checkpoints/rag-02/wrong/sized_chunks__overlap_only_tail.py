# after: solution.py
# caught by: stop na het venster dat bij het laatste woord eindigt

def sized_chunks(document, max_words=40, overlap=8):
    check_document(document)
    if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
        raise ValueError("max_words")
    if not is_exact_int(overlap) or not 0 <= overlap < max_words:
        raise ValueError("overlap")
    text = document["text"]
    chunks = []
    for section in section_chunks(document):
        spans = [(section["start"] + m.start(), section["start"] + m.end())
                 for m in WORD_PATTERN.finditer(section["text"])]
        # Zoals het hoofdstuk: een range in stappen, zonder stopregel.
        for word_start in range(0, len(spans), max_words - overlap):
            word_end = min(word_start + max_words, len(spans))
            start, end = spans[word_start][0], spans[word_end - 1][1]
            headings = list(section["headings"])
            chunks.append({"id": f"{document['id']}:c{len(chunks)}", "document_id": document["id"],
                           "revision": document["revision"], "chunk_number": len(chunks),
                           "section": section["chunk_number"], "headings": headings, "start": start, "end": end,
                           "text": text[start:end], "embed_text": embed_text_of(headings, text[start:end])})
    return chunks
