"""Tests for checkpoint 3, hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10).

`reference` and `shared` are injected by runner.core.bundle. This checkpoint uses merge_routes and
cap_per_document (checkpoints.toml `uses`), so a mistake there may fail it too.
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
    same,
    signature,
    test,
)

SIGNATURE = signature(
    "hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10)",
    CallShape(3),
    CallShape(5),
    CallShape(3, ("slots", "budget")),
)
CHECKPOINT = "hybrid_context"
RESULT_KEYS = {"route", "results", "context"}


def context_of(learner, keyword, semantic, counts, slots, budget, message):
    result = returns(lambda: learner.hybrid_context(keyword, semantic, counts, slots, budget), message)
    if result is None:
        fail("hybrid_context gaf None: geef altijd een dict met precies de sleutels route, results en context.")
    if type(result) is not dict or set(result) != RESULT_KEYS:
        fail("hybrid_context geeft een dict met precies de sleutels route, results en context.")
    return result


def broken_context_rule(result, expected, counts, budget):
    """The message of a rule the learner's context visibly breaks, or None: a wrong context can
    then be blamed on what is really wrong, not on the rule the test was written for."""
    if result["results"] != expected["results"]:
        return "results zijn de ids die cap_per_document(merge_routes(...), slots) overhoudt, in hun volgorde."
    context = result["context"]
    if type(context) is not list or not all(type(item) is str and item.count(":") == 1 for item in context):
        return None
    if len(set(context)) != len(context):
        return "Elk fragment staat één keer in de context."
    if len(context) > budget:
        return "De context heeft hoogstens budget fragmenten."
    places = [item.split(":") for item in context]
    if not all(document_id in counts and number.isdigit() and int(number) < counts[document_id] for document_id, number in places):
        return "Een buur bestaat alleen binnen zijn document: het eerste fragment heeft geen vorige, het laatste geen volgende."
    allowed = set(expected["results"])
    for item in expected["results"]:
        document_id, number = item.split(":")
        allowed |= {f"{document_id}:{int(number) - 1}", f"{document_id}:{int(number) + 1}"}
    if not set(context) <= allowed:
        return "Alleen het vorige en het volgende fragment van een resultaat komen erbij, geen buren van buren."
    return None


def expect_context(learner, keyword, semantic, counts, slots, budget, expected, message):
    result = context_of(learner, keyword, semantic, counts, slots, budget, message)
    if not same(result, expected):
        fail(broken_context_rule(result, expected, counts, budget) or message)


def expect_like_reference(learner, keyword, semantic, counts, slots, budget, message, wrong_value_message=None):
    """message: the input is valid (a ValueError is wrong); wrong_value_message, when given, for a wrong answer."""
    expected = reference.hybrid_context(keyword, semantic, counts, slots, budget)
    result = context_of(learner, keyword, semantic, counts, slots, budget, message)
    if not same(result, expected):
        fail(broken_context_rule(result, expected, counts, budget) or wrong_value_message or message)


def rejects(learner, message, keyword, semantic, counts, slots=4, budget=6):
    with expect_value_error(message):
        learner.hybrid_context(keyword, semantic, counts, slots, budget)


def split(text):
    return text.split()


# First, before the examples (see merge_routes.py). The other question adds chunks of the
# example's documents, so remembered chunks would show up in the example's context.
@test(CHECKPOINT, "geen geheugen tussen aanroepen")
def no_memory_between_calls(learner):
    keyword, semantic, counts = shared.example_keyword(), shared.example_semantic(), shared.example_counts()
    shared.expect_no_memory("hybrid_context", lambda: learner.hybrid_context(keyword, semantic, counts, 4, 7),
                            lambda: learner.hybrid_context([shared.hit("huur", 8), shared.hit("avg", 5)], None, counts, 2, 6))


@test(CHECKPOINT, "voorbeeld: 4 plaatsen en budget 7", visible=True)
def example_hybrid(learner):
    expected = {"route": "hybrid", "results": split("huur:3 avg:14 huur:4 bw:1"),
                "context": split("huur:2 huur:3 huur:4 avg:13 avg:14 avg:15 bw:1")}
    expect_equal(learner.hybrid_context(shared.example_keyword(), shared.example_semantic(), shared.example_counts(), 4, 7),
                 expected, "De context van het voorbeeld klopt niet.")


@test(CHECKPOINT, "voorbeeld: budget 4", visible=True)
def example_budget_four(learner):
    expected = {"route": "hybrid", "results": split("huur:3 avg:14 huur:4 bw:1"), "context": split("huur:3 huur:4 avg:14 bw:1")}
    expect_equal(learner.hybrid_context(shared.example_keyword(), shared.example_semantic(), shared.example_counts(), 4, 4),
                 expected, "Met budget 4 is de context precies de vier resultaten, per document gegroepeerd.")


@test(CHECKPOINT, "voorbeeld: de semantische zoekweg valt uit", visible=True)
def example_keyword_only(learner):
    expected = {"route": "keyword_only", "results": split("huur:3 avg:14 huur:4"),
                "context": split("huur:2 huur:3 huur:4 avg:13 avg:14 avg:15")}
    expect_equal(learner.hybrid_context(shared.example_keyword(), None, shared.example_counts(), 4, 6),
                 expected, "Valt de semantische zoekweg uit, dan antwoord je met de trefwoordtreffers en zeg je dat.")


@test(CHECKPOINT, "voorbeeld: de trefwoordzoekweg valt uit", visible=True)
def example_semantic_only(learner):
    expected = {"route": "semantic_only", "results": split("huur:3 huur:7 bw:1 avg:15"),
                "context": split("huur:2 huur:3 huur:4 huur:7 bw:1 avg:15")}
    expect_equal(learner.hybrid_context(None, shared.example_semantic(), shared.example_counts(), 4, 6),
                 expected, "Valt de trefwoordzoekweg uit, dan antwoord je met de semantische treffers en zeg je dat.")


@test(CHECKPOINT, "results komen van het plafond")
def results_are_capped(learner):
    h = shared.hit
    semantic = [h("huur", n) for n in (3, 7, 8, 2, 5)]
    counts = {"huur": 10, "avg": 3}
    expect_context(learner, [h("avg", 1)], semantic, counts, 4, 4,
                   {"route": "hybrid", "results": ["avg:1", "huur:3", "huur:7", "huur:8"], "context": ["avg:1", "huur:3", "huur:7", "huur:8"]},
                   "results zijn de kandidaten die cap_per_document met slots overhoudt, in hun volgorde.")


@test(CHECKPOINT, "beide zoekwegen vallen uit")
def both_failed(learner):
    rejects(learner, "Vallen beide zoekwegen uit, dan is er geen antwoord: dat moet een ValueError geven.", None, None, shared.example_counts())
    rejects(learner, "Vallen beide zoekwegen uit, dan is er geen antwoord, ook zonder documenten.", None, None, {}, 1, 1)


@test(CHECKPOINT, "een lege lijst is geen uitgevallen zoekweg")
def empty_is_not_failed(learner):
    h = shared.hit
    counts = {"d": 3}
    expect_context(learner, [h("d", 1)], [], counts, 2, 3, {"route": "hybrid", "results": ["d:1"], "context": ["d:0", "d:1", "d:2"]},
                   "Een lege semantische lijst is een zoekweg die niets vond: de route blijft hybrid.")
    expect_context(learner, [], [h("d", 1)], counts, 2, 3, {"route": "hybrid", "results": ["d:1"], "context": ["d:0", "d:1", "d:2"]},
                   "Een lege trefwoordlijst is een zoekweg die niets vond: de route blijft hybrid.")
    expect_context(learner, [], [], counts, 2, 3, {"route": "hybrid", "results": [], "context": []},
                   "Vinden beide zoekwegen niets, dan is de route hybrid en zijn results en context leeg.")
    expect_context(learner, [], None, counts, 2, 3, {"route": "keyword_only", "results": [], "context": []},
                   "Valt de semantische zoekweg uit en vindt de trefwoordzoekweg niets, dan is de route keyword_only.")
    expect_context(learner, None, [], counts, 2, 3, {"route": "semantic_only", "results": [], "context": []},
                   "Valt de trefwoordzoekweg uit en vindt de semantische niets, dan is de route semantic_only.")


@test(CHECKPOINT, "een uitgevallen zoekweg is None, niets anders")
def only_none_fails(learner):
    for value in ({}, "", 0, False):
        rejects(learner, "Alleen None betekent een uitgevallen zoekweg: een ander leeg ding moet een ValueError geven.",
                value, shared.example_semantic(), shared.example_counts())
        rejects(learner, "Alleen None betekent een uitgevallen zoekweg: een ander leeg ding moet een ValueError geven.",
                shared.example_keyword(), value, shared.example_counts())


@test(CHECKPOINT, "buren aan het begin en eind van een document")
def neighbours_at_edges(learner):
    h = shared.hit
    counts = {"a": 5, "b": 1}
    expect_context(learner, [h("a", 0), h("a", 4), h("b", 0)], [], counts, 3, 10,
                   {"route": "hybrid", "results": ["a:0", "a:4", "b:0"], "context": ["a:0", "a:1", "a:3", "a:4", "b:0"]},
                   "Het eerste fragment heeft geen vorige, het laatste geen volgende, en een document van één fragment geen buren.")


@test(CHECKPOINT, "eerst het vorige fragment, dan het volgende")
def previous_before_next(learner):
    h = shared.hit
    expect_context(learner, [h("a", 5)], [], {"a": 10}, 1, 2, {"route": "hybrid", "results": ["a:5"], "context": ["a:4", "a:5"]},
                   "Is er nog plaats voor één buur, dan is dat het vorige fragment.")
    expect_context(learner, [h("a", 0)], [], {"a": 10}, 1, 2, {"route": "hybrid", "results": ["a:0"], "context": ["a:0", "a:1"]},
                   "Bestaat het vorige fragment niet, dan komt het volgende in die plaats.")


@test(CHECKPOINT, "buren in de volgorde van de resultaten")
def neighbours_follow_results(learner):
    h = shared.hit
    counts = {"a": 10, "b": 10}
    expect_context(learner, [h("b", 5), h("a", 5)], [], counts, 2, 4,
                   {"route": "hybrid", "results": ["b:5", "a:5"], "context": ["b:4", "b:5", "b:6", "a:5"]},
                   "Buren vul je aan in de volgorde van de resultaten: eerst beide buren van het eerste resultaat.")


@test(CHECKPOINT, "de budgetgrens")
def budget_boundary(learner):
    h = shared.hit
    keyword = [h("a", 2), h("b", 2), h("a", 6)]
    counts = {"a": 9, "b": 9}
    for budget, context in (
        (3, "a:2 a:6 b:2"),
        (4, "a:1 a:2 a:6 b:2"),
        (5, "a:1 a:2 a:3 a:6 b:2"),
        (7, "a:1 a:2 a:3 a:6 b:1 b:2 b:3"),
        (9, "a:1 a:2 a:3 a:5 a:6 a:7 b:1 b:2 b:3"),
        (50, "a:1 a:2 a:3 a:5 a:6 a:7 b:1 b:2 b:3"),
    ):
        expect_context(learner, keyword, [], counts, 3, budget,
                       {"route": "hybrid", "results": ["a:2", "b:2", "a:6"], "context": split(context)},
                       "De context groeit tot precies budget fragmenten, en nooit verder.")


@test(CHECKPOINT, "een buur die er al in zit telt niet nog eens")
def neighbour_already_there(learner):
    h = shared.hit
    expect_context(learner, [h("a", 3), h("a", 4)], [], {"a": 10}, 2, 4,
                   {"route": "hybrid", "results": ["a:3", "a:4"], "context": ["a:2", "a:3", "a:4", "a:5"]},
                   "Een buur die al een resultaat is, voeg je niet opnieuw toe: hij telt één keer in het budget.")
    expect_context(learner, [h("a", 3), h("a", 5)], [], {"a": 10}, 2, 5,
                   {"route": "hybrid", "results": ["a:3", "a:5"], "context": ["a:2", "a:3", "a:4", "a:5", "a:6"]},
                   "Een fragment tussen twee resultaten komt één keer in de context.")


@test(CHECKPOINT, "de context per document, in bronvolgorde")
def grouping(learner):
    h = shared.hit
    keyword = [h("zz", 8), h("aa", 1), h("zz", 2)]
    counts = {"zz": 12, "aa": 3}
    expect_context(learner, keyword, [], counts, 3, 3,
                   {"route": "hybrid", "results": ["zz:8", "aa:1", "zz:2"], "context": ["zz:2", "zz:8", "aa:1"]},
                   "De documenten staan in de volgorde van results, niet op naam; binnen een document op chunk_number.")
    expect_context(learner, keyword, [], counts, 3, 50,
                   {"route": "hybrid", "results": ["zz:8", "aa:1", "zz:2"], "context": split("zz:1 zz:2 zz:3 zz:7 zz:8 zz:9 aa:0 aa:1 aa:2")},
                   "De context groepeert per document en zet binnen een document de fragmenten op chunk_number.")
    numbers = {"d": 12}
    expect_context(learner, [h("d", 10), h("d", 9)], [], numbers, 2, 2,
                   {"route": "hybrid", "results": ["d:10", "d:9"], "context": ["d:9", "d:10"]},
                   "Binnen een document sorteer je op chunk_number als getal, niet op de tekst van het id.")


@test(CHECKPOINT, "het plafond bij weinig plaatsen")
def small_slots(learner):
    h = shared.hit
    keyword = [h("a", 0), h("a", 1), h("b", 0), h("b", 1)]
    counts = {"a": 2, "b": 2}
    for slots, results in ((1, ["a:0"]), (2, ["a:0", "b:0"]), (3, ["a:0", "a:1", "b:0"])):
        expect_context(learner, keyword, [], counts, slots, slots, {"route": "hybrid", "results": results, "context": results},
                       "Met 1 tot 3 plaatsen is het plafond 1 per document; vrije plaatsen vul je met de beste overgeslagen.")


@test(CHECKPOINT, "zonder slots en budget: 6 en 10")
def defaults(learner):
    h = shared.hit
    keyword = [h("a", n) for n in (1, 3, 5, 7)] + [h("b", n) for n in (1, 3, 5, 7)]
    counts = {"a": 9, "b": 9}
    result = returns(lambda: learner.hybrid_context(keyword, [], counts), "Zonder slots en budget gebruik je 6 en 10.")
    # Only a difference with the learner's own answer for 6 and 10 is the defaults' fault.
    explicit = returns(lambda: learner.hybrid_context(keyword, [], counts, 6, 10), "slots 6 en budget 10 mogen.")
    expect_equal(result, explicit, "Zonder slots en budget gebruik je 6 plaatsen en een budget van 10.", show=False)
    expect_like_reference(learner, keyword, [], counts, 6, 10, "slots 6 en budget 10 mogen.",
                          "Met 6 plaatsen en een budget van 10 klopt de context niet.")


@test(CHECKPOINT, "slots en budget")
def slots_and_budget(learner):
    keyword, semantic, counts = shared.example_keyword(), shared.example_semantic(), shared.example_counts()
    expect_like_reference(learner, keyword, semantic, counts, 1, 1, "slots en budget mogen allebei 1 zijn.",
                          "Met 1 plaats en budget 1 is de context alleen het beste resultaat.")
    expect_like_reference(learner, keyword, semantic, counts, 50, 50, "slots en budget mogen allebei 50 zijn.",
                          "Met 50 plaatsen blijven alle kandidaten over, en hun buren vullen het budget aan.")
    expect_like_reference(learner, keyword, semantic, counts, 5, 5, "slots mag gelijk zijn aan budget.",
                          "Is budget gelijk aan slots, dan is de context precies de resultaten, per document gegroepeerd.")
    for slots, budget, message in (
        (5, 4, "slots is hoogstens budget: 5 plaatsen bij budget 4 moet een ValueError geven."),
        (0, 4, "slots is minstens 1: 0 moet een ValueError geven."),
        (-1, 3, "slots is minstens 1: -1 moet een ValueError geven."),
        (0, 0, "slots en budget zijn minstens 1: 0 en 0 moet een ValueError geven."),
        (4, 51, "budget is hoogstens 50: 51 moet een ValueError geven."),
        (51, 51, "budget is hoogstens 50: slots en budget 51 moet een ValueError geven."),
        (True, 4, "slots is een int: True moet een ValueError geven."),
        (4, True, "budget is een int: True moet een ValueError geven."),
        (1, True, "budget is een int: True moet een ValueError geven, ook met slots 1 (waar budget 1 mag)."),
        (True, 1, "slots is een int: True moet een ValueError geven, ook met budget 1."),
        (1, 1.0, "budget is een int: 1.0 moet een ValueError geven, ook met slots 1."),
        (4.0, 6, "slots is een int: een float moet een ValueError geven."),
        (4, 6.0, "budget is een int: een float moet een ValueError geven."),
        ("4", 6, "slots is een int: een str moet een ValueError geven."),
        (None, 6, "slots is een int: None moet een ValueError geven."),
        (4, None, "budget is een int: None moet een ValueError geven."),
    ):
        rejects(learner, message, keyword, semantic, counts, slots, budget)


@test(CHECKPOINT, "chunk_counts volgt de regels")
def chunk_count_rules(learner):
    keyword, semantic = shared.example_keyword(), shared.example_semantic()
    counts = shared.example_counts()
    expect_like_reference(learner, keyword, semantic, dict(counts, extra=1), 4, 7, "Een document zonder treffers in chunk_counts mag.")
    expect_like_reference(learner, keyword, semantic, dict(counts, huur=100001), 4, 7, "Een document mag 100001 fragmenten hebben.")
    for message, bad in (
        ("Een aantal fragmenten is minstens 1: 0 moet een ValueError geven.", dict(counts, extra=0)),
        ("Een aantal fragmenten is hoogstens 100001: 100002 moet een ValueError geven.", dict(counts, extra=100002)),
        ("Een aantal fragmenten is een int: True moet een ValueError geven.", dict(counts, extra=True)),
        ("Een aantal fragmenten is een int: een float moet een ValueError geven.", dict(counts, bw=2.0)),
        ("Een aantal fragmenten is een int: None moet een ValueError geven.", dict(counts, extra=None)),
        ("Een document-id in chunk_counts volgt de regels: een leeg id moet een ValueError geven.", dict(counts, **{"": 3})),
        ("Een document-id in chunk_counts volgt de regels: 41 tekens moet een ValueError geven.", dict(counts, **{"x" * 41: 3})),
        ("Een document-id in chunk_counts volgt de regels: een spatie moet een ValueError geven.", dict(counts, **{"a b": 3})),
        ("chunk_counts is een dict: een list moet een ValueError geven.", list(counts)),
        ("chunk_counts is een dict: een list van paren moet een ValueError geven.", [[document_id, count] for document_id, count in counts.items()]),
        ("chunk_counts is een dict: None moet een ValueError geven.", None),
    ):
        rejects(learner, message, keyword, semantic, bad, 4, 7)
        rejects(learner, message, keyword, None, bad, 4, 7)


@test(CHECKPOINT, "elke treffer ligt binnen zijn document")
def hits_inside_documents(learner):
    h = shared.hit
    expect_like_reference(learner, [h("d", 4)], [h("e", 0)], {"d": 5, "e": 1}, 2, 4, "Het laatste fragment van een document mag.")
    for message, keyword, semantic in (
        ("Een trefwoordtreffer voorbij het laatste fragment moet een ValueError geven.", [h("d", 5)], []),
        ("Een semantische treffer voorbij het laatste fragment moet een ValueError geven.", [], [h("e", 1)]),
        ("Een treffer van een document dat niet in chunk_counts staat moet een ValueError geven.", [h("x", 0)], []),
        ("Ook een treffer die buiten het plafond valt, moet binnen zijn document liggen.", [h("d", 0), h("f", 0)], [h("e", 7)]),
    ):
        rejects(learner, message, keyword, semantic, {"d": 5, "e": 1, "f": 1}, 2, 4)
    rejects(learner, "Ook met een uitgevallen zoekweg controleer je de treffers van de andere.", None, [h("e", 1)], {"d": 5, "e": 1}, 2, 4)
    rejects(learner, "Ook met een uitgevallen zoekweg controleer je de treffers van de andere.", [h("d", 5)], None, {"d": 5, "e": 1}, 2, 4)


@test(CHECKPOINT, "inconsistente treffers")
def inconsistent_hits(learner):
    counts = {"d": 100001, "z": 1, "x" * 40: 2, "Az09_-": 2}
    for message, item, valid in shared.hit_rule_cases():
        if valid:
            expect_like_reference(learner, [item], [], counts, 4, 6, message)
            expect_like_reference(learner, None, [shared.hit("z", 0), item], counts, 4, 6, message)
        else:
            rejects(learner, message, [item], [], counts)
            rejects(learner, message, None, [shared.hit("z", 0), item], counts)
    many = [shared.hit("d", n) for n in range(200)]
    expect_like_reference(learner, many, many, counts, 50, 50, "Twee zoekwegen van elk 200 treffers mogen.")
    expect_like_reference(learner, None, many, counts, 6, 10, "Een zoekweg van 200 treffers mag.")
    rejects(learner, "Hetzelfde fragment twee keer in één zoekweg moet een ValueError geven.", [shared.hit("d", 1)] * 2, [], counts)
    rejects(learner, "Hetzelfde fragment twee keer in één zoekweg moet een ValueError geven.", None, [shared.hit("d", 1)] * 2, counts)
    rejects(learner, "Een zoekweg van 201 treffers moet een ValueError geven.", [shared.hit("e", n) for n in range(201)], [], dict(counts, e=201))


@test(CHECKPOINT, "invoer ongemoeid, nieuwe lijsten")
def fresh_objects(learner):
    keyword, semantic, counts = shared.example_keyword(), shared.example_semantic(), shared.example_counts()
    learner.hybrid_context(keyword, semantic, counts, 4, 7)
    expect_no_mutation(learner, "hybrid_context laat de treffers en chunk_counts ongemoeid.")
    expect_new_objects(learner, "hybrid_context geeft nieuwe lijsten terug.")


@test(CHECKPOINT, "willekeurige vragen")
def generated(learner):
    for seed in range(12):
        rng = random.Random(200 + seed)
        keyword, semantic, counts = shared.random_routes(rng)
        down = rng.choice([None, "keyword", "semantic"]) if rng.random() < 0.4 else None
        keyword = None if down == "keyword" else keyword
        semantic = None if down == "semantic" else semantic
        budget = rng.randint(1, 16)
        slots = rng.randint(1, budget)
        expect_like_reference(learner, keyword, semantic, counts, slots, budget, "Voor willekeurige vragen klopt de context niet.")
