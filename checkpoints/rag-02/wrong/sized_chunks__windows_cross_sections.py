# after: solution.py
# caught by: voorbeeld: de handleiding met max_words 5 en overlap 1

def sized_chunks(document, max_words=40, overlap=8):
    check_document(document)
    if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
        raise ValueError("max_words")
    if not is_exact_int(overlap) or not 0 <= overlap < max_words:
        raise ValueError("overlap")
    text = document["text"]
    sections = section_chunks(document)
    # Alle woorden van alle secties achter elkaar, en dan de vensters van rag-01 erover.
    spans = [(section, section["start"] + m.start(), section["start"] + m.end())
             for section in sections for m in WORD_PATTERN.finditer(section["text"])]
    chunks = []
    word_start = 0
    while spans:
        word_end = min(word_start + max_words, len(spans))
        section, start, _ = spans[word_start]
        end = spans[word_end - 1][2]
        headings = list(section["headings"])
        chunks.append({"id": f"{document['id']}:c{len(chunks)}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks),
                       "section": section["chunk_number"], "headings": headings, "start": start, "end": end,
                       "text": text[start:end], "embed_text": embed_text_of(headings, text[start:end])})
        if word_end == len(spans):
            break
        word_start += max_words - overlap
    return chunks
