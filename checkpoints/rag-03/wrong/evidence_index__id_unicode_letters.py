# after: solution.py
# caught by: elke vraag volgt de regels
r"""Bewust foute oplossing voor evidence_index: schrijft het patroon van vraag-ids met \w, dat in Python ook é, ß en andere Unicode-letters en -cijfers toelaat.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

QUESTION_ID_PATTERN = re.compile(r"[\w-]{1,40}")
