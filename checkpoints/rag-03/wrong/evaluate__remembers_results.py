# after: solution.py
# caught by: geen geheugen tussen aanroepen
"""Bewust foute oplossing voor evaluate: bewaart de uitkomst in een globale cache met de vraag-ids en k als sleutel, zodat een tweede aanroep met dezelfde vragen maar andere rankings de oude maten teruggeeft.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

_results = {}
_counted_evaluate = evaluate


def evaluate(questions, rankings, corpus, k=5):
    key = (tuple(question["id"] for question in questions), k) if isinstance(questions, list) \
        and all(isinstance(question, dict) and isinstance(question.get("id"), str) for question in questions) else None
    if key in _results:
        return dict(_results[key])
    result = _counted_evaluate(questions, rankings, corpus, k)
    if key is not None:
        _results[key] = dict(result)
    return result
