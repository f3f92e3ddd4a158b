# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=2
"""Bewust foute oplossing voor question_hits: telt als single hit de eerste span die het bewijs overlapt, in plaats van de eerste die het hele bewijs bevat.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def count_hits(evidence, ranking, k):
    version, start, end = evidence
    same_version = [(span_start, span_end) for span_version, span_start, span_end in ranking[:k]
                    if span_version == version]
    single_rank = None
    for rank, (span_version, span_start, span_end) in enumerate(ranking[:k], start=1):
        if span_version == version and span_start < end and start < span_end:
            single_rank = rank
            break
    covered = covered_length(start, end, same_version)
    return {"single_rank": single_rank, "union_hit": covered == end - start, "covered_chars": covered}
