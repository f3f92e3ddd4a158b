# after: solution.py
# caught by: een extra sleutel geeft een ValueError
"""Bewust foute oplossing voor document_snapshots: Controleert alleen of de nodige sleutels er zijn, niet of er extra zijn.

De andere functies zijn goed; alleen checkpoint document_snapshots hoort te falen.
"""


def document_snapshots(records):
    if not isinstance(records, list) or not 1 <= len(records) <= MAX_DOCUMENTS:
        raise ValueError("geef een lijst met 1 tot en met 32 documenten")
    snapshots = []
    seen_ids = set()
    for item in records:
        if not isinstance(item, dict) or not SNAPSHOT_KEYS <= set(item):
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
