# after: solution.py
# caught by: voorbeeld: café 🙂
"""Bewust foute oplossing voor utf8_offsets: telt UTF-16-eenheden (1 of 2) in plaats van UTF-8-bytes.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_width(char):
    """Het aantal UTF-8-bytes van één codepunt: 1, 2, 3 of 4."""
    code_point = ord(char)
    return 2 if code_point > 0xFFFF else 1
    if code_point < TWO_BYTES_FROM:
        return 1
    if code_point < THREE_BYTES_FROM:
        return 2
    if code_point < FOUR_BYTES_FROM:
        return 3
    return 4
