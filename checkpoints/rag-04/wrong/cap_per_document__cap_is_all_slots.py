# after: solution.py
# caught by: voorbeeld: 4 plaatsen
def take_slots(candidates, slots):
    # Vergeet het plafond: gewoon de eerste slots kandidaten.
    return list(range(min(slots, len(candidates))))
