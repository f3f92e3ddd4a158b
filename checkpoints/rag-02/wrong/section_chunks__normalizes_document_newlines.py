# after: solution.py
# caught by: document niet veranderd, nieuwe lijsten
# Vervangt \r\n door \n in het document zelf (en past revision aan), zodat ook de posities niet
# meer in de tekst passen die de aanroeper heeft.


def section_chunks(document):
    check_document(document)
    document["text"] = document["text"].replace("\r\n", "\n")
    document["revision"] = sha256_of(document["text"])
    text = document["text"]
    chunks = []
    for number, (level, path, start, end) in enumerate(sections_of(text)):
        chunks.append({
            "id": f"{document['id']}:s{number}", "document_id": document["id"], "revision": document["revision"],
            "chunk_number": number, "level": level, "headings": path, "start": start, "end": end,
            "text": text[start:end],
        })
    return chunks
