# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: controleert niet of een vraag-id twee keer voorkomt; de laatste wint.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    for question in questions:
        check_question(question, corpus)
        index[question["id"]] = list(question["evidence"])
    return index
