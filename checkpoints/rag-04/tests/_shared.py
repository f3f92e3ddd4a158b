"""Inputs shared by the rag-04 tests: the lesson's worked example, rule cases and seeded generators.

Loaded by runner.core.bundle with `reference` (this lesson's solution.py) already defined. Everything
here runs in the trusted grading process; expected values come from `reference` or are written out.
"""


def hit(document_id, chunk_number):
    return {"id": f"{document_id}:{chunk_number}", "document_id": document_id, "chunk_number": chunk_number}


def candidate(document_id, chunk_number, routes=("keyword",)):
    return dict(hit(document_id, chunk_number), routes=list(routes))


def example_keyword():
    return [hit("huur", 3), hit("avg", 14), hit("huur", 4)]


def example_semantic():
    return [hit("huur", 3), hit("huur", 7), hit("huur", 8), hit("huur", 2), hit("bw", 1), hit("avg", 15)]


def example_counts():
    return {"huur": 10, "avg": 20, "bw": 2}


def ids(items):
    return [item["id"] for item in items]


# (message, the changed item, valid): every rule of a hit, on both sides of each limit. A candidate
# must follow the same rules, so checkpoints 2 and 3 use these too (with routes added for 2).
def place_rule_cases():
    return [
        ("Een document-id telt 1 tot en met 40 tekens: een leeg document-id moet een ValueError geven.", hit("", 1), False),
        ("Een document-id telt 1 tot en met 40 tekens: 40 tekens mag.", hit("x" * 40, 1), True),
        ("Een document-id telt 1 tot en met 40 tekens: 41 tekens moet een ValueError geven.", hit("x" * 41, 1), False),
        ("Een document-id bestaat in zijn geheel uit letters, cijfers, _ en -: een spatie moet een ValueError geven.", hit("d 1", 1), False),
        ("Een document-id bestaat in zijn geheel uit letters, cijfers, _ en -: een dubbele punt moet een ValueError geven.", hit("d:1", 1), False),
        ("Een document-id bestaat in zijn geheel uit letters, cijfers, _ en -: een regeleinde aan het eind moet een ValueError geven.", hit("d\n", 1), False),
        ("Een document-id bestaat alleen uit A-Z, a-z, 0-9, _ en -: een letter met accent moet een ValueError geven.", hit("café", 1), False),
        ("Een document-id mag cijfers, _ en - bevatten.", hit("Az09_-", 1), True),
        ("Een document-id is een str: een getal moet een ValueError geven.", hit(7, 1), False),
        ("chunk_number is minstens 0: -1 moet een ValueError geven.", hit("d", -1), False),
        ("chunk_number is minstens 0: 0 mag.", hit("d", 0), True),
        ("chunk_number is hoogstens 100000: 100000 mag.", hit("d", 100000), True),
        ("chunk_number is hoogstens 100000: 100001 moet een ValueError geven.", hit("d", 100001), False),
        ("chunk_number is een int: True moet een ValueError geven.", hit("d", True), False),
        ("chunk_number is een int: een float moet een ValueError geven.", hit("d", 1.0), False),
        # Dezelfde waarden met het id van een echte int: wie het id met %d of int() opbouwt, laat
        # True, False en 1.0 anders door zolang alleen isinstance(..., int) of == kijkt.
        ("chunk_number is een exacte int: True moet een ValueError geven, ook met id d:1.", dict(hit("d", 1), chunk_number=True), False),
        ("chunk_number is een exacte int: False moet een ValueError geven, ook met id d:0.", dict(hit("d", 0), chunk_number=False), False),
        ("chunk_number is een exacte int: 1.0 moet een ValueError geven, ook met id d:1.", dict(hit("d", 1), chunk_number=1.0), False),
        ("chunk_number is een int: een str moet een ValueError geven.", hit("d", "1"), False),
        ("id is document_id, een dubbele punt en chunk_number: een ander nummer moet een ValueError geven.", dict(hit("d", 1), id="d:2"), False),
        ("id is document_id, een dubbele punt en chunk_number: een ander document moet een ValueError geven.", dict(hit("d", 1), id="e:1"), False),
        ("id is document_id, een dubbele punt en chunk_number: een voorloopnul moet een ValueError geven.", dict(hit("d", 1), id="d:01"), False),
        ("id is een str: een getal moet een ValueError geven.", dict(hit("d", 1), id=1), False),
        ("id is een str: een list moet een ValueError geven.", dict(hit("d", 1), id=["d:1"]), False),
    ]


def hit_rule_cases():
    cases = place_rule_cases()
    cases += [
        ("Een treffer heeft precies id, document_id en chunk_number: zonder id moet een ValueError geven.", {"document_id": "d", "chunk_number": 1}, False),
        ("Een treffer heeft precies id, document_id en chunk_number: zonder chunk_number moet een ValueError geven.", {"id": "d:1", "document_id": "d"}, False),
        ("Een treffer heeft precies id, document_id en chunk_number: een score erbij moet een ValueError geven.", dict(hit("d", 1), score=0.9), False),
        ("Een treffer heeft precies id, document_id en chunk_number: routes erbij moet een ValueError geven.", dict(hit("d", 1), routes=["keyword"]), False),
        ("Een treffer heeft precies id, document_id en chunk_number: een score in plaats van chunk_number moet een ValueError geven.", {"id": "d:1", "document_id": "d", "score": 1}, False),
        ("Een treffer is een dict: een str moet een ValueError geven.", "d:1", False),
        ("Een treffer is een dict: None moet een ValueError geven.", None, False),
        ("Een treffer is een dict: een list moet een ValueError geven.", ["d:1", "d", 1], False),
        ("Een treffer is een dict: een list met de sleutelnamen moet een ValueError geven.", ["id", "document_id", "chunk_number"], False),
    ]
    return cases


