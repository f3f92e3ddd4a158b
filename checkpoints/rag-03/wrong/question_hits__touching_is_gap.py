# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=2
"""Bewust foute oplossing voor question_hits: ziet twee spans die elkaar precies raken als een gat (>= in plaats van >).

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def covered_length(start, end, spans):
    covered = 0
    cursor = start
    for span_start, span_end in sorted(spans):
        if span_start >= cursor and cursor != start:
            break
        low = max(span_start, cursor)
        high = min(span_end, end)
        if low < high:
            covered += high - low
            cursor = high
    return covered
