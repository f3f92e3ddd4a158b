# after: solution.py
# caught by: een vraag telt één keer, ook met twee treffers
"""Bewust foute oplossing voor evaluate: telt zelf de spans die het bewijs bevatten en telt elke zo'n span als treffer (zonder break), zodat een vraag met twee treffers twee keer meetelt in single hit en MRR.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

def evaluate(questions, rankings, corpus, k=5):
    evidence = evidence_index(questions, corpus)
    check_k(k)
    if not isinstance(rankings, dict) or set(rankings) != set(evidence):
        raise ValueError("rankings")
    single = union = 0
    reciprocal = 0.0
    for question_id, (version, start, end) in evidence.items():
        hits = question_hits([version, start, end], rankings[question_id], corpus, k)
        for rank, (span_version, span_start, span_end) in enumerate(rankings[question_id][:k], start=1):
            if span_version == version and span_start <= start and end <= span_end:
                single += 1
                reciprocal += 1 / rank
        union += hits["union_hit"]
    n = len(evidence)
    return {"questions": n, "k": k, "single_hit_at_k": single / n, "union_hit_at_k": union / n, "single_mrr_at_k": reciprocal / n}
