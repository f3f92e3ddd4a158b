"""Voorbeeldoplossing van les rag-00b: codepunten, UTF-8-bytes en UTF-16-posities van één tekst."""

# Vanaf deze codepunten heeft een teken in UTF-8 één byte meer nodig.
TWO_BYTES_FROM = 0x80
THREE_BYTES_FROM = 0x800
FOUR_BYTES_FROM = 0x10000
# Surrogaten zijn codepunten voor UTF-16-paren; los in een str hebben ze geen UTF-8-codering.
FIRST_SURROGATE = 0xD800
LAST_SURROGATE = 0xDFFF
# Boven dit codepunt neemt een teken in UTF-16 twee eenheden (een surrogaatpaar) in.
LAST_SINGLE_UTF16 = 0xFFFF


def check_text(text):
    if not isinstance(text, str):
        raise ValueError("text is een str")
    for char in text:
        if FIRST_SURROGATE <= ord(char) <= LAST_SURROGATE:
            raise ValueError("text bevat een losse surrogaat: die heeft geen UTF-8-codering")


def check_whole_number(value, name):
    # bool is een subklasse van int, en 2.0 is een float: geen van beide telt als positie.
    if type(value) is not int:
        raise ValueError(f"{name} is een geheel getal (een int, geen bool of float)")


def utf8_width(char):
    """Het aantal UTF-8-bytes van één codepunt: 1, 2, 3 of 4."""
    code_point = ord(char)
    if code_point < TWO_BYTES_FROM:
        return 1
    if code_point < THREE_BYTES_FROM:
        return 2
    if code_point < FOUR_BYTES_FROM:
        return 3
    return 4


def utf8_offsets(text):
    """Per codepunt [index, byte_start, byte_end] in text.encode("utf-8")."""
    check_text(text)
    offsets = []
    byte_start = 0
    for index, char in enumerate(text):
        byte_end = byte_start + utf8_width(char)
        offsets.append([index, byte_start, byte_end])
        byte_start = byte_end
    return offsets


def char_to_utf16(text, index):
    """Het aantal UTF-16-eenheden vóór codepunt index: de JavaScript-positie van die plek."""
    check_text(text)
    check_whole_number(index, "index")
    if not 0 <= index <= len(text):
        raise ValueError("index ligt van 0 tot en met len(text)")
    units = 0
    for char in text[:index]:
        if ord(char) > LAST_SINGLE_UTF16:
            units += 2
        else:
            units += 1
    return units


def byte_span_to_chars(text, byte_start, byte_end):
    """De codepuntindices [start, end] van het bytebereik [byte_start, byte_end)."""
    offsets = utf8_offsets(text)
    check_whole_number(byte_start, "byte_start")
    check_whole_number(byte_end, "byte_end")
    # Elke grens tussen twee codepunten, en het begin en eind, met het codepunt dat er begint.
    char_at_byte = {0: 0}
    for index, _, end in offsets:
        char_at_byte[end] = index + 1
    if byte_start not in char_at_byte or byte_end not in char_at_byte:
        raise ValueError("een bytegrens ligt tussen twee codepunten, van 0 tot en met het aantal bytes")
    if byte_start > byte_end:
        raise ValueError("byte_start ligt niet na byte_end")
    return [char_at_byte[byte_start], char_at_byte[byte_end]]
