# after: solution.py
# caught by: een treffer volgt de regels
# Het id wordt met %d opgebouwd en het nummer alleen met isinstance gecontroleerd: True met id d:1
# lijkt dan een geldig fragment 1.
def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_document_id(hit["document_id"])
        if not isinstance(hit["chunk_number"], int) or not 0 <= hit["chunk_number"] <= MAX_CHUNK_NUMBER:
            raise ValueError("chunk_number is een geheel getal van 0 tot en met 100000")
        if hit["id"] != "%s:%d" % (hit["document_id"], hit["chunk_number"]):
            raise ValueError("id past niet bij document_id en chunk_number")
        if hit["id"] in seen:
            raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
        seen.add(hit["id"])
