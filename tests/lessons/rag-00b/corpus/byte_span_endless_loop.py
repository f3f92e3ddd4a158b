# after: solution.py


def byte_span_to_chars(text, byte_start, byte_end):
    # Walks back to a boundary, but never moves when byte_start is inside a code point.
    position = byte_start
    while position not in [0] + [end for _, _, end in utf8_offsets(text)]:
        pass
    return [0, 0]
