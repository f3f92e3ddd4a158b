# after: solution.py


def cap_per_document(candidates, slots=6):
    chosen = []
    while len(chosen) < slots:  # never ends when there are fewer candidates than slots
        for candidate in candidates:
            if len(chosen) < slots:
                chosen.append(dict(candidate, routes=list(candidate["routes"])))
    return chosen
