# after: solution.py
# caught by: vier bytes vanaf U+10000
"""Bewust foute oplossing voor utf8_offsets: geeft U+10000 nog drie bytes (<= in plaats van <).

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_width(char):
    """Het aantal UTF-8-bytes van één codepunt: 1, 2, 3 of 4."""
    code_point = ord(char)
    if code_point < TWO_BYTES_FROM:
        return 1
    if code_point < THREE_BYTES_FROM:
        return 2
    if code_point <= FOUR_BYTES_FROM:
        return 3
    return 4
