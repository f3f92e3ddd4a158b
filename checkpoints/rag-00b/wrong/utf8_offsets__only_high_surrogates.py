# after: solution.py
# caught by: een losse surrogaat geeft een ValueError
"""Bewust foute oplossing voor utf8_offsets: weigert alleen de hoge surrogaten U+D800-U+DBFF, niet de lage.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    if not isinstance(text, str) or any(0xD800 <= ord(c) <= 0xDBFF for c in text):
        raise ValueError("ongeldige tekst")
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end])
        byte_start = byte_end
    return offsets
