# after: solution.py
# caught by: andere versies tellen niet, maar nemen wel een plek in
"""Bewust foute oplossing voor question_hits: neemt de eerste k spans pas nadat de spans uit andere versies zijn weggelaten, zodat spans voorbij plek k toch meetellen.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def count_hits(evidence, ranking, k):
    version, start, end = evidence
    same_version = [(rank, span) for rank, span in enumerate(ranking, start=1) if span[0] == version][:k]
    single_rank = None
    for rank, (_, span_start, span_end) in same_version:
        if span_start <= start and end <= span_end:
            single_rank = rank
            break
    covered = covered_length(start, end, [(span[1], span[2]) for _, span in same_version])
    return {"single_rank": single_rank, "union_hit": covered == end - start, "covered_chars": covered}
