# after: solution.py
# caught by: elke vraag volgt de regels
# ends in: KeyError
"""Bewust foute oplossing voor evidence_index: telt alleen of een vraag vier sleutels heeft, niet welke.

Een vraag met citaat in plaats van quote geeft dan een KeyError in plaats van een ValueError.
De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def check_question(question, corpus):
    if not isinstance(question, dict) or len(question) != len(QUESTION_KEYS):
        raise ValueError("een vraag heeft vier sleutels")
    question_id = question["id"]
    if not isinstance(question_id, str) or not QUESTION_ID_PATTERN.fullmatch(question_id):
        raise ValueError(f"ongeldig vraag-id: {question_id!r}")
    text = question["question"]
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"vraag {question_id} heeft geen vraagtekst")
    check_span(question["evidence"], corpus)
    version, start, end = question["evidence"]
    if question["quote"] != corpus[version][start:end]:
        raise ValueError(f"het citaat van {question_id} is niet de tekst op die plek")
