# after: solution.py
# caught by: alleen \n beëindigt een regel

def split_lines(text):
    lines = []
    offset = 0
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        lines.append((offset, line))
        offset += len(raw)
    if text == "" or text.endswith("\n"):
        lines.append((offset, ""))
    return lines
