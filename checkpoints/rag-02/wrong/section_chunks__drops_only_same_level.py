# after: solution.py
# caught by: voorbeeld: de handleiding van de lamp

def section_chunks(document):
    check_document(document)
    text = document["text"]
    headings = markdown_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    sections = [(0, [], 0, first_start)]
    open_headings = []
    for index, heading in enumerate(headings):
        level = heading["level"]
        # Alleen het oude kopje van hetzelfde niveau gaat weg; diepere blijven hangen.
        open_headings = [pair for pair in open_headings if pair[0] != level] + [(level, heading["title"])]
        open_headings.sort()
        line_break = text.find("\n", heading["end"])
        begin = len(text) if line_break == -1 else line_break + 1
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        sections.append((level, [title for _, title in open_headings], begin, end))
    chunks = []
    for level, path, begin, end in sections:
        start, end = trimmed_span(text, begin, end)
        if start == end:
            continue
        chunks.append({"id": f"{document['id']}:s{len(chunks)}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks), "level": level,
                       "headings": path, "start": start, "end": end, "text": text[start:end]})
    return chunks
