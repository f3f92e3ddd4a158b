# after: solution.py
# caught by: voorbeeld: dezelfde tekst in een andere versie, k=3
"""Bewust foute oplossing voor evaluate: deelt met // en geeft zo 0 of 1 als int terug in plaats van een aandeel.

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
        union += hits["union_hit"]
    n = len(evidence)
    return {"questions": n, "k": k, "single_hit_at_k": single // n, "union_hit_at_k": union // n, "single_mrr_at_k": reciprocal / n}
