# after: solution.py
# caught by: nieuwe dicts, invoer ongemoeid
# Ronde 2 haalt de gekozen kandidaten uit de lijst van de aanroeper om de rest over te houden.
def cap_per_document(candidates, slots=6):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    cap = max(1, slots // 2)
    order = {candidate["id"]: index for index, candidate in enumerate(candidates)}
    per_document = {}
    chosen = []
    for candidate in candidates:
        if len(chosen) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            chosen.append(candidate)
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    if len(chosen) < slots:
        rest = candidates
        for candidate in chosen:
            rest.remove(candidate)
        chosen += rest[:slots - len(chosen)]
    chosen.sort(key=lambda candidate: order[candidate["id"]])
    return [dict(candidate, routes=list(candidate["routes"])) for candidate in chosen]
