# after: solution.py
# caught by: elke aanroep begint opnieuw
# De fence-toestand staat buiten de functie: een open fence loopt door in de volgende aanroep.

FENCE = [None]
def find_headings(text):
    headings = []
    for number, (offset, line) in enumerate(split_lines(text)):
        if FENCE[0] is not None:
            if closes_fence(line, FENCE[0]):
                FENCE[0] = None
            continue
        opener = FENCE_OPENER.fullmatch(line)
        if opener and not (opener.group(1)[0] == "`" and "`" in opener.group(2)):
            FENCE[0] = opener.group(1)
            continue
        match = ATX_HEADING.fullmatch(line)
        if match:
            headings.append({"level": len(match.group(1)), "title": heading_title(match.group(2) or ""),
                "line": number, "start": offset, "end": offset + len(line)})
    return headings
