# after: solution.py
# caught by: voorbeeld: de twee zoekwegen van de les
def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = {}
    for route, hits in (("keyword", keyword_hits), ("semantic", semantic_hits)):
        for hit in hits:
            routes = merged.pop(hit["id"])["routes"] + [route] if hit["id"] in merged else [route]
            merged[hit["id"]] = {"id": hit["id"], "document_id": hit["document_id"],
                                 "chunk_number": hit["chunk_number"], "routes": routes}
    return list(merged.values())
