# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=2
"""Bewust foute oplossing voor question_hits: geeft voor een lege ranking niets terug (return zonder waarde, dus None) in plaats van een dict met een misser.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def question_hits(evidence, ranking, corpus, k=5):
    check_corpus(corpus)
    check_span(evidence, corpus)
    check_ranking(ranking, corpus)
    check_k(k)
    if not ranking:
        return
    return count_hits(evidence, ranking, k)
