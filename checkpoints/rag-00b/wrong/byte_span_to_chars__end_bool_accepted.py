# after: solution.py
# caught by: byte_end True of False is geen int
"""Bewust foute oplossing voor byte_span_to_chars: controleert byte_end met isinstance, dat True en False doorlaat.

De andere functies zijn goed; alleen checkpoint byte_span_to_chars (en wat die gebruikt) hoort te falen."""

def byte_span_to_chars(text, byte_start, byte_end):
    """De codepuntindices [start, end] van het bytebereik [byte_start, byte_end)."""
    offsets = utf8_offsets(text)
    check_whole_number(byte_start, "byte_start")
    if not isinstance(byte_end, int):
        raise ValueError("byte_end")
    # Elke grens tussen twee codepunten, en het begin en eind, met het codepunt dat er begint.
    char_at_byte = {0: 0}
    for index, _, end in offsets:
        char_at_byte[end] = index + 1
    if byte_start not in char_at_byte or byte_end not in char_at_byte:
        raise ValueError("een bytegrens ligt tussen twee codepunten, van 0 tot en met het aantal bytes")
    if byte_start > byte_end:
        raise ValueError("byte_start ligt niet na byte_end")
    return [char_at_byte[byte_start], char_at_byte[byte_end]]
