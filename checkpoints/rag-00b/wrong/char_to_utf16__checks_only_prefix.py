# after: solution.py
# caught by: text moet een str zijn
# ends in: TypeError
"""Bewust foute oplossing voor char_to_utf16: zoekt alleen vóór de index naar surrogaten.

De andere functies zijn goed; alleen checkpoint char_to_utf16 (en wat die gebruikt) hoort te falen."""

def char_to_utf16(text, index):
    """Het aantal UTF-16-eenheden vóór codepunt index: de JavaScript-positie van die plek."""
    check_whole_number(index, "index")
    if not 0 <= index <= len(text):
        raise ValueError("index")
    check_text(text[:index])
    if not 0 <= index <= len(text):
        raise ValueError("index ligt van 0 tot en met len(text)")
    units = 0
    for char in text[:index]:
        if ord(char) > LAST_SINGLE_UTF16:
            units += 2
        else:
            units += 1
    return units
