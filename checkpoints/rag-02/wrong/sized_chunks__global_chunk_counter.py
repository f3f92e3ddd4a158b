# after: solution.py
# caught by: elke aanroep begint opnieuw, met het id van dit document
# Een teller buiten de functie: chunk_number en het id lopen door over aanroepen.

next_chunk_number = 0


def sized_chunks(document, max_words=40, overlap=8):
    global next_chunk_number
    check_document(document)
    if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
        raise ValueError("max_words is een geheel getal van 1 tot en met 256")
    if not is_exact_int(overlap) or not 0 <= overlap < max_words:
        raise ValueError("overlap is een geheel getal van 0 tot max_words")
    text = document["text"]
    chunks = []
    for section_number, (_, path, section_start, section_end) in enumerate(sections_of(text)):
        spans = [match.span() for match in WORD_PATTERN.finditer(text, section_start, section_end)]
        word_start = 0
        while True:
            word_end = min(word_start + max_words, len(spans))
            start, end = spans[word_start][0], spans[word_end - 1][1]
            chunks.append({
                "id": f"{document['id']}:c{next_chunk_number}", "document_id": document["id"],
                "revision": document["revision"], "chunk_number": next_chunk_number, "section": section_number,
                "headings": list(path), "start": start, "end": end, "text": text[start:end],
                "embed_text": embed_text_of(path, text[start:end]),
            })
            next_chunk_number += 1
            if word_end == len(spans):
                break
            word_start += max_words - overlap
    return chunks
