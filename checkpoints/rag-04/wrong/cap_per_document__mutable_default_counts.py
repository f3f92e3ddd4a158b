# after: solution.py
# caught by: geen geheugen tussen aanroepen
# De tellingen per document staan in een standaardwaarde, en die blijft tussen aanroepen bestaan.
def cap_per_document(candidates, slots=6, per_document={}):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    cap = max(1, slots // 2)
    taken = []
    for index, candidate in enumerate(candidates):
        if len(taken) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            taken.append(index)
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    for index in range(len(candidates)):
        if len(taken) == slots:
            break
        if index not in taken:
            taken.append(index)
    return [dict(candidates[index], routes=list(candidates[index]["routes"])) for index in sorted(taken)]
