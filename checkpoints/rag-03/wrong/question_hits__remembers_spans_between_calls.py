# after: solution.py
# caught by: geen geheugen tussen aanroepen
"""Bewust foute oplossing voor question_hits: zoekt dubbele spans met een set als standaardwaarde (seen=set()), die tussen aanroepen blijft bestaan; een tweede aanroep met een span die al eens langskwam geeft een ValueError.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def check_ranking(ranking, corpus, seen=set()):
    if not isinstance(ranking, list) or len(ranking) > MAX_RANKING:
        raise ValueError("een ranking is een list met hoogstens 1000 spans")
    for span in ranking:
        check_span(span, corpus)
        if tuple(span) in seen:
            raise ValueError(f"dezelfde span twee keer: {span!r}")
        seen.add(tuple(span))
