# Les rag-03: beoordeel een zoekopstelling met hit@k, union hit@k en MRR@k.
import re


def evidence_index(questions, corpus):
    raise NotImplementedError("checkpoint 1: schrijf evidence_index")


def question_hits(evidence, ranking, corpus, k=5):
    raise NotImplementedError("checkpoint 2: schrijf question_hits")


def evaluate(questions, rankings, corpus, k=5):
    raise NotImplementedError("checkpoint 3: schrijf evaluate")
