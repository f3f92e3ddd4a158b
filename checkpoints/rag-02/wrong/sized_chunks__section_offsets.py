# after: solution.py
# caught by: voorbeeld: de handleiding met max_words 5 en overlap 1
_document_offsets = sized_chunks


def sized_chunks(document, max_words=40, overlap=8):
    sections = section_chunks(document)
    chunks = _document_offsets(document, max_words, overlap)
    for chunk in chunks:
        # Posities binnen de sectie, zoals finditer ze op de tekst van de sectie geeft.
        base = sections[chunk["section"]]["start"]
        chunk["start"] -= base
        chunk["end"] -= base
    return chunks
