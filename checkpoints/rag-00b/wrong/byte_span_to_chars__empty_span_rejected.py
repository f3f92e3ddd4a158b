# after: solution.py
# caught by: voorbeeld: café 🙂, geldige bereiken
# ends in: ValueError
"""Bewust foute oplossing voor byte_span_to_chars: weigert een leeg bereik.

De andere functies zijn goed; alleen checkpoint byte_span_to_chars (en wat die gebruikt) hoort te falen."""

def byte_span_to_chars(text, byte_start, byte_end):
    """De codepuntindices [start, end] van het bytebereik [byte_start, byte_end)."""
    offsets = utf8_offsets(text)
    check_whole_number(byte_start, "byte_start")
    check_whole_number(byte_end, "byte_end")
    # Elke grens tussen twee codepunten, en het begin en eind, met het codepunt dat er begint.
    char_at_byte = {0: 0}
    for index, _, end in offsets:
        char_at_byte[end] = index + 1
    if byte_start not in char_at_byte or byte_end not in char_at_byte:
        raise ValueError("een bytegrens ligt tussen twee codepunten, van 0 tot en met het aantal bytes")
    if byte_start >= byte_end:
        raise ValueError("byte_start ligt niet na byte_end")
    return [char_at_byte[byte_start], char_at_byte[byte_end]]
