# after: solution.py
# caught by: zonder slots: 6 plaatsen
def cap_per_document(candidates, slots=4):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    return [dict(candidates[index], routes=list(candidates[index]["routes"])) for index in take_slots(candidates, slots)]
