# after: solution.py
# caught by: voorbeeld: café 🙂
"""Bewust foute oplossing voor utf8_offsets: kent maar drie breedtes: een astraal teken krijgt ook drie bytes.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_width(char):
    """Het aantal UTF-8-bytes van één codepunt: 1, 2, 3 of 4."""
    code_point = ord(char)
    if code_point < TWO_BYTES_FROM:
        return 1
    if code_point < THREE_BYTES_FROM:
        return 2
    return 3
