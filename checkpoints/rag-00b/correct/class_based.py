"""Correct, object-oriented: one table of the text's units, built once per call."""


class UnitTable:
    """Per code point of a text its UTF-8 byte range and UTF-16 position."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise ValueError("text moet een str zijn")
        self.text = text
        self.byte_starts = [0]
        self.utf16_starts = [0]
        for char in text:
            code = ord(char)
            if 0xD800 <= code <= 0xDFFF:
                raise ValueError("losse surrogaat")
            if code < 0x80:
                size = 1
            elif code < 0x800:
                size = 2
            elif code < 0x10000:
                size = 3
            else:
                size = 4
            self.byte_starts.append(self.byte_starts[-1] + size)
            self.utf16_starts.append(self.utf16_starts[-1] + (2 if code > 0xFFFF else 1))

    def rows(self):
        return [[i, self.byte_starts[i], self.byte_starts[i + 1]] for i in range(len(self.text))]

    def index_of_byte(self, offset):
        if type(offset) is not int:
            raise ValueError("een bytegrens is een int")
        if offset not in self.byte_starts:
            raise ValueError("geen grens tussen codepunten")
        return self.byte_starts.index(offset)


def utf8_offsets(text):
    return UnitTable(text).rows()


def char_to_utf16(text, index):
    table = UnitTable(text)
    if type(index) is not int or not 0 <= index <= len(text):
        raise ValueError("index ligt van 0 tot en met len(text)")
    return table.utf16_starts[index]


def byte_span_to_chars(text, byte_start, byte_end):
    utf8_offsets(text)
    table = UnitTable(text)
    start, end = table.index_of_byte(byte_start), table.index_of_byte(byte_end)
    if start > end:
        raise ValueError("byte_start ligt na byte_end")
    return [start, end]
