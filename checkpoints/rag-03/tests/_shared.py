"""Inputs shared by the rag-03 tests: the lesson's two worked examples, the rules every checkpoint
applies to its corpus and spans, and seeded generators of corpora, questions and rankings.

Loaded by runner.core.bundle with `reference` (this lesson's solution.py) already defined. Everything
here runs in the trusted grading process; generated expected values come from `reference`.
"""

import math

TUTORIAL_CORPUS = {"manual-v1": "AA BBBB CC", "other-v1": "AA BBBB CC"}
TUTORIAL_QUESTIONS = [{"id": "q1", "question": "Wat staat er in het midden?", "evidence": ["manual-v1", 3, 7], "quote": "BBBB"}]
TUTORIAL_RANKINGS = {"q1": [["other-v1", 0, 10], ["manual-v1", 0, 5], ["manual-v1", 5, 10]]}

LAMP_V1 = "Houd de knop tien seconden vast. De lamp brandt groen na reset."
LAMP_V2 = "Houd de knop vijf seconden vast. De lamp brandt rood na reset."
LAMP_CORPUS = {"lamp-v1": LAMP_V1, "lamp-v2": LAMP_V2}
LAMP_EVIDENCE = {"q1": ["lamp-v1", 13, 26], "q2": ["lamp-v1", 41, 62], "q3": ["lamp-v1", 33, 53], "q4": ["lamp-v1", 33, 40]}
LAMP_TEXTS = {"q1": "Hoe lang houd je de knop vast?", "q2": "Wat doet de lamp na een reset?",
              "q3": "Welke kleur heeft de lamp?", "q4": "Waarover gaat de tweede zin?"}
LAMP_RANKINGS = {
    "q1": [["lamp-v2", 0, 32], ["lamp-v1", 0, 32]],
    "q2": [["lamp-v1", 33, 48], ["lamp-v1", 48, 63]],
    "q3": [["lamp-v1", 33, 63]],
    "q4": [],
}

# Added to a rule's message when valid input is accepted but the answer differs: the rule itself
# held, so the message must not suggest it was broken.
ACCEPTED_BUT_WRONG = " Je functie neemt zo'n invoer terecht aan, maar de uitkomst klopt dan niet."

# In the order of the task text, for messages.
RESULT_ORDER = ("questions", "k", "single_hit_at_k", "union_hit_at_k", "single_mrr_at_k")
HITS_ORDER = ("single_rank", "union_hit", "covered_chars")
RESULT_KEYS = set(RESULT_ORDER)
HITS_KEYS = set(HITS_ORDER)


def shape_problem(result, order, function):
    """Why result is not a dict with exactly the keys in order, in one Dutch sentence, or None when
    it is. Names the keys (the task lists them), never a value of the input."""
    keys = set(order)
    wanted = f"{function} geeft een dict met precies {', '.join(order[:-1])} en {order[-1]}"
    if result is None:
        return f"{function} gaf None terug: geef de dict terug met return (print laat hem alleen zien), ook als er niets gevonden is."
    if type(result) is not dict:
        return f"{wanted}, geen {type(result).__name__}."
    missing = [key for key in order if key not in result]
    extra = sorted(str(key) for key in result if key not in keys)
    parts = []
    if missing:
        parts.append(f"{', '.join(missing)} {'ontbreekt' if len(missing) == 1 else 'ontbreken'}")
    if extra:
        parts.append(f"{', '.join(extra)} {'hoort' if len(extra) == 1 else 'horen'} er niet bij")
    return f"{wanted}: {'; '.join(parts)}." if parts else None


def differing_keys(actual, expected):
    """' Het verschil zit in covered_chars.' for two dicts with the same keys; '' otherwise. Only
    the name of the key, so a hidden test still shows no expected value."""
    if type(actual) is not dict or type(expected) is not dict or set(actual) != set(expected):
        return ""
    keys = []
    for key, wanted in expected.items():
        got = actual[key]
        if same_result({key: got}, {key: wanted}):
            continue
        # 1 for True or 0 for 0.0: the value is right, its type is not; say that, not only the name.
        wrong_type = type(got) is not type(wanted) and got == wanted
        keys.append(f"{key} (een {type(got).__name__}, geen {type(wanted).__name__})" if wrong_type else key)
    if not keys:
        return ""
    names = keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} en {keys[-1]}"
    return f" Het verschil zit in {names}."


