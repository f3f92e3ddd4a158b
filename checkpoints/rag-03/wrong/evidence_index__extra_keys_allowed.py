# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: eist alleen dat de vier sleutels er zijn, en laat extra sleutels toe.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    for question in questions:
        if not isinstance(question, dict) or not QUESTION_KEYS <= set(question):
            raise ValueError("vraag")
        check_question({key: question[key] for key in QUESTION_KEYS}, corpus)
        if question["id"] in index:
            raise ValueError("dubbel id")
        index[question["id"]] = list(question["evidence"])
    return index
