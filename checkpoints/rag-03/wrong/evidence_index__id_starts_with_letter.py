# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: eist dat een vraag-id met een letter of cijfer begint, wat de les niet vraagt; "-_" en "_q1" worden zo ten onrechte geweigerd.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

QUESTION_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
