# after: solution.py
# caught by: elke vraag krijgt een eigen list, ook bij hetzelfde bewijs
"""Bewust foute oplossing voor evidence_index: hergebruikt voor twee vragen met hetzelfde bewijs één en dezelfde list, zodat een wijziging aan het bewijs van de ene vraag ook de andere verandert.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

_correct_evidence_index = evidence_index


def evidence_index(questions, corpus):
    index = _correct_evidence_index(questions, corpus)
    by_span = {}
    return {question_id: by_span.setdefault(tuple(span), span) for question_id, span in index.items()}
