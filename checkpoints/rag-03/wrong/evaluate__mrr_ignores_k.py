# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=1, 2 en 5
"""Bewust foute oplossing voor evaluate: zoekt de plek voor MRR in de hele ranking, ook voorbij k.

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
        union += hits["union_hit"]
        whole = question_hits(span, rankings[question_id], corpus, MAX_K)
        if whole["single_rank"] is not None:
            reciprocal += 1 / whole["single_rank"]
    n = len(evidence)
    return {"questions": n, "k": k, "single_hit_at_k": single / n, "union_hit_at_k": union / n, "single_mrr_at_k": reciprocal / n}