def question(question_id, evidence, corpus, text="Wat staat hier?"):
    version, start, end = evidence
    return {"id": question_id, "question": text, "evidence": list(evidence), "quote": corpus[version][start:end]}


def lamp_questions():
    return [question(qid, span, LAMP_CORPUS, LAMP_TEXTS[qid]) for qid, span in LAMP_EVIDENCE.items()]


def lamp_rankings():
    return {qid: [list(span) for span in ranking] for qid, ranking in LAMP_RANKINGS.items()}


def corpus_rule_cases():
    return generated_cases('corpus_rule_cases', _corpus_rule_cases)


def _corpus_rule_cases():
    """(message, corpus, valid): each corpus rule on both sides of its limits. Every checkpoint
    validates its corpus, so each one runs all of these (the question/evidence is [v, 0, 1])."""
    return [
        ("Een corpus is een dict: een list van teksten moet een ValueError geven.", ["v tekst"], False),
        ("Een corpus is een dict: None moet een ValueError geven.", None, False),
        ("Een corpus heeft minstens één versie: een leeg corpus moet een ValueError geven.", {}, False),
        ("Een corpus met één versie mag.", {"v": "tekst"}, True),
        ("Een corpus heeft hoogstens 1000 versies: 1000 mag.", dict({"v": "tekst"}, **{f"x{i}": "t" for i in range(999)}), True),
        ("Een corpus heeft hoogstens 1000 versies: 1001 moet een ValueError geven.", dict({"v": "tekst"}, **{f"x{i}": "t" for i in range(1000)}), False),
        ("Een versie-id telt hoogstens 80 tekens: 80 mag.", {"v": "tekst", "a" * 80: "t"}, True),
        ("Een versie-id telt hoogstens 80 tekens: 81 moet een ValueError geven.", {"v": "tekst", "a" * 81: "t"}, False),
        ("Een versie-id is niet leeg.", {"v": "tekst", "": "t"}, False),
        ("Een versie-id mag letters, cijfers en _ . : - bevatten.", {"v": "tekst", "Az09_.:-": "t"}, True),
        ("Een versie-id mag met een leesteken beginnen en alleen uit _ . : - bestaan.", {"v": "tekst", "-.:_": "t"}, True),
        ("Een versie-id met een spatie moet een ValueError geven.", {"v": "tekst", "man v1": "t"}, False),
        ("Een versie-id met een slash moet een ValueError geven.", {"v": "tekst", "man/v1": "t"}, False),
        ("Een versie-id met een regeleinde aan het eind moet een ValueError geven.", {"v": "tekst", "v2\n": "t"}, False),
        ("Een versie-id met een letter buiten A-Z moet een ValueError geven.", {"v": "tekst", "café": "t"}, False),
        # [A-z] is een bekende tikfout voor [A-Za-z]: die laat ook [ \ ] ^ _ en ` door.
        ("Een versie-id met een teken tussen Z en a, zoals ^, moet een ValueError geven.", {"v": "tekst", "v^1": "t"}, False),
        ("Een tekst is niet leeg: een lege tekst moet een ValueError geven.", {"v": "tekst", "w": ""}, False),
        ("Een tekst is niet leeg, maar alleen spaties is wel een tekst.", {"v": "tekst", "w": "   "}, True),
        ("Een tekst telt hoogstens 200000 tekens: 200000 mag.", {"v": "tekst", "w": "x" * 200000}, True),
        ("Een tekst telt hoogstens 200000 tekens: 200001 moet een ValueError geven.", {"v": "tekst", "w": "x" * 200001}, False),
        ("Een tekst telt codepunten: 200000 emoji mogen.", {"v": "tekst", "w": "😀" * 200000}, True),
        ("Een tekst is een str: None moet een ValueError geven.", {"v": "tekst", "w": None}, False),
        ("Een tekst is een str: een list moet een ValueError geven.", {"v": "tekst", "w": ["t"]}, False),
    ]


def span_rule_cases():
    return generated_cases('span_rule_cases', _span_rule_cases)


