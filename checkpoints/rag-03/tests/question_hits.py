"""Tests for checkpoint 2, question_hits(evidence, ranking, corpus, k=5).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_new_objects,
    expect_no_mutation,
    expect_value_error,
    fail,
    returns,
    signature,
    test,
)

SIGNATURE = signature(
    "question_hits(evidence, ranking, corpus, k=5)",
    CallShape(3),
    CallShape(4),
    CallShape(3, ("k",)),
)

CHECKPOINT = "question_hits"
# The invalid span of a span rule stands at place 2 with k=1: say so, or a learner who checks only the
# top k reads a rule their code does check.
PAST_K = " Dat geldt ook voor een span voorbij k."
LAMP = shared.LAMP_CORPUS
Q2 = ["lamp-v1", 41, 62]


def hits_of(learner, message, *args, **kwargs):
    result = returns(lambda: learner.question_hits(*args, **kwargs), message)
    problem = shared.shape_problem(result, shared.HITS_ORDER, "question_hits")
    if problem:
        fail(problem)
    return result


def expect_hits(learner, message, expected, *args, **kwargs):
    result = hits_of(learner, message, *args, **kwargs)
    expect_equal(result, expected, message + shared.differing_keys(result, expected), show=False)


def rejects(learner, message, *args, **kwargs):
    with expect_value_error(message):
        learner.question_hits(*args, **kwargs)


def hits(rank, union, covered):
    return {"single_rank": rank, "union_hit": union, "covered_chars": covered}


# --- the lesson's worked examples (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: de vier lampvragen bij k=2", visible=True)
def example_lamp(learner):
    expected = {"q1": hits(2, True, 13), "q2": hits(None, True, 21), "q3": hits(1, True, 20), "q4": hits(None, False, 0)}
    got = {}
    for question_id, evidence in shared.LAMP_EVIDENCE.items():
        got[question_id] = hits_of(learner, "De lampvragen zijn geldig.", evidence, shared.LAMP_RANKINGS[question_id], LAMP, 2)
    expect_equal(got, expected, "De treffers van de lampvragen bij k=2 kloppen niet.")


@test(CHECKPOINT, "voorbeeld: dezelfde tekst in een andere versie", visible=True)
def example_tutorial(learner):
    expect_equal(
        hits_of(learner, "Het voorbeeld is geldig.", ["manual-v1", 3, 7], shared.TUTORIAL_RANKINGS["q1"], shared.TUTORIAL_CORPUS, 3),
        hits(None, True, 4),
        "Het eerste resultaat staat in other-v1 en telt niet; de andere twee dekken BBBB samen.",
    )


# --- counting ---------------------------------------------------------------------------------


@test(CHECKPOINT, "geen geheugen tussen aanroepen")
def no_state_between_calls(learner):
    message = ("Dezelfde geldige aanroep twee keer geeft twee keer hetzelfde: onthoud niets tussen aanroepen "
               "(geen globale set of lijst, geen standaardwaarde als [] of set()).")
    # Spans no earlier test sent, so the first two calls are new; the last two repeat them.
    first, second = [["lamp-v1", 40, 50], ["lamp-v1", 50, 62]], [["lamp-v1", 30, 63]]
    got = [hits_of(learner, "Deze ranking is geldig.", Q2, ranking, LAMP, 2) for ranking in (first, second)]
    got += [hits_of(learner, message, Q2, ranking, LAMP, 2) for ranking in (first, second)]
    # Only blame memory when it shows: a repeat that differs, or the first answer again for other
    # spans. A wrong answer given the same way every time is left to the tests of its rule.
    if got[0] != got[2] or got[1] != got[3] or (got[0] == hits(None, True, 21) and got[1] == got[0]):
        fail(message)


@test(CHECKPOINT, "aansluitende spans dekken samen, een gat niet")
def touching_and_gapped(learner):
    expect_hits(learner, "[33, 48) en [48, 63) raken elkaar en dekken [41, 62) zonder gat.", hits(None, True, 21),
                Q2, [["lamp-v1", 48, 63], ["lamp-v1", 33, 48]], LAMP, 2)
    expect_hits(learner, "[33, 47) en [48, 63) laten teken 47 open: geen union hit, 20 tekens gedekt.", hits(None, False, 20),
                Q2, [["lamp-v1", 33, 47], ["lamp-v1", 48, 63]], LAMP, 2)
    expect_hits(learner, "Een gat aan het begin van het bewijs is ook een gat.", hits(None, False, 20),
                Q2, [["lamp-v1", 42, 63]], LAMP, 2)
    expect_hits(learner, "Een gat aan het eind van het bewijs is ook een gat.", hits(None, False, 20),
                Q2, [["lamp-v1", 30, 61]], LAMP, 2)


@test(CHECKPOINT, "een span naast het bewijs dekt niets")
def spans_beside(learner):
    # Elk met een gat aan die kant van het bewijs, zodat een span die buiten het bewijs ligt niet
    # ongemerkt meetelt (of tekens aftrekt) waar al alles gedekt is.
    expect_hits(learner, "Een span die pas na het bewijs begint, dekt er geen teken van.", hits(None, False, 5),
                ["lamp-v1", 33, 40], [["lamp-v1", 33, 38], ["lamp-v1", 45, 50]], LAMP)
    expect_hits(learner, "Een span die al voor het bewijs eindigt, dekt er geen teken van.", hits(None, False, 5),
                ["lamp-v1", 33, 40], [["lamp-v1", 35, 40], ["lamp-v1", 20, 28]], LAMP)


@test(CHECKPOINT, "overlappende spans tellen elk teken één keer")
def overlapping(learner):
    expect_hits(learner, "Overlappende spans tellen elk gedekt teken één keer.", hits(None, False, 15),
                Q2, [["lamp-v1", 41, 50], ["lamp-v1", 45, 56], ["lamp-v1", 44, 52]], LAMP, 5)
    expect_hits(learner, "Een span binnen een andere voegt niets toe.", hits(None, True, 21),
                Q2, [["lamp-v1", 41, 55], ["lamp-v1", 42, 44], ["lamp-v1", 50, 62]], LAMP, 5)
    expect_hits(learner, "Een span die al gedekte tekens herhaalt en verder loopt, telt alleen de nieuwe tekens.", hits(None, False, 14),
                Q2, [["lamp-v1", 40, 50], ["lamp-v1", 45, 55]], LAMP, 5)


@test(CHECKPOINT, "het hele bewijs in één span: grenzen meegeteld")
def containment_bounds(learner):
    expect_hits(learner, "Een span die precies het bewijs is, bevat het hele bewijs.", hits(1, True, 21), Q2, [["lamp-v1", 41, 62]], LAMP)
    expect_hits(learner, "Een span die één teken te laat begint, bevat het bewijs niet, maar dekt wel alle tekens op het eerste na.", hits(None, False, 20), Q2, [["lamp-v1", 42, 63]], LAMP)
    expect_hits(learner, "Een span die één teken te vroeg eindigt, bevat het bewijs niet, maar dekt wel alle tekens op het laatste na.", hits(None, False, 20), Q2, [["lamp-v1", 40, 61]], LAMP)
    expect_hits(learner, "De eerste span die het bewijs bevat, bepaalt de plek.", hits(2, True, 21),
                Q2, [["lamp-v1", 0, 10], ["lamp-v1", 40, 63], ["lamp-v1", 41, 62]], LAMP)


@test(CHECKPOINT, "andere versies tellen niet, maar nemen wel een plek in")
def other_versions(learner):
    expect_hits(learner, "Dezelfde tekst in een andere versie is geen treffer, ook niet samen met een goede span.", hits(None, False, 0),
                ["lamp-v1", 33, 40], [["lamp-v2", 33, 40], ["lamp-v2", 0, 62]], LAMP)
    expect_hits(learner, "Een span uit een andere versie vult geen gat.", hits(None, False, 14),
                Q2, [["lamp-v1", 33, 48], ["lamp-v2", 40, 55], ["lamp-v1", 55, 63]], LAMP)
    expect_hits(learner, "De plek telt alle spans mee, ook die uit een andere versie.", hits(3, True, 21),
                Q2, [["lamp-v2", 0, 62], ["lamp-v1", 0, 5], ["lamp-v1", 30, 63]], LAMP)
    expect_hits(learner, "Spans uit een andere versie tellen mee voor k: de eerste span uit de juiste versie op plek 3 valt bij k=2 weg.",
                hits(None, False, 0), Q2, [["lamp-v2", 0, 62], ["lamp-v2", 33, 48], ["lamp-v1", 30, 63]], LAMP, 2)
    corpus = {"a:1": "zelfde tekst", "a:2": "zelfde tekst", "b.1": "zelfde tekst"}
    expect_hits(learner, "Versies met precies dezelfde tekst blijven verschillende documenten.", hits(2, True, 5),
                ["a:2", 0, 5], [["a:1", 0, 12], ["a:2", 0, 12], ["b.1", 0, 12]], corpus, 3)


@test(CHECKPOINT, "alleen de eerste k spans tellen")
def only_top_k(learner):
    ranking = [["lamp-v1", 0, 5], ["lamp-v1", 33, 48], ["lamp-v1", 48, 63], ["lamp-v1", 41, 62]]
    expect_hits(learner, "Bij k=1 telt alleen de eerste span.", hits(None, False, 0), Q2, ranking, LAMP, 1)
    expect_hits(learner, "Bij k=2 telt de span op plek 3 nog niet mee.", hits(None, False, 7), Q2, ranking, LAMP, 2)
    expect_hits(learner, "Bij k=3 dekken de spans op plek 2 en 3 het bewijs samen.", hits(None, True, 21), Q2, ranking, LAMP, 3)
    expect_hits(learner, "Bij k=4 telt de span op plek 4 als treffer.", hits(4, True, 21), Q2, ranking, LAMP, 4)


@test(CHECKPOINT, "k voorbij het eind van de ranking")
def k_past_end(learner):
    ranking = [["lamp-v1", 0, 5], ["lamp-v1", 41, 62]]
    expect_hits(learner, "Een k groter dan de ranking telt gewoon alle spans.", hits(2, True, 21), Q2, ranking, LAMP, 100)
    expect_hits(learner, "k=3 bij twee spans telt beide.", hits(2, True, 21), Q2, ranking, LAMP, 3)


@test(CHECKPOINT, "k is standaard 5")
def default_k(learner):
    ranking = [["lamp-v1", start, start + 1] for start in range(5)] + [["lamp-v1", 41, 62]]
    expect_hits(learner, "Zonder k tellen de eerste 5 spans: een treffer op plek 6 telt niet.", hits(None, False, 0), Q2, ranking, LAMP)
    ranking = [["lamp-v1", start, start + 1] for start in range(4)] + [["lamp-v1", 41, 62]]
    expect_hits(learner, "Zonder k tellen de eerste 5 spans: een treffer op plek 5 telt.", hits(5, True, 21), Q2, ranking, LAMP)


@test(CHECKPOINT, "een lege ranking is een misser")
def empty_ranking(learner):
    result = hits_of(learner, "Een lege ranking is geldig: een zoekopdracht die niets vond.", Q2, [], LAMP)
    expect_equal(result, hits(None, False, 0), "Een lege ranking geeft single_rank None, union_hit False en 0 tekens.", show=False)


@test(CHECKPOINT, "exacte types in het resultaat")
def exact_types(learner):
    result = hits_of(learner, "Het lampvoorbeeld is geldig.", Q2, [["lamp-v1", 33, 63]], LAMP)
    if type(result["single_rank"]) is not int or type(result["union_hit"]) is not bool or type(result["covered_chars"]) is not int:
        fail("single_rank en covered_chars zijn ints, union_hit is een bool.")
    result = hits_of(learner, "Het lampvoorbeeld is geldig.", Q2, [["lamp-v1", 0, 5]], LAMP)
    if result["single_rank"] is not None or result["union_hit"] is not False or type(result["covered_chars"]) is not int:
        fail("Zonder treffer is single_rank None en union_hit False (geen 0).")


@test(CHECKPOINT, "invoer niet veranderd")
def no_mutation(learner):
    learner.question_hits(Q2, [["lamp-v1", 48, 63], ["lamp-v1", 33, 48]], LAMP, 2)
    expect_no_mutation(learner, "question_hits mag het bewijs, de ranking en het corpus niet veranderen (ook niet sorteren).")
    expect_new_objects(learner, "question_hits geeft een nieuwe dict terug.")


# --- the rules ------------------------------------------------------------------------------------


@test(CHECKPOINT, "k is een int van 1 tot en met 100")
def k_rules(learner):
    for k, valid in shared.K_CASES:
        message = f"k={k!r} {'mag' if valid else 'moet een ValueError geven'}."
        if valid:
            hits_of(learner, message, Q2, [], LAMP, k)
        else:
            rejects(learner, message, Q2, [], LAMP, k)
    rejects(learner, "k=101 als trefwoord moet een ValueError geven.", Q2, [], LAMP, k=101)


@test(CHECKPOINT, "elke span van de ranking wordt gecontroleerd")
def ranking_rules(learner):
    for message, ranking, valid in shared.ranking_rule_cases():
        if valid:
            expect_equal(hits_of(learner, message, Q2, ranking, LAMP, 2), reference.question_hits(Q2, ranking, LAMP, 2),
                         message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, Q2, ranking, LAMP, 2)


@test(CHECKPOINT, "het bewijs is een geldige span")
def evidence_rules(learner):
    for message, span, valid in shared.span_rule_cases():
        if valid:
            expect_equal(hits_of(learner, message, span, [], shared.SPAN_CORPUS), hits(None, False, 0), message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, span, [], shared.SPAN_CORPUS)


@test(CHECKPOINT, "elke span in de ranking is een geldige span")
def ranking_span_rules(learner):
    for message, span, valid in shared.span_rule_cases():
        if valid:
            returns(lambda: learner.question_hits(["w", 0, 1], [span], shared.SPAN_CORPUS), message)
        else:
            rejects(learner, message + PAST_K, ["w", 0, 1], [["w", 0, 5], span], shared.SPAN_CORPUS, 1)


@test(CHECKPOINT, "het corpus volgt de regels")
def corpus_rules(learner):
    for message, corpus, valid in shared.corpus_rule_cases():
        if valid:
            expect_equal(hits_of(learner, message, ["v", 0, 1], [["v", 0, 5]], corpus), hits(1, True, 1), message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, ["v", 0, 1], [["v", 0, 5]], corpus)


# --- generated rankings compared with the reference ----------------------------------------------


def _cases():
    rng = random.Random(505)
    cases = []
    for _ in range(40):
        corpus = shared.random_corpus(rng)
        evidence = shared.random_span(rng, corpus)
        ranking = shared.random_ranking(rng, corpus, evidence)
        k = rng.choice([1, 2, 3, 5, 10, 100])
        cases.append((evidence, ranking, corpus, k, shared.outcome_of(lambda: reference.question_hits(evidence, ranking, corpus, k))))
    return cases


@test(CHECKPOINT, "willekeurige rankings, vergeleken met de voorbeeldoplossing")
def property_random_rankings(learner):
    for evidence, ranking, corpus, k, outcome in shared.generated_cases("question_hits/505", _cases):
        shared.expect_outcome(lambda: learner.question_hits(evidence, ranking, corpus, k), outcome,
                              "Voor een gegenereerde ranking (met aansluitende, overlappende en andere-versie-spans) kloppen je treffers niet.")
