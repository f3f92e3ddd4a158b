# after: solution.py
# caught by: de lengte van de titel telt met witruimte eromheen
"""Bewust foute oplossing voor document_snapshots: Meet de titellengte na strip().

De andere functies zijn goed; alleen checkpoint document_snapshots hoort te falen.
"""


def check_record(item):
    """Controleer id, title en text zoals checkpoint 1 ze eist."""
    doc_id, title, text = item["id"], item["title"], item["text"]
    if not isinstance(doc_id, str) or not ID_PATTERN.fullmatch(doc_id):
        raise ValueError(f"ongeldig id: {doc_id!r}")
    if not isinstance(title, str) or not title.strip() or len(title.strip()) > MAX_TITLE_LENGTH:
        raise ValueError("titel moet tekst zijn, niet leeg en hoogstens 100 tekens")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("tekst moet tekst zijn, niet leeg en hoogstens 20000 tekens")


def document_snapshots(records):
    if not isinstance(records, list) or not 1 <= len(records) <= MAX_DOCUMENTS:
        raise ValueError("geef een lijst met 1 tot en met 32 documenten")
    snapshots = []
    seen_ids = set()
    for item in records:
        if not isinstance(item, dict) or set(item) != SNAPSHOT_KEYS:
            raise ValueError("elk document heeft precies de sleutels id, title en text")
        check_record(item)
        if item["id"] in seen_ids:
            raise ValueError(f"dubbel id: {item['id']}")
        seen_ids.add(item["id"])
        snapshots.append({
            "id": item["id"],
            "title": item["title"],
            "text": item["text"],
            "revision": sha256_of(item["text"]),
        })
    return snapshots
