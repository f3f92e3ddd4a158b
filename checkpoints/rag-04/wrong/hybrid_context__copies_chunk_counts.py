# after: solution.py
# caught by: chunk_counts volgt de regels
# Maakt eerst een kopie met dict(): een list van [document, aantal]-paren wordt zo stilletjes een dict.
_checked_chunk_counts = check_chunk_counts


def check_chunk_counts(chunk_counts):
    _checked_chunk_counts(dict(chunk_counts))


_reference_hybrid_context = hybrid_context


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    try:
        chunk_counts = dict(chunk_counts)
    except (TypeError, ValueError):
        raise ValueError("chunk_counts is een dict van document-id naar aantal fragmenten")
    return _reference_hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots, budget)
