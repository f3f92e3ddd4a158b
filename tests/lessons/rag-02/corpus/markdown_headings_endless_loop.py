# after: solution.py


def markdown_headings(text):
    # A hand-written line scanner that forgets to move on after a fence opener.
    headings = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```") or line.startswith("~~~"):
            continue
        if line.startswith("# "):
            headings.append({"level": 1, "title": line[2:], "line": index, "start": 0, "end": len(line)})
        index += 1
    return headings
