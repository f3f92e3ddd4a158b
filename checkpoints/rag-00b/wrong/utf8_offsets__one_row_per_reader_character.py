# after: solution.py
# caught by: voorbeeld: e met los accent en de Nederlandse vlag
"""Bewust foute oplossing voor utf8_offsets: voegt een los accent (combining mark) bij het teken ervoor, zoals een lezer het ziet.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

import unicodedata


def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    check_text(text)
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        if offsets and unicodedata.combining(char):
            offsets[-1][2] = byte_end
            byte_start = byte_end
            continue
        offsets.append([len(offsets), byte_start, byte_end])
        byte_start = byte_end
    return offsets
