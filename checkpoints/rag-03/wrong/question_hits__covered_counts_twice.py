# after: solution.py
# caught by: overlappende spans tellen elk teken één keer
"""Bewust foute oplossing voor question_hits: telt tekens die twee spans allebei dekken twee keer.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def covered_length(start, end, spans):
    total = 0
    for span_start, span_end in spans:
        total += max(0, min(span_end, end) - max(span_start, start))
    return min(total, end - start) if total > end - start else total
