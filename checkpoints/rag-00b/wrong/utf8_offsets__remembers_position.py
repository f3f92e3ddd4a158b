# after: solution.py
# caught by: voorbeeld: e met los accent en de Nederlandse vlag
"""Bewust foute oplossing voor utf8_offsets: telt verder vanaf waar de vorige aanroep ophield.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

_next_byte = [0]


def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    check_text(text)
    offsets = []
    byte_start = _next_byte[0]
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end])
        byte_start = byte_end
    _next_byte[0] = byte_start if text else 0
    return offsets
