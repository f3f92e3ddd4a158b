# after: solution.py
# caught by: backticks met een backtick in de info-string openen geen fence

def markdown_headings(text):
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
        if opener:
            fence = opener.group(1)
            continue
        match = ATX_HEADING.fullmatch(line)
        if match:
            headings.append({"level": len(match.group(1)), "title": heading_title(match.group(2) or ""),
                             "line": number, "start": offset, "end": offset + len(line)})
    return headings
