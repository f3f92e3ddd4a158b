# after: solution.py
# caught by: voorbeeld: de twee zoekwegen van de les
def merge_routes(keyword_hits, semantic_hits):
    # Begint met de semantische treffers: "betekenis gaat voor".
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = {}
    for route, hits in (("semantic", semantic_hits), ("keyword", keyword_hits)):
        for hit in hits:
            if hit["id"] in merged:
                merged[hit["id"]]["routes"] = ["keyword", "semantic"]
            else:
                merged[hit["id"]] = {"id": hit["id"], "document_id": hit["document_id"],
                                     "chunk_number": hit["chunk_number"], "routes": [route]}
    return list(merged.values())
