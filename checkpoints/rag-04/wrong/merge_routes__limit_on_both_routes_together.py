# after: solution.py
# caught by: een zoekweg is een list van hoogstens 200 treffers
# Legt de grens van 200 op beide zoekwegen samen in plaats van op elke zoekweg apart.
_reference_merge_routes = merge_routes


def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    if len(keyword_hits) + len(semantic_hits) > MAX_HITS:
        raise ValueError("samen hoogstens 200 treffers")
    return _reference_merge_routes(keyword_hits, semantic_hits)
