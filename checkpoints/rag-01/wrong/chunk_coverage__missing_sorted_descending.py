# after: solution.py
# caught by: voorbeeld: zonder passages
"""Bewust foute oplossing voor chunk_coverage: Sorteert de ontbrekende woorden van groot naar klein.

De andere functies zijn goed; alleen checkpoint chunk_coverage hoort te falen.
"""


def chunk_coverage(document, chunks):
    check_document(document)
    if not isinstance(chunks, list) or len(chunks) > MAX_CHUNKS:
        raise ValueError("chunks is een lijst met hoogstens 20000 passages")
    spans = word_spans(document["text"])
    seen_ids = set()
    covered = set()
    occurrences = 0
    for chunk in chunks:
        check_chunk(document, spans, chunk)
        if chunk["id"] in seen_ids:
            raise ValueError(f"dubbel chunk-id: {chunk['id']}")
        seen_ids.add(chunk["id"])
        covered.update(range(chunk["word_start"], chunk["word_end"]))
        occurrences += chunk["word_end"] - chunk["word_start"]
    total = len(spans)
    return {
        "total_words": total,
        "covered_words": len(covered),
        "coverage": len(covered) / total,
        "word_occurrences": occurrences,
        "duplication_factor": occurrences / len(covered) if covered else None,
        "missing_word_indices": sorted((index for index in range(total) if index not in covered), reverse=True),
    }
