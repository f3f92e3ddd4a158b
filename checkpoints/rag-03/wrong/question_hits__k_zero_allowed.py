# after: solution.py
# caught by: k is een int van 1 tot en met 100
"""Bewust foute oplossing voor question_hits: laat k = 0 toe, zodat er niets geteld wordt in plaats van een fout.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def check_k(k):
    if not is_exact_int(k) or not 0 <= k <= MAX_K:
        raise ValueError("k")
