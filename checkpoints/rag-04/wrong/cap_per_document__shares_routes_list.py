# after: solution.py
def cap_per_document(candidates, slots=6):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    return [dict(candidates[index]) for index in take_slots(candidates, slots)]
