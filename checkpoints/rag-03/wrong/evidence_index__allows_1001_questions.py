# after: solution.py
# caught by: elke vraag volgt de regels
"""Bewust foute oplossing voor evidence_index: laat 1001 vragen toe (< in plaats van <=, één te ruim).

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

MAX_QUESTIONS = 1001
