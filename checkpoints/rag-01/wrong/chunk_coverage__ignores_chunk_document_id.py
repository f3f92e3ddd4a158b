# after: solution.py
# caught by: vervalst document_id of revision
"""Bewust foute oplossing voor chunk_coverage: Vergelijkt het veld document_id van de passages niet met het id van het document (alleen het passage-id).

De andere functies zijn goed; alleen checkpoint chunk_coverage hoort te falen.
"""


def check_chunk(document, spans, chunk):
    if not isinstance(chunk, dict) or set(chunk) != CHUNK_KEYS:
        raise ValueError("een chunk heeft precies de velden van word_chunks")
    word_start, word_end = chunk["word_start"], chunk["word_end"]
    if not is_exact_int(word_start) or not is_exact_int(word_end):
        raise ValueError("woordgrenzen zijn gehele getallen")
    if not 0 <= word_start < word_end <= len(spans):
        raise ValueError("woordgrenzen vallen buiten het document")
    if dict(chunk, document_id=document["id"]) != make_chunk(document, spans, word_start, word_end):
        raise ValueError(f"chunk {chunk['id']!r} klopt niet met de bron")
    if not is_exact_int(chunk["start"]) or not is_exact_int(chunk["end"]):
        raise ValueError("tekengrenzen zijn gehele getallen")
