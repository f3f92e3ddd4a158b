# after: solution.py
# caught by: de tekst voor het eerste kopje
_with_preamble = section_chunks


def section_chunks(document):
    # Tekst voor het eerste kopje hoort bij geen kopje, dus gooi hem weg.
    chunks = [chunk for chunk in _with_preamble(document) if chunk["level"] > 0]
    for number, chunk in enumerate(chunks):
        chunk["chunk_number"] = number
        chunk["id"] = f"{document['id']}:s{number}"
    return chunks
