# after: solution.py
# caught by: voorbeeld: café 🙂
"""Bewust foute oplossing voor utf8_offsets: laat byte_end naar het laatste byte wijzen in plaats van er net voorbij.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    check_text(text)
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end - 1])
        byte_start = byte_end
    return offsets
