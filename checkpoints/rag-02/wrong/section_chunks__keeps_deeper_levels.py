# after: solution.py
# caught by: voorbeeld: de handleiding van de lamp

def section_chunks(document):
    # Het hoofdstuk vóór de correctie: een dict per niveau, alleen hetzelfde niveau wordt overschreven.
    check_document(document)
    text = document["text"]
    headings = markdown_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    sections = [(0, [], 0, first_start)]
    by_level = {}
    for index, heading in enumerate(headings):
        by_level[heading["level"]] = heading["title"]
        line_break = text.find("\n", heading["end"])
        begin = len(text) if line_break == -1 else line_break + 1
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        sections.append((heading["level"], [by_level[level] for level in sorted(by_level)], begin, end))
    return _chunks_from(document, sections)


def _chunks_from(document, sections):
    text = document["text"]
    chunks = []
    for level, path, begin, end in sections:
        start, end = trimmed_span(text, begin, end)
        if start == end:
            continue
        chunks.append({"id": f"{document['id']}:s{len(chunks)}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks), "level": level,
                       "headings": path, "start": start, "end": end, "text": text[start:end]})
    return chunks
