# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=1, 2 en 5
"""Bewust foute oplossing voor evaluate: telt een vraag als union hit zodra de spans een deel van het bewijs dekken.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

def evaluate(questions, rankings, corpus, k=5):
    evidence = evidence_index(questions, corpus)
    check_k(k)
    if not isinstance(rankings, dict) or set(rankings) != set(evidence):
        raise ValueError("rankings")
    single = union = 0
    reciprocal = 0.0
    for question_id, span in evidence.items():
        hits = question_hits(span, rankings[question_id], corpus, k)
        if hits["single_rank"] is not None:
            single += 1
            reciprocal += 1 / hits["single_rank"]
        union += hits["covered_chars"] > 0
    n = len(evidence)
    return {"questions": n, "k": k, "single_hit_at_k": single / n, "union_hit_at_k": union / n, "single_mrr_at_k": reciprocal / n}