def _span_rule_cases():
    """(message, span, valid) in the corpus {"v": "tekst", "w": "tekst"}: each span rule."""
    return [
        ("Een span is een list van drie: twee waarden moeten een ValueError geven.", ["v", 0], False),
        ("Een span is een list van drie: vier waarden moeten een ValueError geven.", ["v", 0, 1, 2], False),
        ("Een span is een list, geen dict.", {"version": "v", "start": 0, "end": 1}, False),
        ("Een span is een list, geen str.", "v:0:1", False),
        ("Een span is een list: None moet een ValueError geven.", None, False),
        ("Een span is een list: een getal moet een ValueError geven.", 5, False),
        ("Een span wijst naar een versie uit het corpus: een onbekende versie moet een ValueError geven.", ["x", 0, 1], False),
        ("Een versie is een str: een getal moet een ValueError geven.", [0, 0, 1], False),
        ("Een versie is een str: een list moet een ValueError geven.", [["v"], 0, 1], False),
        ("start is minstens 0: -1 moet een ValueError geven.", ["v", -1, 1], False),
        ("start ligt voor end: een lege span moet een ValueError geven.", ["v", 2, 2], False),
        ("start ligt voor end: een omgekeerde span moet een ValueError geven.", ["v", 3, 2], False),
        ("end is hoogstens de lengte van de tekst: end = lengte mag.", ["v", 0, 5], True),
        ("end is hoogstens de lengte van de tekst: lengte + 1 moet een ValueError geven.", ["v", 4, 6], False),
        ("start = lengte - 1 en end = lengte is het laatste teken en mag.", ["v", 4, 5], True),
        ("start is een exacte int: False moet een ValueError geven.", ["v", False, 1], False),
        ("end is een exacte int: True moet een ValueError geven.", ["v", 0, True], False),
        ("start is een exacte int: True moet een ValueError geven, ook waar 1 mag.", ["v", True, 3], False),
        ("start is een exacte int: 1.0 moet een ValueError geven, ook waar 1 mag.", ["v", 1.0, 3], False),
        ("end is een exacte int: 3.0 moet een ValueError geven, ook waar 3 mag.", ["v", 1, 3.0], False),
        ("start is een exacte int: 0.0 moet een ValueError geven.", ["v", 0.0, 1], False),
        ("end is een exacte int: 5.0 moet een ValueError geven.", ["v", 0, 5.0], False),
        ("start is een exacte int: tekst moet een ValueError geven.", ["v", "0", 1], False),
        ("end is een exacte int: None moet een ValueError geven.", ["v", 0, None], False),
    ]


SPAN_CORPUS = {"v": "tekst", "w": "tekst"}


def quote_for(span):
    """The text of span in SPAN_CORPUS where Python can slice it, so that an invalid span is
    refused for its own rule and never only for a quote that cannot match."""
    try:
        return SPAN_CORPUS[span[0]][span[1]:span[2]]
    except (KeyError, IndexError, TypeError):
        return "t"


# --- seeded generators -----------------------------------------------------------------------------

WORDS = ["lamp", "knop", "reset", "groen", "rood", "tien", "vijf", "seconden", "café", "😀", "naïef", "𝔘𝔫𝔦", "x"]


def random_text(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)) + rng.choice(["", ".", " ", "\n"])


def random_corpus(rng, versions=None):
    """Versions in pairs (v1, v2) that share most of their text, as real document versions do."""
    count = versions or rng.randint(1, 5)
    corpus = {}
    for index in range(count):
        text = random_text(rng, rng.randint(1, 30))
        corpus[f"doc{index}-v1"] = text
        if rng.random() < 0.6:
            corpus[f"doc{index}-v2"] = text if rng.random() < 0.5 else text + " extra"
    return corpus


def random_span(rng, corpus, version=None):
    version = version or rng.choice(sorted(corpus))
    length = len(corpus[version])
    start = rng.randrange(length)
    return [version, start, rng.randint(start + 1, length)]


