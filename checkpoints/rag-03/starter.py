# Les rag-03: beoordeel een zoekopstelling met hit@k, union hit@k en MRR@k.
# Vul de drie functies één voor één in en klik op Uitvoeren (of Ctrl+Enter).
# Alles draait in je eigen browser; je kunt niets kapotmaken.

import re


def evidence_index(questions, corpus):
    """Controleer corpus en vragen; geef {vraag-id: [versie, start, end]} terug."""
    raise NotImplementedError("checkpoint 1: schrijf evidence_index")


def question_hits(evidence, ranking, corpus, k=5):
    """Geef single_rank, union_hit en covered_chars voor één vraag terug."""
    raise NotImplementedError("checkpoint 2: schrijf question_hits")


def evaluate(questions, rankings, corpus, k=5):
    """Geef questions, k, single_hit_at_k, union_hit_at_k en single_mrr_at_k terug."""
    raise NotImplementedError("checkpoint 3: schrijf evaluate")


if __name__ == "__main__":
    # Het voorbeeld uit de les: dezelfde tekst in twee versies.
    corpus = {"manual-v1": "AA BBBB CC", "other-v1": "AA BBBB CC"}
    questions = [{"id": "q1", "question": "Wat staat er in het midden?",
                  "evidence": ["manual-v1", 3, 7], "quote": "BBBB"}]
    rankings = {"q1": [["other-v1", 0, 10], ["manual-v1", 0, 5], ["manual-v1", 5, 10]]}
    try:
        print(evidence_index(questions, corpus))
        print(question_hits(["manual-v1", 3, 7], rankings["q1"], corpus, k=3))
        print(evaluate(questions, rankings, corpus, k=3))
    except NotImplementedError as not_done:
        print("Nog te doen:", not_done)
