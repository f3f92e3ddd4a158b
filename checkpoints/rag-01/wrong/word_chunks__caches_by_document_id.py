# after: solution.py
# caught by: elke aanroep knipt zijn eigen document
"""Bewust foute oplossing voor word_chunks: Onthoudt de passages per (document-id, window, overlap) tussen aanroepen, zodat een nieuwe tekst met hetzelfde id de oude passages krijgt.

De andere functies zijn goed; alleen checkpoint word_chunks hoort te falen.
"""

_word_chunks = word_chunks
_chunks_by_key = {}


def word_chunks(document, window=40, overlap=8):
    check_document(document)
    key = (document["id"], window, overlap)
    if key not in _chunks_by_key:
        _chunks_by_key[key] = _word_chunks(document, window, overlap)
    return [dict(chunk) for chunk in _chunks_by_key[key]]
