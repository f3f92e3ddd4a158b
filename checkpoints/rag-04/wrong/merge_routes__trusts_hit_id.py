# after: solution.py
# caught by: een treffer volgt de regels
# Controleert document_id en chunk_number, maar niet of het id erbij past.
def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_document_id(hit["document_id"])
        check_whole_number(hit["chunk_number"], 0, MAX_CHUNK_NUMBER, "chunk_number")
        if hit["id"] in seen:
            raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
        seen.add(hit["id"])
