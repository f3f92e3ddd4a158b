# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: vergelijkt het citaat na strip(), zodat witruimte eromheen niet telt.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def check_question(question, corpus):
    if not isinstance(question, dict) or set(question) != QUESTION_KEYS:
        raise ValueError("een vraag heeft precies de sleutels id, question, evidence en quote")
    if not isinstance(question["id"], str) or not QUESTION_ID_PATTERN.fullmatch(question["id"]):
        raise ValueError("ongeldig vraag-id")
    if not isinstance(question["question"], str) or not question["question"].strip():
        raise ValueError("geen vraagtekst")
    check_span(question["evidence"], corpus)
    version, start, end = question["evidence"]
    if not isinstance(question["quote"], str) or question["quote"].strip() != corpus[version][start:end].strip():
        raise ValueError("citaat klopt niet")
