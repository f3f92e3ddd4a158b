# after: solution.py
# caught by: 33 documenten geven een ValueError
"""Bewust foute oplossing voor document_snapshots: Off-by-one in het maximum aantal documenten.

De andere functies zijn goed; alleen checkpoint document_snapshots hoort te falen.
"""


def document_snapshots(records):
    if not isinstance(records, list) or not 1 <= len(records) <= MAX_DOCUMENTS + 1:
        raise ValueError("geef een lijst met 1 tot en met 32 documenten")
    snapshots = []
    seen_ids = set()
    for item in records:
        if not isinstance(item, dict) or set(item) != SNAPSHOT_KEYS:
            raise ValueError("elk document heeft precies de sleutels id, title en text")
        check_snapshot_fields(item)
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
