# after: solution.py
# caught by: het plafond rondt naar beneden af
def take_slots(candidates, slots):
    cap = (slots + 1) // 2
    taken, per_document = set(), {}
    for index, candidate in enumerate(candidates):
        if len(taken) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            taken.add(index)
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    for index in range(len(candidates)):
        if len(taken) == slots:
            break
        taken.add(index)
    return sorted(taken)
