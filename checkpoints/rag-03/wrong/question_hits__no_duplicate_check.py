# after: solution.py
# caught by: elke span van de ranking wordt gecontroleerd
"""Bewust foute oplossing voor question_hits: weigert geen span die twee keer in de ranking staat.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def check_ranking(ranking, corpus):
    if not isinstance(ranking, list) or len(ranking) > MAX_RANKING:
        raise ValueError("ranking")
    for span in ranking:
        check_span(span, corpus)
