# after: solution.py
# caught by: elke aanroep begint opnieuw
# De kopjesstapel staat buiten de functie en begint bij de volgende aanroep niet leeg.

OPEN_HEADINGS = []
def sections_of(text):
    headings = find_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    raw_sections = [(0, [], 0, first_start)]
    for index, heading in enumerate(headings):
        level = heading["level"]
        while OPEN_HEADINGS and OPEN_HEADINGS[-1][0] >= level:
            OPEN_HEADINGS.pop()
        OPEN_HEADINGS.append((level, heading["title"]))
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        raw_sections.append((level, [t for _, t in OPEN_HEADINGS], heading["end"], end))
    sections = []
    for level, path, begin, end in raw_sections:
        start, end = trimmed_span(text, begin, end)
        if start < end:
            sections.append((level, path, start, end))
    return sections
