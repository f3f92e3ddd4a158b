# after: solution.py
# caught by: union hit zonder single hit, en een gat
"""Bewust foute oplossing voor evaluate: zoekt dubbele spans over alle rankings samen, zodat twee vragen die dezelfde span terugkrijgen ten onrechte een ValueError geven.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

_correct_evaluate = evaluate


def evaluate(questions, rankings, corpus, k=5):
    if isinstance(rankings, dict):
        seen = set()
        for ranking in rankings.values():
            for span in ranking if isinstance(ranking, list) else []:
                key = tuple(span) if isinstance(span, list) else span
                if key in seen:
                    raise ValueError("dezelfde span in twee rankings")
                seen.add(key)
    return _correct_evaluate(questions, rankings, corpus, k)
