"""Tests for checkpoint 2, cap_per_document(candidates, slots=6).

`reference` and `shared` are injected by runner.core.bundle. Candidates are written out or made by
the reference's merge_routes, never by the learner's, so this checkpoint is graded on its own.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_no_mutation,
    expect_value_error,
    fail,
    returns,
    signature,
    test,
)

SIGNATURE = signature("cap_per_document(candidates, slots=6)", CallShape(1), CallShape(2), CallShape(1, ("slots",)))
CHECKPOINT = "cap_per_document"


def example_candidates():
    return reference.merge_routes(shared.example_keyword(), shared.example_semantic())


def capped_ids(learner, candidates, slots, message):
    result = returns(lambda: learner.cap_per_document(candidates, slots), message)
    if type(result) is not list or not all(type(item) is dict and "id" in item for item in result):
        expect_equal(result, reference.cap_per_document(candidates, slots), message, show=False)
    return shared.ids(result)


def expect_ids(learner, candidates, slots, expected, message):
    expect_equal(capped_ids(learner, candidates, slots, message), expected, message, show=False)


def rejects(learner, message, candidates, slots=6):
    with expect_value_error(message):
        learner.cap_per_document(candidates, slots)


def document_run(document_id, numbers):
    return [shared.candidate(document_id, n, ["semantic"]) for n in numbers]


# First, before the examples (see merge_routes.py).
@test(CHECKPOINT, "geen geheugen tussen aanroepen")
def no_memory_between_calls(learner):
    other = document_run("avg", [1, 2, 3, 4]) + document_run("bw", [0])
    shared.expect_no_memory("cap_per_document", lambda: learner.cap_per_document(example_candidates(), 4),
                            lambda: learner.cap_per_document(other, 6))


@test(CHECKPOINT, "voorbeeld: 4 plaatsen", visible=True)
def example_four(learner):
    candidates = example_candidates()
    expect_equal(learner.cap_per_document(candidates, 4), [candidates[i] for i in (0, 1, 2, 6)],
                 "Met 4 plaatsen houd je huur:3, avg:14, huur:4 en bw:1 over.")


@test(CHECKPOINT, "voorbeeld: 6 plaatsen", visible=True)
def example_six(learner):
    candidates = example_candidates()
    expect_equal(learner.cap_per_document(candidates, 6), [candidates[i] for i in (0, 1, 2, 3, 6, 7)],
                 "Met 6 plaatsen houd je huur:3, avg:14, huur:4, huur:7, bw:1 en avg:15 over.")


@test(CHECKPOINT, "zonder slots: 6 plaatsen")
def default_slots(learner):
    candidates = example_candidates()
    result = returns(lambda: learner.cap_per_document(candidates), "Zonder slots gebruik je 6 plaatsen.")
    # Only a difference with the learner's own answer for 6 is the default's fault.
    with_six = returns(lambda: learner.cap_per_document(candidates, 6), "6 plaatsen mag.")
    expect_equal(result, with_six, "Zonder slots gebruik je 6 plaatsen.", show=False)
    expect_equal(shared.ids(result) if type(result) is list else result, ["huur:3", "avg:14", "huur:4", "huur:7", "bw:1", "avg:15"],
                 "Met 6 plaatsen houd je van het voorbeeld huur:3, avg:14, huur:4, huur:7, bw:1 en avg:15 over.", show=False)


@test(CHECKPOINT, "een vraag over één document verliest niets")
def single_document(learner):
    candidates = document_run("huur", [3, 7, 8, 2, 5, 1])
    expect_ids(learner, candidates, 4, ["huur:3", "huur:7", "huur:8", "huur:2"],
               "Zijn alle kandidaten van één document, dan vult ronde 2 de plaatsen die het plafond vrijliet met de eerstvolgende kandidaten.")
    expect_ids(learner, candidates, 50, shared.ids(candidates), "Zijn er meer plaatsen dan kandidaten, dan blijven ze allemaal.")


@test(CHECKPOINT, "aanvullen in de oorspronkelijke volgorde")
def refill_order(learner):
    candidates = document_run("a", range(5)) + document_run("b", [0])
    expect_ids(learner, candidates, 4, ["a:0", "a:1", "a:2", "b:0"],
               "Ronde 2 neemt de beste overgeslagen kandidaten eerst, en het resultaat blijft in rangvolgorde.")
    candidates = document_run("a", range(5)) + document_run("b", [0]) + document_run("c", [0])
    expect_ids(learner, candidates, 6, ["a:0", "a:1", "a:2", "a:3", "b:0", "c:0"],
               "Ronde 2 loopt de overgeslagen kandidaten in hun volgorde af.")


@test(CHECKPOINT, "het plafond rondt naar beneden af")
def cap_rounds_down(learner):
    a = document_run("a", range(6))
    b = document_run("b", range(1))
    # 5 plaatsen: plafond 2, dus a:0 a:1 en b:0, en daarna twee aangevulde a's.
    expect_ids(learner, a + b, 5, ["a:0", "a:1", "a:2", "a:3", "b:0"],
               "Het plafond is slots // 2, naar beneden afgerond; vrije plaatsen vul je daarna aan.")
    mixed = document_run("a", range(4)) + document_run("b", range(4)) + document_run("c", range(4))
    expect_ids(learner, mixed, 5, ["a:0", "a:1", "b:0", "b:1", "c:0"],
               "Met 5 plaatsen krijgt een document er hoogstens 2 zolang andere documenten ze kunnen vullen.")
    expect_ids(learner, mixed, 7, ["a:0", "a:1", "a:2", "b:0", "b:1", "b:2", "c:0"],
               "Met 7 plaatsen krijgt een document er hoogstens 3 zolang andere documenten ze kunnen vullen.")


@test(CHECKPOINT, "het plafond is minstens 1")
def cap_at_least_one(learner):
    mixed = document_run("a", range(3)) + document_run("b", range(3))
    expect_ids(learner, mixed, 1, ["a:0"], "Met 1 plaats is het plafond 1, niet 0: de beste kandidaat blijft.")
    expect_ids(learner, mixed, 2, ["a:0", "b:0"], "Met 2 plaatsen is het plafond 1 per document.")
    expect_ids(learner, mixed, 3, ["a:0", "a:1", "b:0"], "Met 3 plaatsen is het plafond 1; de vrije plaats vul je met de beste overgeslagen.")
    expect_ids(learner, document_run("a", range(3)), 1, ["a:0"], "Met 1 plaats en één document blijft de beste kandidaat.")


@test(CHECKPOINT, "het plafond laat vallen, maar herschikt nooit")
def never_reorders(learner):
    candidates = document_run("a", [5, 6, 7, 8]) + document_run("b", [1]) + document_run("a", [9])
    expect_ids(learner, candidates, 4, ["a:5", "a:6", "a:7", "b:1"],
               "Een aangevulde kandidaat staat op zijn oorspronkelijke plek, niet achteraan.")
    candidates = [shared.candidate("a", 9), shared.candidate("b", 1, ["semantic"]), shared.candidate("a", 2, ["keyword", "semantic"])]
    expect_ids(learner, candidates, 6, ["a:9", "b:1", "a:2"], "Het plafond sorteert niet op chunk_number of document.")


@test(CHECKPOINT, "ronde 1 stopt bij een volle lijst")
def stops_when_full(learner):
    candidates = document_run("a", [0]) + document_run("b", [0]) + document_run("c", [0]) + document_run("d", [0])
    expect_ids(learner, candidates, 3, ["a:0", "b:0", "c:0"], "Zijn alle plaatsen bezet, dan neem je niets meer.")
    expect_ids(learner, [], 6, [], "Zonder kandidaten is het resultaat een lege list.")


@test(CHECKPOINT, "routes en velden blijven zoals ze waren")
def keeps_fields(learner):
    candidates = example_candidates()
    result = returns(lambda: learner.cap_per_document(candidates, 6), "Geldige kandidaten mogen geen ValueError geven.")
    expect_equal(result, reference.cap_per_document(candidates, 6), "Een gekozen kandidaat houdt zijn id, document_id, chunk_number en routes.", show=False)


@test(CHECKPOINT, "slots is een int van 1 tot en met 50")
def slots_rules(learner):
    candidates = example_candidates()
    expect_ids(learner, candidates, 50, shared.ids(candidates), "50 plaatsen mag.")
    for slots, message in (
        (0, "slots is minstens 1: 0 moet een ValueError geven."),
        (-1, "slots is minstens 1: -1 moet een ValueError geven."),
        (51, "slots is hoogstens 50: 51 moet een ValueError geven."),
        (True, "slots is een int: True moet een ValueError geven."),
        (6.0, "slots is een int: een float moet een ValueError geven."),
        ("6", "slots is een int: een str moet een ValueError geven."),
        (None, "slots is een int: None moet een ValueError geven."),
    ):
        rejects(learner, message, candidates, slots)
    rejects(learner, "slots wordt ook zonder kandidaten gecontroleerd.", [], 0)


@test(CHECKPOINT, "een kandidaat volgt de regels")
def candidate_rules(learner):
    for message, item, valid in shared.candidate_rule_cases():
        for candidates in ([item], [shared.candidate("z", 0), item]):
            if valid:
                expect_equal(returns(lambda: learner.cap_per_document(candidates, 6), message),
                             reference.cap_per_document(candidates, 6), message, show=False)
            else:
                rejects(learner, message, candidates)


@test(CHECKPOINT, "de lijst kandidaten")
def list_rules(learner):
    many = [shared.candidate(f"d{n % 50}", n) for n in range(400)]
    expect_equal(len(returns(lambda: learner.cap_per_document(many, 50), "400 kandidaten mag.")), 50,
                 "400 kandidaten mag, en 50 plaatsen geven 50 kandidaten.", show=False)
    rejects(learner, "401 kandidaten moet een ValueError geven.", many + [shared.candidate("d0", 400)])
    rejects(learner, "Hetzelfde id twee keer moet een ValueError geven.", [shared.candidate("d", 1), shared.candidate("d", 1, ["semantic"])])
    for value in (None, {}, "d:1", shared.candidate("d", 1)):
        rejects(learner, "candidates is een list: iets anders moet een ValueError geven.", value)


@test(CHECKPOINT, "nieuwe dicts, invoer ongemoeid")
def fresh_objects(learner):
    candidates = example_candidates()
    learner.cap_per_document(candidates, 4)
    expect_no_mutation(learner, "cap_per_document laat de kandidaten ongemoeid.")
    # The contract asks for new dicts and says nothing of the routes list inside them (rag-03's
    # contract does say "a new list" where it means it), so dict(candidate) is a correct copy.
    outcome = learner.last
    if outcome is None or any(len(path) <= 1 for path in outcome.aliased_paths):
        fail("cap_per_document geeft nieuwe dicts terug, niet de kandidaten uit de invoer.")
    # One document and 4 slots: ronde 2 runs too, and must not take its candidates out of the input.
    learner.cap_per_document(document_run("huur", [3, 7, 8, 2, 5, 1]), 4)
    expect_no_mutation(learner, "cap_per_document laat de kandidaten ongemoeid, ook als ronde 2 aanvult.")


@test(CHECKPOINT, "willekeurige kandidaten")
def generated(learner):
    for seed in range(12):
        rng = random.Random(100 + seed)
        candidates = shared.random_candidates(rng)
        slots = rng.randint(1, 12)
        expect_equal(returns(lambda: learner.cap_per_document(candidates, slots), "Geldige kandidaten mogen geen ValueError geven."),
                     reference.cap_per_document(candidates, slots),
                     "Voor willekeurige kandidaten klopt de keuze niet.", show=False)
