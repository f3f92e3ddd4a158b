# after: solution.py
# caught by: invoer niet veranderd
"""Bewust foute oplossing voor evaluate: telt goed, maar sorteert daarna de lijst met vragen van de leerling op id (questions.sort), zodat de aanroeper zijn volgorde kwijt is.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

_counted_evaluate = evaluate


def evaluate(questions, rankings, corpus, k=5):
    result = _counted_evaluate(questions, rankings, corpus, k)
    questions.sort(key=lambda question: question["id"])
    return result
