# after: solution.py
# caught by: aansluitende spans dekken samen, een gat niet
"""Bewust foute oplossing voor question_hits: geeft een union hit zodra een span het begin en een span het eind van het bewijs raakt, zonder te kijken of er daartussen een gat zit.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen (en evaluate, die deze functie gebruikt).
"""


def count_hits(evidence, ranking, k):
    version, start, end = evidence
    same_version = [(span_start, span_end) for span_version, span_start, span_end in ranking[:k]
                    if span_version == version]
    single_rank = None
    for rank, (span_version, span_start, span_end) in enumerate(ranking[:k], start=1):
        if span_version == version and span_start <= start and end <= span_end:
            single_rank = rank
            break
    touching = [(a, b) for a, b in same_version if a < end and b > start]
    union_hit = bool(touching) and min(a for a, _ in touching) <= start and max(b for _, b in touching) >= end
    return {
        "single_rank": single_rank,
        "union_hit": union_hit,
        "covered_chars": covered_length(start, end, same_version),
    }
