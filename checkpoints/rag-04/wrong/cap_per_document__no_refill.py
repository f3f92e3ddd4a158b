# after: solution.py
# caught by: een vraag over één document verliest niets
def take_slots(candidates, slots):
    # Alleen ronde 1: de plaatsen die het plafond vrijlaat, blijven leeg.
    cap = max(1, slots // 2)
    taken, per_document = [], {}
    for index, candidate in enumerate(candidates):
        if len(taken) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            taken.append(index)
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    return taken
