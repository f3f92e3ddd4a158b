"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-04`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function. The run calls
the reference and each mutant listed as equivalent with them; one different outcome makes the
listing invalid. So the inputs sit on the rules' edges (every hit, candidate and count rule on both
sides, slots and budget at their limits, failed routes), with random questions in between.
`reference` and `shared` are injected as in the tests; the rng is seeded by the runner. Never shipped.
"""

CALLS_PER_CHECKPOINT = 300
LIST_LIKE = [None, {}, "d:1", 0, False, ["id", "document_id", "chunk_number"], ["id", "document_id", "chunk_number", "routes"]]
NUMBERS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 49, 50, 51, True, False, 6.0, "6", None]


def inputs(checkpoint, rng):
    sweep, make = {
        "merge_routes": (_merge_sweep, _merge_call),
        "cap_per_document": (_cap_sweep, _cap_call),
        "hybrid_context": (_context_sweep, _context_call),
    }[checkpoint]
    calls = sweep(rng)
    while len(calls) < CALLS_PER_CHECKPOINT:
        calls.append(make(rng))
    return calls[:CALLS_PER_CHECKPOINT]


def _routes(rng):
    return shared.random_routes(rng, max_hits=rng.choice([3, 8, 14]))


def _merge_call(rng):
    keyword, semantic, _ = _routes(rng)
    return [keyword, semantic], {}


def _cap_call(rng):
    candidates = shared.random_candidates(rng, max_hits=rng.choice([4, 10, 16]))
    return [candidates, rng.randint(1, 12)], {}


def _context_call(rng):
    keyword, semantic, counts = _routes(rng)
    down = rng.choice([None, None, "keyword", "semantic"])
    budget = rng.randint(1, 16)
    return [None if down == "keyword" else keyword, None if down == "semantic" else semantic, counts,
            rng.randint(1, budget), budget], {}


def _merge_sweep(rng):
    calls = []
    for _, item, _ in shared.hit_rule_cases():
        calls.append(([[item], []], {}))
        calls.append(([[shared.hit("z", 0)], [shared.hit("z", 0), item]], {}))
    many = [shared.hit("d", n) for n in range(201)]
    calls += [([many[:200], []], {}), ([many, []], {}), ([[], many[:200]], {}), ([[], many], {})]
    calls += [([value, []], {}) for value in LIST_LIKE] + [([[], value], {}) for value in LIST_LIKE]
    calls.append(([[shared.hit("d", 1)] * 2, []], {}))
    return calls


def _cap_sweep(rng):
    calls = []
    for _, item, _ in shared.candidate_rule_cases():
        calls.append(([[item], 6], {}))
        calls.append(([[shared.candidate("z", 0), item], 2], {}))
    example = reference.merge_routes(shared.example_keyword(), shared.example_semantic())
    for slots in NUMBERS:
        calls.append(([example, slots], {}))
        calls.append(([example], {"slots": slots}))
    calls.append(([example], {}))
    many = [shared.candidate(f"d{n % 50}", n) for n in range(401)]
    calls += [([many[:400], 50], {}), ([many, 50], {})]
    calls += [([value, 6], {}) for value in LIST_LIKE]
    calls.append(([[shared.candidate("d", 1), shared.candidate("d", 1, ["semantic"])], 6], {}))
    for slots in range(1, 8):
        one_document = [shared.candidate("a", n) for n in range(6)] + [shared.candidate("b", 0)]
        calls.append(([one_document, slots], {}))
    return calls


def _context_sweep(rng):
    calls = []
    keyword, semantic, counts = shared.example_keyword(), shared.example_semantic(), shared.example_counts()
    for slots in NUMBERS:
        for budget in (1, 4, 7, 50, 51, 0, True, 7.0, None):
            calls.append(([keyword, semantic, counts, slots, budget], {}))
    calls += [([keyword, semantic, counts], {}), ([None, None, counts, 4, 6], {}), ([None, None, {}, 1, 1], {})]
    calls += [([keyword, None, counts, 4, 6], {}), ([None, semantic, counts, 4, 6], {}), ([[], None, counts, 2, 3], {})]
    for value in LIST_LIKE[1:]:
        calls.append(([value, semantic, counts, 4, 6], {}))
        calls.append(([keyword, value, counts, 4, 6], {}))
    wide = {"d": 100001, "z": 1, "x" * 40: 2, "Az09_-": 2}
    for _, item, _ in shared.hit_rule_cases():
        calls.append(([[item], [], wide, 4, 6], {}))
        calls.append(([None, [shared.hit("z", 0), item], wide, 4, 6], {}))
    for bad in ({"huur": 10, "avg": 20, "bw": 0}, {"huur": 10, "avg": 20, "bw": 2, "extra": 0}, {"huur": 10, "avg": 20, "bw": 2, "extra": -1}, {"huur": 100002, "avg": 20, "bw": 2}, {"huur": True, "avg": 20, "bw": 2},
                {"huur": 10, "avg": 20, "bw": 2, "": 1}, {"huur": 10, "avg": 20, "bw": 2, "x" * 41: 1}, ["huur"], None,
                {"huur": 10, "avg": 20}, {"huur": 4, "avg": 20, "bw": 2}, {"huur": 10, "avg": 15, "bw": 2}):
        calls.append(([keyword, semantic, bad, 4, 7], {}))
    many = [shared.hit("d", n) for n in range(201)]
    for route in (many[:200], many):
        calls += [([route, [], {"d": 300}, 6, 10], {}), ([None, route, {"d": 300}, 6, 10], {})]
    for count in (1, 2, 3, 9):
        calls.append(([[shared.hit("a", 0), shared.hit("a", count - 1)], [], {"a": count}, 2, 6], {}))
    return calls
