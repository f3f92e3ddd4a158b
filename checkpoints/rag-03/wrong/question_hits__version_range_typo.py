# after: solution.py
# caught by: het corpus volgt de regels
r"""Bewust foute oplossing voor question_hits: controleert het corpus met een eigen patroon voor versie-ids met [A-z] voor [A-Za-z], zodat ook [ \ ] ^ en ` erdoor komen.

De andere functies zijn goed; alleen checkpoint question_hits hoort te falen.
"""

LOOSE_VERSION_PATTERN = re.compile(r"[A-z0-9_.:-]{1,80}")


def question_hits(evidence, ranking, corpus, k=5):
    if not isinstance(corpus, dict) or not 1 <= len(corpus) <= MAX_VERSIONS:
        raise ValueError("corpus is een dict met 1 tot en met 1000 versies")
    for version, text in corpus.items():
        if not LOOSE_VERSION_PATTERN.fullmatch(version):
            raise ValueError("ongeldige versie-id")
        if not isinstance(text, str) or not 1 <= len(text) <= MAX_TEXT_LENGTH:
            raise ValueError("ongeldige tekst")
    check_span(evidence, corpus)
    check_ranking(ranking, corpus)
    check_k(k)
    return count_hits(evidence, ranking, k)
