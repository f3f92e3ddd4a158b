# after: solution.py
# caught by: passage-ids zijn uniek, ook bij een ander einde


def chunk_coverage(document, chunks):
    check_document(document)
    if not isinstance(chunks, list) or len(chunks) > MAX_CHUNKS:
        raise ValueError("chunks is een lijst met hoogstens 20000 passages")
    spans = word_spans(document["text"])
    seen = set()
    covered = set()
    occurrences = 0
    for chunk in chunks:
        check_chunk(document, spans, chunk)
        bounds = (chunk["word_start"], chunk["word_end"])
        if bounds in seen:
            raise ValueError("dubbele passage")
        seen.add(bounds)
        covered.update(range(chunk["word_start"], chunk["word_end"]))
        occurrences += chunk["word_end"] - chunk["word_start"]
    total = len(spans)
    return {
        "total_words": total,
        "covered_words": len(covered),
        "coverage": len(covered) / total,
        "word_occurrences": occurrences,
        "duplication_factor": occurrences / len(covered) if covered else None,
        "missing_word_indices": [index for index in range(total) if index not in covered],
    }
