# after: solution.py
# caught by: het document volgt de regels van rag-01

def check_document(document):
    if not isinstance(document, dict) or set(document) != DOCUMENT_KEYS:
        raise ValueError("document heeft precies de sleutels id, title, text en revision")
    doc_id, title, text = document["id"], document["title"], document["text"]
    if not isinstance(doc_id, str) or not ID_PATTERN.fullmatch(doc_id):
        raise ValueError(f"ongeldig id: {doc_id!r}")
    if not isinstance(title, str) or not title.strip() or len(title.strip()) > MAX_TITLE_LENGTH:
        raise ValueError("titel moet tekst zijn, niet leeg en hoogstens 100 tekens")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("tekst moet tekst zijn, niet leeg en hoogstens 20000 tekens")
    if document["revision"] != sha256_of(text):
        raise ValueError("revision hoort niet bij deze tekst")
