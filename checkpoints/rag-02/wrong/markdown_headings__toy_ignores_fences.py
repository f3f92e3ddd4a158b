# after: solution.py
# caught by: voorbeeld: de handleiding van de lamp

def markdown_headings(text):
    # Zoals de eenvoudige parser uit het hoofdstuk: elke regel die op een kopje lijkt, telt.
    if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("text")
    headings = []
    for number, (offset, line) in enumerate(split_lines(text)):
        match = ATX_HEADING.fullmatch(line)
        if match:
            headings.append({"level": len(match.group(1)), "title": heading_title(match.group(2) or ""),
                             "line": number, "start": offset, "end": offset + len(line)})
    return headings
