# after: solution.py
# caught by: k is standaard 5
"""Bewust foute oplossing voor question_hits: neemt 10 als standaard voor k in plaats van 5.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

_checked_question_hits = question_hits


def question_hits(evidence, ranking, corpus, k=10):
    return _checked_question_hits(evidence, ranking, corpus, k)
