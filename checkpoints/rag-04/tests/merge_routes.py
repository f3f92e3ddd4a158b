"""Tests for checkpoint 1, merge_routes(keyword_hits, semantic_hits).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_new_objects,
    expect_no_mutation,
    expect_value_error,
    returns,
    signature,
    test,
)

SIGNATURE = signature("merge_routes(keyword_hits, semantic_hits)", CallShape(2))
CHECKPOINT = "merge_routes"


def merged(learner, keyword, semantic, message):
    return returns(lambda: learner.merge_routes(keyword, semantic), message)


def rejects(learner, message, keyword, semantic):
    with expect_value_error(message):
        learner.merge_routes(keyword, semantic)


# First, before the examples: a learner whose function remembers earlier calls would otherwise
# see a wrong example value and look for the mistake in the wrong place.
@test(CHECKPOINT, "geen geheugen tussen aanroepen")
def no_memory_between_calls(learner):
    h = shared.hit
    other_keyword, other_semantic = [h("avg", 2), h("huur", 3)], [h("avg", 3), h("huur", 9)]
    shared.expect_no_memory("merge_routes", lambda: learner.merge_routes(shared.example_keyword(), shared.example_semantic()),
                            lambda: learner.merge_routes(other_keyword, other_semantic))


@test(CHECKPOINT, "voorbeeld: de twee zoekwegen van de les", visible=True)
def example(learner):
    h, c = shared.hit, shared.candidate
    expected = [
        c("huur", 3, ["keyword", "semantic"]), c("avg", 14), c("huur", 4), c("huur", 7, ["semantic"]),
        c("huur", 8, ["semantic"]), c("huur", 2, ["semantic"]), c("bw", 1, ["semantic"]), c("avg", 15, ["semantic"]),
    ]
    expect_equal(learner.merge_routes(shared.example_keyword(), shared.example_semantic()), expected,
                 "De samenvoeging van het voorbeeld klopt niet.")


@test(CHECKPOINT, "voorbeeld: een zoekweg die niets vond", visible=True)
def example_one_side_empty(learner):
    c = shared.candidate
    expect_equal(learner.merge_routes(shared.example_keyword(), []), [c("huur", 3), c("avg", 14), c("huur", 4)],
                 "Zonder semantische treffers zijn de kandidaten de trefwoordtreffers, met routes [\"keyword\"].")


@test(CHECKPOINT, "trefwoordtreffers eerst, ook als de semantische beter lijken")
def keyword_first(learner):
    h, c = shared.hit, shared.candidate
    keyword = [h("avg", 15), h("avg", 14)]
    semantic = [h("avg", 1), h("avg", 14), h("avg", 2)]
    expected = [c("avg", 15), c("avg", 14, ["keyword", "semantic"]), c("avg", 1, ["semantic"]), c("avg", 2, ["semantic"])]
    expect_equal(merged(learner, keyword, semantic, "Eerst alle trefwoordtreffers in hun volgorde, dan de semantische."), expected,
                 "Eerst alle trefwoordtreffers in hun volgorde, dan de semantische die er nog niet in staan.", show=False)


@test(CHECKPOINT, "een dubbele treffer staat op de plek van de trefwoordtreffer")
def shared_hit_keeps_keyword_place(learner):
    h, c = shared.hit, shared.candidate
    keyword = [h("a", 1), h("a", 2), h("b", 9)]
    semantic = [h("b", 9), h("a", 1)]
    expected = [c("a", 1, ["keyword", "semantic"]), c("a", 2), c("b", 9, ["keyword", "semantic"])]
    expect_equal(merged(learner, keyword, semantic, "Een fragment in beide lijsten is geldig."), expected,
                 "Een fragment in beide lijsten telt één keer, op zijn trefwoordplek, met routes [\"keyword\", \"semantic\"].", show=False)


@test(CHECKPOINT, "alleen semantische treffers")
def only_semantic(learner):
    h, c = shared.hit, shared.candidate
    expected = [c("bw", 1, ["semantic"]), c("bw", 0, ["semantic"])]
    expect_equal(merged(learner, [], [h("bw", 1), h("bw", 0)], "Een lege trefwoordlijst is geldig."), expected,
                 "Zonder trefwoordtreffers zijn de kandidaten de semantische treffers, met routes [\"semantic\"].", show=False)


@test(CHECKPOINT, "twee lege zoekwegen")
def both_empty(learner):
    expect_equal(merged(learner, [], [], "Twee lege lijsten zijn geldig."), [], "Twee lege lijsten geven een lege list kandidaten.", show=False)


@test(CHECKPOINT, "dezelfde lijsten aan beide kanten")
def identical_routes(learner):
    hits = [shared.hit("d", n) for n in (4, 0, 9)]
    expected = [shared.candidate("d", n, ["keyword", "semantic"]) for n in (4, 0, 9)]
    expect_equal(merged(learner, hits, [dict(item) for item in hits], "Dezelfde lijsten aan beide kanten zijn geldig."), expected,
                 "Staat elk fragment in beide lijsten, dan heeft elke kandidaat beide zoekwegen.", show=False)


@test(CHECKPOINT, "een treffer volgt de regels")
def hit_rules(learner):
    for message, item, valid in shared.hit_rule_cases():
        for keyword, semantic in (([item], []), ([], [item]), ([shared.hit("z", 0), item], [shared.hit("z", 0)])):
            if valid:
                expect_equal(merged(learner, keyword, semantic, message), reference.merge_routes(keyword, semantic), message, show=False)
            else:
                rejects(learner, message, keyword, semantic)


@test(CHECKPOINT, "een zoekweg is een list van hoogstens 200 treffers")
def list_rules(learner):
    many = [shared.hit("d", n) for n in range(200)]
    expect_equal(len(merged(learner, many, [], "200 treffers mag.")), 200, "Een zoekweg van 200 treffers mag.", show=False)
    expect_equal(len(merged(learner, [], many, "200 treffers mag.")), 200, "Een zoekweg van 200 treffers mag.", show=False)
    expect_equal(merged(learner, many, many[::-1], "Elke zoekweg mag 200 treffers hebben, ook allebei tegelijk: de grens geldt per zoekweg."),
                 reference.merge_routes(many, many[::-1]),
                 "Staan dezelfde 200 fragmenten in beide zoekwegen, dan zijn er 200 kandidaten in de volgorde van de trefwoordlijst, elk met beide zoekwegen.", show=False)
    too_many = many + [shared.hit("d", 200)]
    rejects(learner, "Een trefwoordlijst van 201 treffers moet een ValueError geven.", too_many, [])
    rejects(learner, "Een semantische lijst van 201 treffers moet een ValueError geven.", [], too_many)
    for value in (None, {}, "d:1", shared.hit("d", 1), 0):
        rejects(learner, "Een zoekweg is een list: iets anders moet een ValueError geven.", value, [])
        rejects(learner, "Een zoekweg is een list: iets anders moet een ValueError geven.", [], value)


@test(CHECKPOINT, "hetzelfde fragment twee keer in één zoekweg")
def duplicate_in_one_route(learner):
    h = shared.hit
    rejects(learner, "Hetzelfde id twee keer in de trefwoordlijst moet een ValueError geven.", [h("d", 1), h("e", 2), h("d", 1)], [])
    rejects(learner, "Hetzelfde id twee keer in de semantische lijst moet een ValueError geven.", [h("d", 1)], [h("e", 2), h("e", 2)])


@test(CHECKPOINT, "nieuwe dicts, invoer ongemoeid")
def fresh_objects(learner):
    keyword, semantic = shared.example_keyword(), shared.example_semantic()
    learner.merge_routes(keyword, semantic)
    expect_no_mutation(learner, "merge_routes laat de lijsten en hun treffers ongemoeid.")
    expect_new_objects(learner, "merge_routes geeft nieuwe dicts terug, geen treffers uit de invoer.")


@test(CHECKPOINT, "willekeurige zoekwegen")
def generated(learner):
    for seed in range(12):
        keyword, semantic, _ = shared.random_routes(random.Random(seed))
        expect_equal(merged(learner, keyword, semantic, "Geldige zoekwegen mogen geen ValueError geven."),
                     reference.merge_routes(keyword, semantic),
                     "Voor willekeurige zoekwegen klopt de samenvoeging niet.", show=False)
