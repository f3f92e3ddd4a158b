"""Correct, in a second style: let Python's own codecs count the bytes and the UTF-16 units."""


def utf8_offsets(text):
    if type(text) is not str:
        raise ValueError("text moet een str zijn")
    text.encode("utf-8")  # UnicodeEncodeError (a ValueError) for a lone surrogate
    rows = []
    position = 0
    for index, char in enumerate(text):
        size = len(char.encode("utf-8"))
        rows.append([index, position, position + size])
        position += size
    return rows


def char_to_utf16(text, index):
    utf8_offsets(text)  # the same checks on text
    if type(index) is not int or index < 0 or index > len(text):
        raise ValueError("index ligt van 0 tot en met len(text)")
    return len(text[:index].encode("utf-16-le")) // 2


def byte_span_to_chars(text, byte_start, byte_end):
    rows = utf8_offsets(text)
    if type(byte_start) is not int or type(byte_end) is not int:
        raise ValueError("bytegrenzen zijn ints")
    starts = [start for _, start, _ in rows]
    total = rows[-1][2] if rows else 0
    starts.append(total)
    if byte_start not in starts or byte_end not in starts or byte_start > byte_end:
        raise ValueError("ongeldig bytebereik")
    return [starts.index(byte_start), starts.index(byte_end)]
