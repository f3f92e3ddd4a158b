# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: gebruikt het patroon van versie-ids ook voor vraag-ids, zodat . en : erdoor komen.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

QUESTION_ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,40}")
