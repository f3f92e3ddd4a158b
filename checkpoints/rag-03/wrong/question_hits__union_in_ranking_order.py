# after: solution.py
# caught by: aansluitende spans dekken samen, een gat niet
"""Bewust foute oplossing voor question_hits: loopt de spans voor de dekking af in de volgorde van de ranking in plaats van gesorteerd op hun begin, zodat een span die eerder in de tekst begint maar later in de ranking staat een gat lijkt te laten.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def covered_length(start, end, spans):
    covered = 0
    cursor = start
    for span_start, span_end in spans:
        if span_start > cursor:
            break
        low = max(span_start, cursor)
        high = min(span_end, end)
        if low < high:
            covered += high - low
            cursor = high
    return covered
