"""Voorbeeldoplossing van les rag-03: een zoekopstelling beoordelen met hit@k, union hit@k en MRR@k.

Lees de functies in de volgorde van de les. Een span is een list [versie, start, end] met
Python-tekenposities (start telt mee, end niet). Alles wat niet klopt, wordt geweigerd met een
ValueError voordat er iets geteld wordt. Alleen re uit de standaardbibliotheek.
"""

import re

MAX_VERSIONS = 1000
MAX_TEXT_LENGTH = 200000
MAX_QUESTIONS = 1000
MAX_RANKING = 1000
MAX_K = 100

VERSION_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
QUESTION_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
QUESTION_KEYS = {"id", "question", "evidence", "quote"}


def is_exact_int(value):
    # bool is een subklasse van int, maar True is geen tekenpositie en geen k.
    return type(value) is int


def check_corpus(corpus):
    """Een dict van 1 tot 1000 vaste versies: id -> niet-lege tekst van hoogstens 200000 tekens."""
    if not isinstance(corpus, dict) or not 1 <= len(corpus) <= MAX_VERSIONS:
        raise ValueError("corpus is een dict met 1 tot en met 1000 versies")
    for version, text in corpus.items():
        # De sleutels van een dict zijn hier altijd str: de grader geeft alleen gewone waarden door.
        if not VERSION_PATTERN.fullmatch(version):
            raise ValueError(f"ongeldige versie-id: {version!r}")
        if not isinstance(text, str) or not 1 <= len(text) <= MAX_TEXT_LENGTH:
            raise ValueError(f"de tekst van {version} is leeg, geen str of langer dan 200000 tekens")


def check_span(span, corpus):
    """[versie, start, end] met 0 <= start < end <= len(tekst van die versie)."""
    if not isinstance(span, list) or len(span) != 3:
        raise ValueError("een span is een list [versie, start, end]")
    version, start, end = span
    if not isinstance(version, str) or version not in corpus:
        raise ValueError(f"onbekende versie in span: {version!r}")
    if not is_exact_int(start) or not is_exact_int(end):
        raise ValueError("start en end zijn gehele getallen")
    if not 0 <= start < end <= len(corpus[version]):
        raise ValueError("span valt buiten de tekst of is leeg")


def check_ranking(ranking, corpus):
    """Elke span telt, ook na k; dezelfde span twee keer is een fout."""
    if not isinstance(ranking, list) or len(ranking) > MAX_RANKING:
        raise ValueError("een ranking is een list met hoogstens 1000 spans")
    seen = set()
    for span in ranking:
        check_span(span, corpus)
        key = tuple(span)
        if key in seen:
            raise ValueError(f"dezelfde span twee keer in een ranking: {span!r}")
        seen.add(key)


def check_k(k):
    if not is_exact_int(k) or not 1 <= k <= MAX_K:
        raise ValueError("k is een geheel getal van 1 tot en met 100")


def check_question(question, corpus):
    if not isinstance(question, dict) or set(question) != QUESTION_KEYS:
        raise ValueError("een vraag heeft precies de sleutels id, question, evidence en quote")
    question_id = question["id"]
    if not isinstance(question_id, str) or not QUESTION_ID_PATTERN.fullmatch(question_id):
        raise ValueError(f"ongeldig vraag-id: {question_id!r}")
    text = question["question"]
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"vraag {question_id} heeft geen vraagtekst")
    check_span(question["evidence"], corpus)
    version, start, end = question["evidence"]
    if question["quote"] != corpus[version][start:end]:
        raise ValueError(f"het citaat van {question_id} is niet de tekst op die plek")


def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    for question in questions:
        check_question(question, corpus)
        if question["id"] in index:
            raise ValueError(f"dubbel vraag-id: {question['id']}")
        index[question["id"]] = list(question["evidence"])
    return index


def covered_length(start, end, spans):
    """Hoeveel tekens van [start, end) de spans samen dekken, elk teken één keer."""
    covered = 0
    cursor = start
    for span_start, span_end in sorted(spans):
        low = max(span_start, cursor)
        high = min(span_end, end)
        if low < high:
            covered += high - low
            cursor = high
    return covered


def count_hits(evidence, ranking, k):
    """single_rank, union_hit en covered_chars voor een bewijs en ranking die al gecontroleerd zijn."""
    version, start, end = evidence
    # Alleen spans uit dezelfde versie tellen: dezelfde woorden elders zijn geen bewijs.
    same_version = [(span_start, span_end) for span_version, span_start, span_end in ranking[:k]
                    if span_version == version]
    single_rank = None
    for rank, (span_version, span_start, span_end) in enumerate(ranking[:k], start=1):
        if span_version == version and span_start <= start and end <= span_end:
            single_rank = rank
            break
    covered = covered_length(start, end, same_version)
    return {
        "single_rank": single_rank,
        "union_hit": covered == end - start,
        "covered_chars": covered,
    }


def question_hits(evidence, ranking, corpus, k=5):
    check_corpus(corpus)
    check_span(evidence, corpus)
    check_ranking(ranking, corpus)
    check_k(k)
    return count_hits(evidence, ranking, k)


def evaluate(questions, rankings, corpus, k=5):
    evidence = evidence_index(questions, corpus)
    check_k(k)
    if not isinstance(rankings, dict) or set(rankings) != set(evidence):
        # Een ontbrekende ranking is geen lege; een ranking voor een onbekende vraag is net zo fout.
        raise ValueError("rankings heeft precies één ranking per vraag-id")
    single_hits = 0
    union_hits = 0
    reciprocal_sum = 0.0
    for question_id, span in evidence.items():
        # Het corpus is al gecontroleerd (evidence_index): alleen de ranking nog.
        check_ranking(rankings[question_id], corpus)
        hits = count_hits(span, rankings[question_id], k)
        if hits["single_rank"] is not None:
            single_hits += 1
            reciprocal_sum += 1 / hits["single_rank"]
        if hits["union_hit"]:
            union_hits += 1
    count = len(evidence)
    return {
        "questions": count,
        "k": k,
        "single_hit_at_k": single_hits / count,
        "union_hit_at_k": union_hits / count,
        "single_mrr_at_k": reciprocal_sum / count,
    }
