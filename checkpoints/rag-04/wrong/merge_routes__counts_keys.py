# after: solution.py
# caught by: een treffer volgt de regels
# ends in: KeyError
# Telt alleen of er drie sleutels zijn, niet welke: een score in plaats van chunk_number geeft een KeyError.
def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if not isinstance(hit, dict) or len(hit) != 3:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_place(hit)
        if hit["id"] in seen:
            raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
        seen.add(hit["id"])
