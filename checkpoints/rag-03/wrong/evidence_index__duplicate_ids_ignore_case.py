# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: zoekt dubbele vraag-ids zonder op hoofdletters te letten, zodat q1 en Q1 ten onrechte als hetzelfde id gelden.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""


def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    seen = set()
    for question in questions:
        check_question(question, corpus)
        if question["id"].lower() in seen:
            raise ValueError("dubbel vraag-id")
        seen.add(question["id"].lower())
        index[question["id"]] = list(question["evidence"])
    return index
