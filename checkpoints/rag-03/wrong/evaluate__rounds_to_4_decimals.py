# after: solution.py
# caught by: de maten worden niet afgerond
"""Bewust foute oplossing voor evaluate: rondt de drie maten af op vier decimalen, terwijl de les de floats zelf vraagt.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

_correct_evaluate = evaluate


def evaluate(questions, rankings, corpus, k=5):
    result = _correct_evaluate(questions, rankings, corpus, k)
    for key in ("single_hit_at_k", "union_hit_at_k", "single_mrr_at_k"):
        result[key] = round(result[key], 4)
    return result
