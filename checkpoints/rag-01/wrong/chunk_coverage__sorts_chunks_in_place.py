# after: solution.py
# caught by: invoer niet veranderd
"""Bewust foute oplossing voor chunk_coverage: Sorteert de lijst passages ter plekke op word_start (chunks.sort) in plaats van een kopie te sorteren.

De andere functies zijn goed; alleen checkpoint chunk_coverage hoort te falen.
"""

_chunk_coverage = chunk_coverage


def chunk_coverage(document, chunks):
    result = _chunk_coverage(document, chunks)
    chunks.sort(key=lambda chunk: chunk["word_start"])
    return result
