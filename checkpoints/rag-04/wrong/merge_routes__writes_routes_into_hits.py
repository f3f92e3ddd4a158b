# after: solution.py
# caught by: nieuwe dicts, invoer ongemoeid
def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = {}
    for route, hits in (("keyword", keyword_hits), ("semantic", semantic_hits)):
        for hit in hits:
            if hit["id"] in merged:
                merged[hit["id"]]["routes"].append(route)
            else:
                hit["routes"] = [route]
                merged[hit["id"]] = hit
    return list(merged.values())
