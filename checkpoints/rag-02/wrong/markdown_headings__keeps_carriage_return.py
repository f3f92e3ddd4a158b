# after: solution.py
# caught by: Windows-regeleinden

def split_lines(text):
    lines = []
    offset = 0
    for raw in text.split("\n"):
        lines.append((offset, raw))
        offset += len(raw) + 1
    return lines
