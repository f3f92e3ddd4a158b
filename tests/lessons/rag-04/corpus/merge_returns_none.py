# after: solution.py


def merge_routes(keyword_hits, semantic_hits):
    merged = []
    for hit in keyword_hits:
        merged.append(dict(hit, routes=["keyword"]))
    # forgot the return
