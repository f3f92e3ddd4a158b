"""Goede oplossing in een andere stijl: een klasse Corpus die zijn eigen spans controleert."""

import re


class Corpus:
    VERSION = re.compile(r"[A-Za-z0-9_.:-]+")

    def __init__(self, texts):
        if type(texts) is not dict or len(texts) == 0 or len(texts) > 1000:
            raise ValueError("corpus")
        for version, text in texts.items():
            if type(version) is not str or len(version) > 80 or not self.VERSION.fullmatch(version):
                raise ValueError("versie")
            if type(text) is not str or text == "" or len(text) > 200_000:
                raise ValueError("tekst")
        self.texts = texts

    def span(self, value):
        if type(value) is not list or len(value) != 3:
            raise ValueError("span")
        version, start, end = value
        if type(version) is not str or version not in self.texts:
            raise ValueError("versie")
        if type(start) is not int or type(end) is not int:
            raise ValueError("posities")
        if start < 0 or end <= start or end > len(self.texts[version]):
            raise ValueError("bereik")
        return version, start, end

    def ranking(self, value):
        if type(value) is not list or len(value) > 1000:
            raise ValueError("ranking")
        spans = [self.span(item) for item in value]
        if len(set(spans)) != len(spans):
            raise ValueError("dubbel")
        return spans


class Question:
    ID = re.compile(r"[A-Za-z0-9_-]{1,40}")

    def __init__(self, raw, corpus):
        if type(raw) is not dict or sorted(raw) != ["evidence", "id", "question", "quote"]:
            raise ValueError("vraag")
        if type(raw["id"]) is not str or self.ID.fullmatch(raw["id"]) is None:
            raise ValueError("id")
        if type(raw["question"]) is not str or raw["question"].strip() == "":
            raise ValueError("vraagtekst")
        self.id = raw["id"]
        self.version, self.start, self.end = corpus.span(raw["evidence"])
        if type(raw["quote"]) is not str or raw["quote"] != corpus.texts[self.version][self.start:self.end]:
            raise ValueError("citaat")


def check_k(k):
    if type(k) is not int or k < 1 or k > 100:
        raise ValueError("k")


def load_questions(questions, corpus):
    if type(questions) is not list or not questions or len(questions) > 1000:
        raise ValueError("vragen")
    loaded = {}
    for raw in questions:
        question = Question(raw, corpus)
        if question.id in loaded:
            raise ValueError("dubbel id")
        loaded[question.id] = question
    return loaded


def evidence_index(questions, corpus):
    loaded = load_questions(questions, Corpus(corpus))
    return {qid: [q.version, q.start, q.end] for qid, q in loaded.items()}


def hits_for(version, start, end, spans, k):
    rank = None
    pieces = []
    for position, (span_version, a, b) in enumerate(spans[:k], 1):
        if span_version != version:
            continue
        if rank is None and a <= start and b >= end:
            rank = position
        if a < end and b > start:
            pieces.append((max(a, start), min(b, end)))
    pieces.sort()
    covered, reach = 0, start
    for a, b in pieces:
        if b > reach:
            covered += b - max(a, reach)
            reach = b
    return {"single_rank": rank, "union_hit": covered == end - start, "covered_chars": covered}


def question_hits(evidence, ranking, corpus, k=5):
    corpus = Corpus(corpus)
    version, start, end = corpus.span(evidence)
    spans = corpus.ranking(ranking)
    check_k(k)
    return hits_for(version, start, end, spans, k)


def evaluate(questions, rankings, corpus, k=5):
    corpus = Corpus(corpus)
    loaded = load_questions(questions, corpus)
    check_k(k)
    if type(rankings) is not dict or rankings.keys() != loaded.keys():
        raise ValueError("rankings")
    single = union = 0
    reciprocal = 0.0
    for qid, question in loaded.items():
        result = hits_for(question.version, question.start, question.end, corpus.ranking(rankings[qid]), k)
        if result["single_rank"]:
            single += 1
            reciprocal += 1 / result["single_rank"]
        union += result["union_hit"]
    n = len(loaded)
    return {"questions": n, "k": k, "single_hit_at_k": single / n, "union_hit_at_k": union / n, "single_mrr_at_k": reciprocal / n}
