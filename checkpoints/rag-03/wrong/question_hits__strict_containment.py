# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=2
"""Bewust foute oplossing voor question_hits: eist dat de span het bewijs ruim bevat (< in plaats van <=), zodat een span precies op het bewijs niet telt.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def question_hits(evidence, ranking, corpus, k=5):
    check_corpus(corpus)
    check_span(evidence, corpus)
    check_ranking(ranking, corpus)
    check_k(k)
    version, start, end = evidence
    same_version = [(a, b) for v, a, b in ranking[:k] if v == version]
    single_rank = None
    for rank, (v, a, b) in enumerate(ranking[:k], start=1):
        if v == version and a < start and end < b:
            single_rank = rank
            break
    covered = covered_length(start, end, same_version)
    return {"single_rank": single_rank, "union_hit": covered == end - start, "covered_chars": covered}
