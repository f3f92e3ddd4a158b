def merge_routes(keyword_hits, semantic_hits):
return []
