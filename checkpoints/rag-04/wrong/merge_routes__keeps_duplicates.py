# after: solution.py
# caught by: voorbeeld: de twee zoekwegen van de les
def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    return [dict(hit, routes=["keyword"]) for hit in keyword_hits] + [dict(hit, routes=["semantic"]) for hit in semantic_hits]
