# after: solution.py
# caught by: text moet een str zijn
# ends in: TypeError
"""Bewust foute oplossing voor utf8_offsets: controleert niet of text een str is: een lijst van tekens gaat er ook door.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    if any(FIRST_SURROGATE <= ord(char) <= LAST_SURROGATE for char in text):
        raise ValueError("losse surrogaat")
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end])
        byte_start = byte_end
    return offsets
