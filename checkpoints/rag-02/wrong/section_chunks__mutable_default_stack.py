# after: solution.py
# caught by: elke aanroep begint opnieuw
# De kopjesstapel als standaardwaarde (open_headings=[]): hij blijft tussen aanroepen gevuld.

def section_chunks(document, open_headings=[]):
    check_document(document)
    text = document["text"]
    headings = find_headings(text)
    first_start = headings[0]["start"] if headings else len(text)
    raw = [(0, [], 0, first_start)]
    for index, heading in enumerate(headings):
        while open_headings and open_headings[-1][0] >= heading["level"]:
            open_headings.pop()
        open_headings.append((heading["level"], heading["title"]))
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        raw.append((heading["level"], [t for _, t in open_headings], heading["end"], end))
    chunks = []
    for level, path, begin, end in raw:
        start, end = trimmed_span(text, begin, end)
        if start < end:
            n = len(chunks)
            chunks.append({"id": f"{document['id']}:s{n}", "document_id": document["id"], "revision": document["revision"],
                "chunk_number": n, "level": level, "headings": path, "start": start, "end": end, "text": text[start:end]})
    return chunks
