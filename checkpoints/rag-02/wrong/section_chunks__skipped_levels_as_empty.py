# after: solution.py
# caught by: een kopje gooit alle kopjes van zijn niveau en dieper weg

def section_chunks(document):
    check_document(document)
    text = document["text"]
    headings = markdown_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    sections = [(0, [], 0, first_start)]
    path = []
    for index, heading in enumerate(headings):
        level = heading["level"]
        # Een pad als lijst per niveau: een overgeslagen niveau wordt een lege titel.
        path = (path + [""] * level)[:level - 1] + [heading["title"]]
        line_break = text.find("\n", heading["end"])
        begin = len(text) if line_break == -1 else line_break + 1
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        sections.append((level, list(path), begin, end))
    chunks = []
    for level, titles, begin, end in sections:
        start, end = trimmed_span(text, begin, end)
        if start == end:
            continue
        chunks.append({"id": f"{document['id']}:s{len(chunks)}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks), "level": level,
                       "headings": titles, "start": start, "end": end, "text": text[start:end]})
    return chunks
