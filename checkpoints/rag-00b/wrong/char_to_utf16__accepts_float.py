# after: solution.py
# caught by: index 2.0 is geen int
"""Bewust foute oplossing voor char_to_utf16: laat een float met een heel getal door en rondt af met int().

De andere functies zijn goed; alleen checkpoint char_to_utf16 (en wat die gebruikt) hoort te falen."""

def char_to_utf16(text, index):
    """Het aantal UTF-16-eenheden vóór codepunt index: de JavaScript-positie van die plek."""
    check_text(text)
    if isinstance(index, bool) or not isinstance(index, (int, float)) or index != int(index):
        raise ValueError("index is een geheel getal")
    index = int(index)
    if not 0 <= index <= len(text):
        raise ValueError("index ligt van 0 tot en met len(text)")
    units = 0
    for char in text[:index]:
        if ord(char) > LAST_SINGLE_UTF16:
            units += 2
        else:
            units += 1
    return units
