# after: solution.py
# caught by: voorbeeld: de twee zoekwegen van de les
def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = [dict(hit, routes=["keyword"]) for hit in keyword_hits]
    seen = {hit["id"] for hit in keyword_hits}
    # Slaat een dubbele over, maar vergeet te noteren dat de semantische zoekweg hem ook vond.
    merged += [dict(hit, routes=["semantic"]) for hit in semantic_hits if hit["id"] not in seen]
    return merged
