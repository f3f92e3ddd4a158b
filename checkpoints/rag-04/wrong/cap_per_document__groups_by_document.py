# after: solution.py
# caught by: voorbeeld: 4 plaatsen
def cap_per_document(candidates, slots=6):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    chosen = [dict(candidates[index], routes=list(candidates[index]["routes"])) for index in take_slots(candidates, slots)]
    # Zet de gekozen kandidaten per document bij elkaar.
    first = {}
    for position, candidate in enumerate(chosen):
        first.setdefault(candidate["document_id"], position)
    return sorted(chosen, key=lambda candidate: first[candidate["document_id"]])
