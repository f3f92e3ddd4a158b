# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=2
"""Bewust foute oplossing voor question_hits: kijkt alleen naar posities, niet naar de versie: dezelfde plek in een andere versie telt mee.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""

def question_hits(evidence, ranking, corpus, k=5):
    check_corpus(corpus)
    check_span(evidence, corpus)
    check_ranking(ranking, corpus)
    check_k(k)
    version, start, end = evidence
    top = [(span_start, span_end) for _, span_start, span_end in ranking[:k]]
    single_rank = None
    for rank, (span_start, span_end) in enumerate(top, start=1):
        if span_start <= start and end <= span_end:
            single_rank = rank
            break
    covered = covered_length(start, end, top)
    return {"single_rank": single_rank, "union_hit": covered == end - start, "covered_chars": covered}
