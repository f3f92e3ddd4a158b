"""Offline-only: inputs at the size limits (200 hits per route, 400 candidates, 50 slots)."""

import random

from runner.core.testkit import expect_equal, returns, test


def _big_routes():
    rng = random.Random(77)
    documents = [f"doc{n}" for n in range(30)]
    counts = {document_id: 100001 for document_id in documents}
    keyword = shared.random_route(rng, documents, counts, 200)
    semantic = shared.random_route(rng, documents, counts, 200)
    return keyword, semantic, counts


@test("merge_routes", "twee zoekwegen van 200 treffers")
def big_merge(learner):
    keyword, semantic, _ = shared.generated_cases("big_routes", _big_routes)
    expect_equal(returns(lambda: learner.merge_routes(keyword, semantic), "200 treffers per zoekweg mag."),
                 reference.merge_routes(keyword, semantic), "Voor twee lange zoekwegen klopt de samenvoeging niet.", show=False)


@test("cap_per_document", "400 kandidaten en 50 plaatsen")
def big_cap(learner):
    keyword, semantic, _ = shared.generated_cases("big_routes", _big_routes)
    candidates = reference.merge_routes(keyword, semantic)
    taken = {candidate["id"] for candidate in candidates}
    padding = (shared.candidate("pad", n, ["semantic"]) for n in range(400) if f"pad:{n}" not in taken)
    candidates = (candidates + list(padding))[:400]
    for slots in (49, 50):
        expect_equal(returns(lambda: learner.cap_per_document(candidates, slots), "400 kandidaten mag."),
                     reference.cap_per_document(candidates, slots), "Voor 400 kandidaten klopt de keuze niet.", show=False)


@test("hybrid_context", "lange zoekwegen en het grootste budget")
def big_context(learner):
    keyword, semantic, counts = shared.generated_cases("big_routes", _big_routes)
    for slots, budget in ((50, 50), (25, 50), (1, 50)):
        expect_equal(returns(lambda: learner.hybrid_context(keyword, semantic, counts, slots, budget), "Lange zoekwegen mogen."),
                     reference.hybrid_context(keyword, semantic, counts, slots, budget),
                     "Voor lange zoekwegen klopt de context niet.", show=False)
