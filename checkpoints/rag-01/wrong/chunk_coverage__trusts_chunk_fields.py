# after: solution.py
# caught by: vervalst id
"""Bewust foute oplossing voor chunk_coverage: Controleert alleen de sleutels en vertrouwt de getallen en tekst in de passages.

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
    # Vergelijken met == laat 2.0 voor 2 door; de typecontrole vangt dat.
    if not is_exact_int(chunk["start"]) or not is_exact_int(chunk["end"]):
        raise ValueError("tekengrenzen zijn gehele getallen")
