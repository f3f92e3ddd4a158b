# after: solution.py
# caught by: het citaat wordt niet genormaliseerd
"""Bewust foute oplossing voor evidence_index: vergelijkt het citaat na unicodedata.normalize("NFC"), zodat é als e plus accentteken gelijk is aan é als één teken.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

import unicodedata


def check_question(question, corpus):
    if not isinstance(question, dict) or set(question) != QUESTION_KEYS:
        raise ValueError("een vraag heeft precies de sleutels id, question, evidence en quote")
    if not isinstance(question["id"], str) or not QUESTION_ID_PATTERN.fullmatch(question["id"]):
        raise ValueError("ongeldig vraag-id")
    if not isinstance(question["question"], str) or not question["question"].strip():
        raise ValueError("geen vraagtekst")
    check_span(question["evidence"], corpus)
    version, start, end = question["evidence"]
    quote = question["quote"]
    if not isinstance(quote, str) or unicodedata.normalize("NFC", quote) != unicodedata.normalize("NFC", corpus[version][start:end]):
        raise ValueError("citaat klopt niet")