def routes_rule_cases():
    return [
        ('routes is ["keyword"], ["semantic"] of ["keyword", "semantic"]: ["semantic"] mag.', ["semantic"], True),
        ('routes is ["keyword"], ["semantic"] of ["keyword", "semantic"]: beide mag.', ["keyword", "semantic"], True),
        ("routes staat in vaste volgorde: eerst keyword, dan semantic.", ["semantic", "keyword"], False),
        ("routes noemt minstens één zoekweg: een lege list moet een ValueError geven.", [], False),
        ("routes noemt elke zoekweg één keer.", ["keyword", "keyword"], False),
        ("routes is een list, geen losse str.", "keyword", False),
        ("routes kent alleen keyword en semantic.", ["bm25"], False),
        ("routes kent alleen keyword en semantic: drie routes moet een ValueError geven.", ["keyword", "semantic", "semantic"], False),
        ("routes is een list: None moet een ValueError geven.", None, False),
    ]


def candidate_rule_cases():
    cases = []
    for message, item, valid in place_rule_cases():
        cases.append((message, dict(item, routes=["keyword"]), valid))
    for message, routes, valid in routes_rule_cases():
        cases.append((message, candidate("d", 1, ["keyword"]) | {"routes": routes}, valid))
    cases += [
        ("Een kandidaat heeft precies id, document_id, chunk_number en routes: zonder routes moet een ValueError geven.", hit("d", 1), False),
        ("Een kandidaat heeft precies vier sleutels: een score erbij moet een ValueError geven.", candidate("d", 1) | {"score": 1}, False),
        ("Een kandidaat heeft precies id, document_id, chunk_number en routes: een score in plaats van routes moet een ValueError geven.", dict(hit("d", 1), score=1), False),
        ("Een kandidaat is een dict: een str moet een ValueError geven.", "d:1", False),
        ("Een kandidaat is een dict: een list met de sleutelnamen moet een ValueError geven.", ["id", "document_id", "chunk_number", "routes"], False),
    ]
    return cases


# --- seeded generators ------------------------------------------------------------------------

DOCUMENTS = ["huur", "avg", "bw", "ecli-2019", "d", "x_1"]


def random_route(rng, documents, counts, size):
    """size distinct hits in a random rank order, within counts."""
    chosen = {}
    while len(chosen) < size:
        document_id = rng.choice(documents)
        number = rng.randrange(counts[document_id])
        chosen.setdefault(f"{document_id}:{number}", hit(document_id, number))
    return list(chosen.values())


def random_counts(rng, documents):
    return {document_id: rng.choice([1, 2, 3, 5, 8, 12, 30]) for document_id in documents}


def random_routes(rng, max_hits=12):
    """(keyword, semantic, counts): two overlapping routes over a few documents."""
    documents = rng.sample(DOCUMENTS, rng.randint(1, 4))
    counts = random_counts(rng, documents)
    room = sum(counts.values())
    keyword = random_route(rng, documents, counts, min(room, rng.randint(0, max_hits)))
    semantic = random_route(rng, documents, counts, min(room, rng.randint(0, max_hits)))
    if keyword and semantic and rng.random() < 0.6:
        shared_hit = rng.choice(keyword)
        if shared_hit not in semantic:
            semantic.insert(rng.randrange(len(semantic) + 1), dict(shared_hit))
    return keyword, semantic, counts


def random_candidates(rng, max_hits=12):
    keyword, semantic, _ = random_routes(rng, max_hits)
    return reference.merge_routes(keyword, semantic)


_GENERATED_CASES = {}


def generated_cases(key, build):
    """build() -> cases, once per grading process for each key (a batch worker grades many
    submissions with one bundle); learner code only ever gets copies."""
    if key not in _GENERATED_CASES:
        _GENERATED_CASES[key] = build()
    return _GENERATED_CASES[key]


def outcome_of(call):
    try:
        return "value", call()
    except ValueError:
        return "ValueError", None


def expect_outcome(learner_call, outcome, message):
    from runner.core.testkit import expect_equal, expect_value_error, returns

    kind, expected = outcome
    if kind == "ValueError":
        with expect_value_error(message):
            learner_call()
    else:
        expect_equal(returns(learner_call, message), expected, message, show=False)


def expect_no_memory(function, call, other_call):
    """call, other_call, call again: the same question must get the same answer the second time.

    A module-level `seen` set, a cache or a mutable default (`merged={}`) carries one call into the
    next; these tests run first, so that mistake gets this message instead of a wrong value later.
    When a call raises or returns no plain data, other tests say what went wrong."""
    from runner.core.testkit import LearnerRaised, NotPlainValue, fail, same

    answers = []
    for each in (call, other_call, call):
        try:
            answers.append(each())
        except (LearnerRaised, NotPlainValue):
            return
    if not same(answers[0], answers[2]):
        fail(f"{function} gaf voor dezelfde invoer de tweede keer een ander antwoord: je functie onthoudt iets van een "
             "vorige aanroep (een variabele buiten de functie, of een standaardwaarde als ={} of =[]).")
