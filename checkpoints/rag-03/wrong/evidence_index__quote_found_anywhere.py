# after: solution.py
# caught by: tekenposities zijn codepunten
"""Bewust foute oplossing voor evidence_index: accepteert een citaat als het ergens in de versie voorkomt, niet op precies die plek.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    for question in questions:
        if not isinstance(question, dict) or set(question) != QUESTION_KEYS:
            raise ValueError("vraag")
        if not isinstance(question["id"], str) or not QUESTION_ID_PATTERN.fullmatch(question["id"]):
            raise ValueError("id")
        if not isinstance(question["question"], str) or not question["question"].strip():
            raise ValueError("vraagtekst")
        check_span(question["evidence"], corpus)
        version = question["evidence"][0]
        if not isinstance(question["quote"], str) or question["quote"] not in corpus[version]:
            raise ValueError("citaat")
        if question["id"] in index:
            raise ValueError("dubbel id")
        index[question["id"]] = list(question["evidence"])
    return index
