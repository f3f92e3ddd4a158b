def merge_routes(keyword_hits, semantic_hits)
    return keyword_hits + semantic_hits
