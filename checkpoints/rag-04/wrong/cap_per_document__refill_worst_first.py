# after: solution.py
# caught by: een vraag over één document verliest niets
def take_slots(candidates, slots):
    cap = max(1, slots // 2)
    taken, per_document = set(), {}
    for index, candidate in enumerate(candidates):
        if len(taken) == slots:
            break
        if per_document.get(candidate["document_id"], 0) < cap:
            taken.add(index)
            per_document[candidate["document_id"]] = per_document.get(candidate["document_id"], 0) + 1
    # Vult aan vanaf het eind van de lijst.
    for index in reversed(range(len(candidates))):
        if len(taken) == slots:
            break
        taken.add(index)
    return sorted(taken)
