# after: solution.py
# caught by: 1 tot 6 hekjes, dan een spatie, een tab of het einde van de regel

def markdown_headings(text):
    # Het hoofdstuk: een regel die met # begint is een kopje; het niveau via lstrip("#").
    if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("text")
    headings = []
    fence = None
    for number, (offset, line) in enumerate(split_lines(text)):
        if fence is not None:
            if closes_fence(line, fence):
                fence = None
            continue
        opener = FENCE_OPENER.fullmatch(line)
        if opener and not (opener.group(1)[0] == "`" and "`" in opener.group(2)):
            fence = opener.group(1)
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            headings.append({"level": level, "title": heading_title(line[level:]), "line": number,
                             "start": offset, "end": offset + len(line)})
    return headings
