# after: solution.py
# caught by: een kandidaat volgt de regels
# ends in: KeyError
# Telt alleen of er vier sleutels zijn, niet welke: een score in plaats van routes geeft een KeyError.
def check_candidates(candidates):
    if not isinstance(candidates, list) or len(candidates) > MAX_CANDIDATES:
        raise ValueError("candidates is een list van hoogstens 400 kandidaten")
    seen = set()
    for candidate in candidates:
        if not isinstance(candidate, dict) or len(candidate) != 4:
            raise ValueError("een kandidaat heeft precies de sleutels id, document_id, chunk_number en routes")
        check_place(candidate)
        if candidate["routes"] not in ROUTE_LISTS:
            raise ValueError('routes is ["keyword"], ["semantic"] of ["keyword", "semantic"]')
        if candidate["id"] in seen:
            raise ValueError("elke kandidaat komt één keer voor")
        seen.add(candidate["id"])
