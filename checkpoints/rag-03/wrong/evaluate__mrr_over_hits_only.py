# after: solution.py
# caught by: voorbeeld: de vier lampvragen bij k=1, 2 en 5
"""Bewust foute oplossing voor evaluate: middelt 1 / single_rank alleen over de vragen met een treffer, niet over alle n.

De andere functies zijn goed; alleen checkpoint evaluate hoort te falen.
"""

def evaluate(questions, rankings, corpus, k=5):
    evidence = evidence_index(questions, corpus)
    check_k(k)
    if not isinstance(rankings, dict) or set(rankings) != set(evidence):
        raise ValueError("rankings")
    ranks = []
    union = 0
    for question_id, span in evidence.items():
        hits = question_hits(span, rankings[question_id], corpus, k)
        if hits["single_rank"] is not None:
            ranks.append(hits["single_rank"])
        union += hits["union_hit"]
    n = len(evidence)
    mrr = sum(1 / rank for rank in ranks) / len(ranks) if ranks else 0.0
    return {"questions": n, "k": k, "single_hit_at_k": len(ranks) / n, "union_hit_at_k": union / n, "single_mrr_at_k": mrr}
