# after: solution.py
# caught by: twee surrogaten na elkaar zijn geen teken
"""Bewust foute oplossing voor utf8_offsets: laat een hoge surrogaat gevolgd door een lage door, alsof het één emoji is.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    if not isinstance(text, str):
        raise ValueError("text is een str")
    for at, char in enumerate(text):
        if 0xD800 <= ord(char) <= 0xDBFF and at + 1 < len(text) and 0xDC00 <= ord(text[at + 1]) <= 0xDFFF:
            continue
        if 0xD800 <= ord(char) <= 0xDFFF and not (at > 0 and 0xD800 <= ord(text[at - 1]) <= 0xDBFF):
            raise ValueError("losse surrogaat")
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end])
        byte_start = byte_end
    return offsets
