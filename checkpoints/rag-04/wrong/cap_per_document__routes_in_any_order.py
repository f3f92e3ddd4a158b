# after: solution.py
# caught by: een kandidaat volgt de regels
def check_candidates(candidates):
    if not isinstance(candidates, list) or len(candidates) > MAX_CANDIDATES:
        raise ValueError("candidates is een list van hoogstens 400 kandidaten")
    seen = set()
    for candidate in candidates:
        if not isinstance(candidate, dict) or set(candidate) != CANDIDATE_KEYS:
            raise ValueError("een kandidaat heeft precies de sleutels id, document_id, chunk_number en routes")
        check_place(candidate)
        routes = candidate["routes"]
        if not isinstance(routes, list) or not routes or not set(routes) <= {"keyword", "semantic"} or len(set(routes)) != len(routes):
            raise ValueError("routes noemt keyword en/of semantic")
        if candidate["id"] in seen:
            raise ValueError("elke kandidaat komt één keer voor")
        seen.add(candidate["id"])
