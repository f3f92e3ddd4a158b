# after: solution.py
# caught by: woordgrenzen zijn exacte ints
"""Bewust foute oplossing voor chunk_coverage: Gebruikt isinstance voor de woordgrenzen, dat ook False doorlaat.

De andere functies zijn goed; alleen checkpoint chunk_coverage hoort te falen.
"""


def check_chunk(document, spans, chunk):
    if not isinstance(chunk, dict) or set(chunk) != CHUNK_KEYS:
        raise ValueError("een chunk heeft precies de velden van word_chunks")
    word_start, word_end = chunk["word_start"], chunk["word_end"]
    if not isinstance(word_start, int) or not isinstance(word_end, int):
        raise ValueError("woordgrenzen zijn gehele getallen")
    if not 0 <= word_start < word_end <= len(spans):
        raise ValueError("woordgrenzen vallen buiten het document")
    if chunk != make_chunk(document, spans, word_start, word_end):
        raise ValueError(f"chunk {chunk['id']!r} klopt niet met de bron")
    # Vergelijken met == laat 2.0 voor 2 door; de typecontrole vangt dat.
    if not is_exact_int(chunk["start"]) or not is_exact_int(chunk["end"]):
        raise ValueError("tekengrenzen zijn gehele getallen")
