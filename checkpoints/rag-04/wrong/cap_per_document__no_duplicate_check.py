# after: solution.py
# caught by: de lijst kandidaten
def check_candidates(candidates):
    if not isinstance(candidates, list) or len(candidates) > MAX_CANDIDATES:
        raise ValueError("candidates is een list van hoogstens 400 kandidaten")
    for candidate in candidates:
        if not isinstance(candidate, dict) or set(candidate) != CANDIDATE_KEYS:
            raise ValueError("een kandidaat heeft precies de sleutels id, document_id, chunk_number en routes")
        check_place(candidate)
        if candidate["routes"] not in ROUTE_LISTS:
            raise ValueError("ongeldige routes")
