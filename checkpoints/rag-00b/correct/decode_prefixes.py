"""Correct, from the bytes' side: a prefix of UTF-8 that decodes ends on a boundary."""


def utf8_offsets(text):
    if type(text) is not str:
        raise ValueError("text moet een str zijn")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("losse surrogaat") from None
    result, index = [], 0
    for position, byte in enumerate(data):
        # A byte 0b10xxxxxx continues a code point; every other byte starts one.
        if byte & 0xC0 != 0x80:
            if result:
                result[-1][2] = position
            result.append([index, position, None])
            index += 1
    if result:
        result[-1][2] = len(data)
    return result


def char_to_utf16(text, index):
    utf8_offsets(text)
    if type(index) is not int:
        raise ValueError("index is een int")
    if index < 0 or index > len(text):
        raise ValueError("index buiten de tekst")
    units = 0
    for char in text[:index]:
        units += 1 if ord(char) < 0x10000 else 2
    return units


def _chars_before(data, offset):
    if type(offset) is not int or not 0 <= offset <= len(data):
        raise ValueError("bytegrens buiten de tekst")
    try:
        return len(data[:offset].decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("bytegrens midden in een codepunt") from None


def byte_span_to_chars(text, byte_start, byte_end):
    utf8_offsets(text)
    data = text.encode("utf-8")
    start, end = _chars_before(data, byte_start), _chars_before(data, byte_end)
    if byte_start > byte_end:
        raise ValueError("byte_start ligt na byte_end")
    return [start, end]
