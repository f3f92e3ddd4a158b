# after: solution.py
# caught by: hetzelfde fragment twee keer in één zoekweg
def check_hits(hits):
    # Een dubbel id binnen één zoekweg wordt stil genegeerd in plaats van geweigerd.
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_place(hit)
