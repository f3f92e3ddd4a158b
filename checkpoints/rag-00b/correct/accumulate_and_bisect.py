"""Correct, functional: running sums with itertools.accumulate, a lookup with bisect."""

from bisect import bisect_left
from itertools import accumulate


def _width(char):
    code = ord(char)
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


def _valid_text(text):
    return isinstance(text, str) and not any(0xD800 <= ord(char) < 0xE000 for char in text)


def utf8_offsets(text):
    if not _valid_text(text):
        raise ValueError("ongeldige tekst")
    ends = list(accumulate(map(_width, text)))
    return [[index, end - _width(char), end] for index, (char, end) in enumerate(zip(text, ends))]


def char_to_utf16(text, index):
    if not _valid_text(text) or isinstance(index, bool) or not isinstance(index, int):
        raise ValueError("ongeldige invoer")
    if index not in range(len(text) + 1):
        raise ValueError("index buiten de tekst")
    return sum(1 + (ord(char) >= 0x10000) for char in text[:index])


def byte_span_to_chars(text, byte_start, byte_end):
    boundaries = [0] + [end for _, _, end in utf8_offsets(text)]
    for value in (byte_start, byte_end):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("bytegrenzen zijn ints")
    start, end = bisect_left(boundaries, byte_start), bisect_left(boundaries, byte_end)
    if start == len(boundaries) or boundaries[start] != byte_start:
        raise ValueError("byte_start is geen grens")
    if end == len(boundaries) or boundaries[end] != byte_end:
        raise ValueError("byte_end is geen grens")
    if start > end:
        raise ValueError("omgekeerd bereik")
    return [start, end]
