# after: solution.py
# caught by: aanvullen in de oorspronkelijke volgorde
def take_slots(candidates, slots):
    # Vult aan, maar zet de aangevulde kandidaten achteraan in plaats van op hun eigen plek.
    cap = max(1, slots // 2)
    taken, per_document = [], {}
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
    return taken
