# after: solution.py
# caught by: voorbeeld: dezelfde tekst in een andere versie, k=3
"""Bewust foute oplossing voor evaluate: laat k weg uit het resultaat.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

_full_evaluate = evaluate


def evaluate(questions, rankings, corpus, k=5):
    result = _full_evaluate(questions, rankings, corpus, k)
    del result["k"]
    return result
