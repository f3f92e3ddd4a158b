# after: solution.py
# caught by: een span naast het bewijs dekt niets
"""Bewust foute oplossing voor question_hits: knipt elke span bij tot het bewijs, maar kijkt niet of er
iets overblijft. Een span die pas na het bewijs begint, trekt dan tekens af.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def covered_length(start, end, spans):
    covered = 0
    cursor = start
    for span_start, span_end in sorted(spans):
        if span_end <= cursor:
            continue
        low = max(span_start, cursor)
        high = min(span_end, end)
        covered += high - low
        cursor = high
    return covered
