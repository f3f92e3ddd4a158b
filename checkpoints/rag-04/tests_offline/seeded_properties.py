"""Offline-only: seeded property tests on many more random questions (never shipped to the site).

Each case is compared with the reference, and the results are checked against the contract's
rules directly, so a reference that drifted from the rules would be caught here too.
`reference` and `shared` are injected by runner.core.bundle; cases are built once per process.
"""

import random

from runner.core.testkit import expect_equal, expect_true, returns, test

SEEDS = range(5000, 5060)


def _questions():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        keyword, semantic, counts = shared.random_routes(rng, max_hits=rng.choice([4, 12, 30]))
        budget = rng.randint(1, 20)
        cases.append((keyword, semantic, counts, rng.randint(1, budget), budget))
    return cases


def questions():
    return shared.generated_cases("offline_questions", _questions)


@test("merge_routes", "eigenschappen van de samenvoeging op veel willekeurige zoekwegen")
def merge_properties(learner):
    for keyword, semantic, _, _, _ in questions():
        merged = returns(lambda: learner.merge_routes(keyword, semantic), "Geldige zoekwegen mogen geen ValueError geven.")
        expect_equal(merged, reference.merge_routes(keyword, semantic), "Voor willekeurige zoekwegen klopt de samenvoeging niet.", show=False)
        keyword_ids = [hit["id"] for hit in keyword]
        expect_true(shared.ids(merged)[: len(keyword_ids)] == keyword_ids, "De trefwoordtreffers staan vooraan, in hun volgorde.")
        expect_true(len(set(shared.ids(merged))) == len(merged), "Elk fragment telt één keer.")


@test("cap_per_document", "eigenschappen van het plafond op veel willekeurige kandidaten")
def cap_properties(learner):
    for keyword, semantic, _, slots, _ in questions():
        candidates = reference.merge_routes(keyword, semantic)
        kept = returns(lambda: learner.cap_per_document(candidates, slots), "Geldige kandidaten mogen geen ValueError geven.")
        expect_equal(kept, reference.cap_per_document(candidates, slots), "Voor willekeurige kandidaten klopt de keuze niet.", show=False)
        positions = [shared.ids(candidates).index(candidate_id) for candidate_id in shared.ids(kept)]
        expect_true(positions == sorted(positions), "Het plafond herschikt nooit.")
        expect_true(len(kept) == min(slots, len(candidates)), "Zolang er kandidaten zijn, blijft geen plaats leeg.")


@test("hybrid_context", "eigenschappen van de context op veel willekeurige vragen")
def context_properties(learner):
    for keyword, semantic, counts, slots, budget in questions():
        for down in (None, "keyword", "semantic"):
            kw = None if down == "keyword" else keyword
            se = None if down == "semantic" else semantic
            result = returns(lambda: learner.hybrid_context(kw, se, counts, slots, budget), "Geldige vragen mogen geen ValueError geven.")
            expected = reference.hybrid_context(kw, se, counts, slots, budget)
            expect_equal(result, expected, "Voor willekeurige vragen klopt de context niet.", show=False)
            expect_true(len(result["context"]) <= budget, "De context is nooit groter dan het budget.")
            expect_true(set(result["results"]) <= set(result["context"]), "Elk resultaat staat in de context.")
