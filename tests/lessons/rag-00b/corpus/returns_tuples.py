# after: solution.py


def utf8_offsets(text):
    text.encode("utf-8")
    rows, position = [], 0
    for index, char in enumerate(text):
        size = len(char.encode("utf-8"))
        rows.append((index, position, position + size))  # a tuple per row: not plain data
        position += size
    return rows
