# after: solution.py
# caught by: een treffer volgt de regels
# ends in: TypeError
# Zoekt dubbele ids voordat de treffers gecontroleerd zijn: een id dat een list is geeft een TypeError.
def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if isinstance(hit, dict) and "id" in hit:
            if hit["id"] in seen:
                raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
            seen.add(hit["id"])
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_place(hit)
