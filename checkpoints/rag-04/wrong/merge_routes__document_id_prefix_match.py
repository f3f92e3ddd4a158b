# after: solution.py
# caught by: een treffer volgt de regels
# re.match kijkt alleen naar het begin: 41 tekens of een spatie erachter glipt erdoor.
def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        if not isinstance(hit["document_id"], str) or not DOCUMENT_ID.match(hit["document_id"]):
            raise ValueError("ongeldig document-id")
        check_whole_number(hit["chunk_number"], 0, MAX_CHUNK_NUMBER, "chunk_number")
        if hit["id"] != f"{hit['document_id']}:{hit['chunk_number']}":
            raise ValueError("id past niet bij document_id en chunk_number")
        if hit["id"] in seen:
            raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
        seen.add(hit["id"])
