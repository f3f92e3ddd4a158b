# after: solution.py
# caught by: geen geheugen tussen aanroepen
# De verzameling gezien ids staat buiten de functie: een volgende vraag mist wat een vorige al vond.
seen = set()


def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = {}
    for route, hits in (("keyword", keyword_hits), ("semantic", semantic_hits)):
        for hit in hits:
            if hit["id"] in merged:
                merged[hit["id"]]["routes"].append(route)
            elif hit["id"] not in seen:
                seen.add(hit["id"])
                merged[hit["id"]] = {"id": hit["id"], "document_id": hit["document_id"],
                                     "chunk_number": hit["chunk_number"], "routes": [route]}
    return list(merged.values())
