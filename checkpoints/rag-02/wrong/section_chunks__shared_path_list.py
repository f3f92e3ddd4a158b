# after: solution.py
# caught by: voorbeeld: de handleiding van de lamp

def section_chunks(document):
    check_document(document)
    text = document["text"]
    headings = markdown_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    sections = [(0, [], 0, first_start)]
    levels, path = [], []
    for index, heading in enumerate(headings):
        while levels and levels[-1] >= heading["level"]:
            levels.pop()
            path.pop()
        levels.append(heading["level"])
        path.append(heading["title"])
        line_break = text.find("\n", heading["end"])
        begin = len(text) if line_break == -1 else line_break + 1
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        sections.append((heading["level"], path, begin, end))
    chunks = []
    for level, titles, begin, end in sections:
        start, end = trimmed_span(text, begin, end)
        if start == end:
            continue
        chunks.append({"id": document["id"] + f":s{len(chunks)}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks), "level": level,
                       "headings": titles, "start": start, "end": end, "text": text[start:end]})
    return chunks