def random_ranking(rng, corpus, evidence, length=None):
    """Spans near the evidence (containing it, touching it, leaving gaps) and elsewhere, unique."""
    version, start, end = evidence
    text_length = len(corpus[version])
    candidates = []
    for _ in range(length if length is not None else rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.45:
            low = rng.randint(max(0, start - 4), end - 1)
            span = [version, low, rng.randint(low + 1, min(text_length, end + 4))]
        elif roll < 0.6:
            # The same positions in another version: the same words, never the evidence.
            others = [name for name in sorted(corpus) if name != version and end <= len(corpus[name])]
            span = [rng.choice(others), start, end] if others else random_span(rng, corpus)
        else:
            span = random_span(rng, corpus)
        if span not in candidates:
            candidates.append(span)
    return candidates


def random_case(rng, questions=None):
    """(questions, rankings, corpus) of a valid test set."""
    corpus = random_corpus(rng)
    items = []
    rankings = {}
    for index in range(questions or rng.randint(1, 8)):
        evidence = random_span(rng, corpus)
        qid = f"q{index}"
        items.append(question(qid, evidence, corpus, rng.choice(["Wat?", " Hoe lang? ", "Welke kleur?"])))
        rankings[qid] = random_ranking(rng, corpus, evidence)
    return items, rankings, corpus


_GENERATED_CASES = {}


def generated_cases(key, build):
    """build() -> a list of cases, run once per grading process for each key."""
    if key not in _GENERATED_CASES:
        _GENERATED_CASES[key] = build()
    return _GENERATED_CASES[key]


def outcome_of(call):
    try:
        return "value", call()
    except ValueError:
        return "ValueError", None


def same_result(actual, expected):
    """Exact equality with exact types, except that a mean of floats may differ in its last bits
    (a sum in another order, math.fsum, statistics.fmean all are the mean the lesson defines)."""
    if type(actual) is not dict or type(expected) is not dict or set(actual) != set(expected):
        return actual == expected and type(actual) is type(expected)
    for key, wanted in expected.items():
        got = actual[key]
        if type(got) is not type(wanted):
            return False
        if type(wanted) is float:
            if not math.isclose(got, wanted, rel_tol=1e-12, abs_tol=1e-15):
                return False
        elif got != wanted:
            return False
    return True


def expect_outcome(learner_call, outcome, message):
    from runner.core.testkit import expect_value_error, fail, returns

    kind, expected = outcome
    if kind == "ValueError":
        with expect_value_error(message):
            learner_call()
    elif not same_result(returns(learner_call, message), expected):
        fail(message)


# --- rules of checkpoint 1 that checkpoint 3 applies too -------------------------------------------

_FROM_SOURCE = object()


def _q(question_id="q1", text="Wat staat hier?", evidence=("lamp-v1", 33, 40), quote=_FROM_SOURCE):
    version, start, end = evidence
    return {"id": question_id, "question": text, "evidence": list(evidence),
            "quote": LAMP_CORPUS[version][start:end] if quote is _FROM_SOURCE else quote}


def question_rule_cases():
    return generated_cases('question_rule_cases', _question_rule_cases)


def _question_rule_cases():
    """(message, questions, valid) in LAMP_CORPUS: each rule for the list and its questions."""
    good = _q()
    without = {key: [{k: v for k, v in good.items() if k != key}] for key in good}
    other_name = {"id": "ID", "question": "vraag", "evidence": "bewijs", "quote": "citaat"}
    renamed = {key: [{other_name[key] if k == key else k: v for k, v in good.items()}] for key in good}
    return [
        ("questions is een list: één vraag (een dict) moet een ValueError geven.", good, False),
        ("questions is een list: None moet een ValueError geven.", None, False),
        ("questions is een list: een getal moet een ValueError geven.", 3, False),
        ("questions heeft minstens één vraag: een lege list moet een ValueError geven.", [], False),
        ("questions heeft hoogstens 1000 vragen: 1000 mag.", [_q(f"q{i}") for i in range(1000)], True),
        ("questions heeft hoogstens 1000 vragen: 1001 moet een ValueError geven.", [_q(f"q{i}") for i in range(1001)], False),
        ("Een vraag is een dict: een list moet een ValueError geven.", [list(good.values())], False),
        ("Een vraag zonder id moet een ValueError geven.", without["id"], False),
        ("Een vraag zonder question moet een ValueError geven.", without["question"], False),
        ("Een vraag zonder evidence moet een ValueError geven.", without["evidence"], False),
        ("Een vraag zonder quote moet een ValueError geven.", without["quote"], False),
        ("Een vraag met een extra sleutel moet een ValueError geven.", [dict(good, answer="groen")], False),
        # Vier sleutels, maar één met een andere naam: wie alleen len(vraag) == 4 controleert, mist dit.
        ("Een vraag met ID in plaats van id moet een ValueError geven.", renamed["id"], False),
        ("Een vraag met vraag in plaats van question moet een ValueError geven.", renamed["question"], False),
        ("Een vraag met bewijs in plaats van evidence moet een ValueError geven.", renamed["evidence"], False),
        ("Een vraag met citaat in plaats van quote moet een ValueError geven.", renamed["quote"], False),
        ("Een vraag-id telt 1 tot en met 40 tekens: 40 mag.", [_q("x" * 40)], True),
        ("Een vraag-id telt 1 tot en met 40 tekens: 41 moet een ValueError geven.", [_q("x" * 41)], False),
        ("Een vraag-id is niet leeg.", [_q("")], False),
        ("Een vraag-id van één teken mag.", [_q("q")], True),
        ("Een vraag-id mag letters, cijfers, _ en - bevatten.", [_q("Az09_-")], True),
        ("Een vraag-id mag met _ of - beginnen en alleen uit _ en - bestaan.", [_q("-_")], True),
        ("Een vraag-id mag geen punt bevatten (een versie-id wel).", [_q("q.1")], False),
        ("Een vraag-id mag geen dubbele punt bevatten (een versie-id wel).", [_q("q:1")], False),
        ("Een vraag-id bevat alleen de letters A-Z en a-z: een é moet een ValueError geven.", [_q("vraag-é")], False),
        ("Een vraag-id met een teken tussen Z en a, zoals ^, moet een ValueError geven.", [_q("q^1")], False),
        ("Een vraag-id met een regeleinde aan het eind moet een ValueError geven.", [_q("q1\n")], False),
        ("Een vraag-id is een str: een getal moet een ValueError geven.", [_q(7)], False),
        ("Een vraag-id komt één keer voor: twee keer hetzelfde id moet een ValueError geven.", [_q("q1"), _q("q1", evidence=("lamp-v1", 0, 4))], False),
        ("Vraag-ids tellen hoofdletters mee: q1 en Q1 zijn twee verschillende ids.", [_q("q1"), _q("Q1", evidence=("lamp-v1", 0, 4))], True),
        ("Een vraagtekst is na strip() niet leeg: alleen spaties moet een ValueError geven.", [_q(text="  \n\t")], False),
        ("Een vraagtekst is na strip() niet leeg: ook Unicode-witruimte telt als leeg.", [_q(text="\u3000\xa0")], False),
        ("Een vraagtekst is niet leeg.", [_q(text="")], False),
        ("Een vraagtekst met spaties eromheen mag.", [_q(text="  Wat?  ")], True),
        ("Een vraagtekst is een str: None moet een ValueError geven.", [_q(text=None)], False),
        ("Het citaat is precies de tekst op die plek: een ander woord moet een ValueError geven.", [_q(quote="De knop")], False),
        ("Het citaat wordt niet gestript: een spatie erachter moet een ValueError geven.", [_q(quote="De lamp ")], False),
        ("Het citaat telt hoofdletters mee: kleine letters moeten een ValueError geven.", [_q(quote="de lamp")], False),
        ("Het citaat is een str: None moet een ValueError geven.", [_q(quote=None)], False),
        ("Het citaat van de verkeerde versie: dezelfde plek in lamp-v2 is een andere tekst.", [_q(evidence=("lamp-v1", 13, 17), quote=LAMP_V2[13:17])], False),
        ("Dezelfde tekst in een andere versie is een geldig bewijs voor die versie.", [_q(evidence=("lamp-v2", 33, 40))], True),
        ("Een citaat van één teken aan het eind van de tekst mag.", [_q(evidence=("lamp-v1", 62, 63))], True),
        ("Een bewijs dat voorbij de tekst loopt moet een ValueError geven.", [dict(_q(), evidence=["lamp-v1", 60, 64], quote="et.")], False),
        ("Een bewijs dat een tuple-achtige list van twee is moet een ValueError geven.", [dict(_q(), evidence=["lamp-v1", 33])], False),
        ("Een bewijs met start als float moet een ValueError geven.", [dict(_q(), evidence=["lamp-v1", 33.0, 40])], False),
        ("Een bewijs met end als bool moet een ValueError geven.", [dict(_q(evidence=("lamp-v1", 0, 1)), evidence=["lamp-v1", 0, True])], False),
        ("Een bewijs met start als bool moet een ValueError geven.", [dict(_q(evidence=("lamp-v1", 0, 4)), evidence=["lamp-v1", False, 4])], False),
        ("Een bewijs met end als float moet een ValueError geven.", [dict(_q(), evidence=["lamp-v1", 33, 40.0])], False),
        ("Een bewijs in een versie die niet in het corpus staat moet een ValueError geven.", [dict(_q(), evidence=["lamp-v3", 33, 40])], False),
        ("Een bewijs met start -1 moet een ValueError geven.", [dict(_q(), evidence=["lamp-v1", -1, 40], quote="")], False),
    ]


# Dezelfde letters in twee Unicode-vormen: é als één codepunt (NFC) of als e plus accentteken (NFD),
# en de ligatuur ﬁ (één codepunt) naast f en i. Er wordt nergens genormaliseerd.
NORMALISATION_CORPUS = {"cafe-v1": "Het café is open.", "cafe-v2": "Het cafe\u0301 is open.", "fiets-v1": "Een \ufb01ets."}


def quote_normalisation_cases():
    """(message, question, valid) in NORMALISATION_CORPUS: the quote is compared code point by code
    point, never after unicodedata.normalize (NFC, NFD or NFKC)."""
    def item(evidence, quote):
        return {"id": "n1", "question": "Wat is open?", "evidence": list(evidence), "quote": quote}
    return [
        ("Een citaat met precies dezelfde codepunten als de bron mag.", item(["cafe-v1", 4, 8], "caf\u00e9"), True),
        ("Het citaat wordt niet genormaliseerd: é als e plus accentteken is een andere tekst dan é als één teken.",
         item(["cafe-v1", 4, 8], "cafe\u0301"), False),
        ("Een bron met e plus accentteken blijft zoals hij is: een citaat met dezelfde codepunten mag.",
         item(["cafe-v2", 4, 9], "cafe\u0301"), True),
        ("Het citaat wordt niet genormaliseerd: é als één teken past niet op e plus accentteken in de bron.",
         item(["cafe-v2", 4, 9], "caf\u00e9"), False),
        ("Een citaat met de ligatuur ﬁ uit de bron mag.", item(["fiets-v1", 4, 8], "\ufb01ets"), True),
        ("Het citaat wordt niet genormaliseerd: f en i zijn niet de ligatuur ﬁ uit de bron.", item(["fiets-v1", 4, 8], "fiets"), False),
    ]


def ranking_rule_cases():
    return generated_cases('ranking_rule_cases', _ranking_rule_cases)


def _ranking_rule_cases():
    """(message, ranking, valid) for the evidence ["lamp-v1", 41, 62] in LAMP_CORPUS, k = 2."""
    near = [["lamp-v1", 33, 48], ["lamp-v1", 48, 63]]
    full = [[version, start, start + 1 + length] for version in ("lamp-v1", "lamp-v2")
            for start in range(50) for length in range(10)]
    return [
        ("Een ranking is een list: None (geen ranking) moet een ValueError geven.", None, False),
        ("Een ranking is een list: een dict moet een ValueError geven.", {"0": ["lamp-v1", 0, 5]}, False),
        ("Een ranking is een list van spans: één losse span [versie, start, end] is geen ranking.", ["lamp-v1", 41, 62], False),
        ("Een ranking heeft hoogstens 1000 spans: 1000 mag.", full, True),
        ("Een ranking heeft hoogstens 1000 spans: 1001 moet een ValueError geven.", full + [["lamp-v1", 0, 63]], False),
        # Beide binnen k=2: wie alleen de eerste k controleert, ziet het volgende geval falen, met "voorbij k".
        ("Dezelfde span twee keer in een ranking moet een ValueError geven.", [near[0], near[0], near[1]], False),
        ("Dezelfde span twee keer, ook voorbij k, moet een ValueError geven.", near + [["lamp-v2", 0, 3], ["lamp-v2", 0, 3]], False),
        ("Dezelfde plek in een andere versie is geen dubbele span.", near + [["lamp-v2", 33, 48]], True),
        ("Een ongeldige span voorbij k moet ook een ValueError geven.", near + [["lamp-v1", 60, 64]], False),
        ("Een span voorbij k in een onbekende versie moet een ValueError geven.", near + [["lamp-v9", 0, 1]], False),
        ("Een span voorbij k met end als float moet een ValueError geven.", near + [["lamp-v2", 0, 3.0]], False),
        ("Een span voorbij k met start als bool moet een ValueError geven.", near + [["lamp-v2", False, 3]], False),
        ("Een lege span in de ranking moet een ValueError geven.", [["lamp-v1", 41, 41]], False),
        ("Een span die tot het eind van lamp-v2 loopt mag; lamp-v2 is één teken korter.", [["lamp-v2", 0, 62]], True),
        ("Een span tot voorbij het eind van lamp-v2 moet een ValueError geven, ook al past die in lamp-v1.", [["lamp-v2", 0, 63]], False),
        ("Een span die een str is moet een ValueError geven.", ["lamp-v1:0:5"], False),
        ("Een span van vier waarden moet een ValueError geven.", [["lamp-v1", 0, 5, 1]], False),
    ]


K_CASES = [(0, False), (1, True), (2, True), (99, True), (100, True), (101, False), (-1, False),
           (True, False), (2.0, False), ("2", False), (None, False)]
