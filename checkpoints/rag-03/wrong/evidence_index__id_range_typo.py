# after: solution.py
# caught by: elke vraag volgt de regels
r"""Bewust foute oplossing voor evidence_index: schrijft [A-z] voor [A-Za-z] in het patroon van vraag-ids, zodat ook [ \ ] ^ en ` erdoor komen.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

QUESTION_ID_PATTERN = re.compile(r"[A-z0-9_-]{1,40}")
