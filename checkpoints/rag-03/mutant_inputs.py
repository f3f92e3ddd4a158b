"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-03`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function. First every
rule's edge once (the rule cases of tests/_shared.py, each on both sides of its limit), then
seeded random test sets, some with one rule broken. Never shipped. `reference` and `shared` are
injected as in the tests; the rng is seeded by the runner.
"""

CALLS_PER_CHECKPOINT = 300


def inputs(checkpoint, rng):
    sweep, make = {
        "evidence_index": (_index_sweep, _index_call),
        "question_hits": (_hits_sweep, _hits_call),
        "evaluate": (_evaluate_sweep, _evaluate_call),
    }[checkpoint]
    calls = sweep(rng)
    while len(calls) < CALLS_PER_CHECKPOINT:
        calls.append(make(rng))
    return calls[:CALLS_PER_CHECKPOINT]


def _ids(questions):
    if not isinstance(questions, list):
        return []
    return [q["id"] for q in questions if isinstance(q, dict) and isinstance(q.get("id"), str)]


def _small_corpus_cases():
    # The 1000-version and 200000-character corpora are left to the tests: the sweep keeps
    # the 1001 edge of the version count with one-character texts, which is cheap.
    cases = [(message, corpus, valid) for message, corpus, valid in shared.corpus_rule_cases()
             if not isinstance(corpus, dict) or not any(isinstance(text, str) and len(text) > 1000 for text in corpus.values())]
    cases.append(("200001 tekens", {"v": "tekst", "w": "x" * 200001}, False))
    cases.append(("200000 tekens", {"v": "tekst", "w": "x" * 200000}, True))
    return cases


# --- evidence_index ----------------------------------------------------------------------------------


def _index_sweep(rng):
    calls = []
    question = shared.question("q1", ["v", 0, 1], {"v": "tekst"})
    for _, corpus, _ in _small_corpus_cases():
        calls.append(([[question], corpus], {}))
    for _, questions, _ in shared.question_rule_cases():
        calls.append(([questions, shared.LAMP_CORPUS], {}))
    for _, span, _ in shared.span_rule_cases():
        calls.append(([[{"id": "q1", "question": "Wat?", "evidence": span, "quote": shared.quote_for(span)}], shared.SPAN_CORPUS], {}))
    calls.append(([shared.lamp_questions(), shared.LAMP_CORPUS], {}))
    calls.append(([shared.TUTORIAL_QUESTIONS, shared.TUTORIAL_CORPUS], {}))
    return calls


def _index_call(rng):
    questions, _, corpus = shared.random_case(rng)
    roll = rng.random()
    if roll < 0.5:
        victim = rng.randrange(len(questions))
        version, start, end = questions[victim]["evidence"]
        questions[victim] = dict(questions[victim], **rng.choice([
            {"quote": questions[victim]["quote"] + " "},
            {"quote": questions[victim]["quote"].upper()},
            {"evidence": [version, start, len(corpus[version]) + 1]},
            {"evidence": [version, start, start]},
            {"evidence": [version, True, end]},
            {"id": questions[0]["id"] + rng.choice(["", ".", ":", "\n", "x" * 40])},
            {"question": rng.choice([" ", "\u3000", "", None, " Wat? "])},
        ]))
    return ([questions, corpus], {})


# --- question_hits -------------------------------------------------------------------------------------


def _hits_sweep(rng):
    calls = []
    for _, corpus, _ in _small_corpus_cases():
        calls.append(([["v", 0, 1], [["v", 0, 5]], corpus], {}))
    for _, span, _ in shared.span_rule_cases():
        calls.append(([span, [], shared.SPAN_CORPUS], {}))
        calls.append(([["w", 0, 1], [["w", 0, 5], span], shared.SPAN_CORPUS, 1], {}))
        calls.append(([["w", 0, 1], [span], shared.SPAN_CORPUS], {}))
    q2 = ["lamp-v1", 41, 62]
    for _, ranking, _ in shared.ranking_rule_cases():
        calls.append(([q2, ranking, shared.LAMP_CORPUS, 2], {}))
    for k, _ in shared.K_CASES:
        calls.append(([q2, [], shared.LAMP_CORPUS, k], {}))
        calls.append(([q2, [["lamp-v1", 41, 62]], shared.LAMP_CORPUS], {"k": k}))
    for evidence, ranking in _counting_cases():
        for k in (1, 2, 3, 4, 5):
            calls.append(([evidence, ranking, shared.LAMP_CORPUS, k], {}))
        calls.append(([evidence, ranking, shared.LAMP_CORPUS], {}))
    for question_id, evidence in shared.LAMP_EVIDENCE.items():
        calls.append(([evidence, shared.LAMP_RANKINGS[question_id], shared.LAMP_CORPUS, 2], {}))
    return calls


def _counting_cases():
    q2 = ["lamp-v1", 41, 62]
    return [
        (q2, [["lamp-v1", 48, 63], ["lamp-v1", 33, 48]]),
        (q2, [["lamp-v1", 33, 47], ["lamp-v1", 48, 63]]),
        (q2, [["lamp-v1", 42, 63]]),
        (q2, [["lamp-v1", 30, 61]]),
        (q2, [["lamp-v1", 41, 50], ["lamp-v1", 45, 56], ["lamp-v1", 44, 52]]),
        (q2, [["lamp-v1", 41, 55], ["lamp-v1", 42, 44], ["lamp-v1", 50, 62]]),
        (q2, [["lamp-v1", 40, 50], ["lamp-v1", 45, 55]]),
        (q2, [["lamp-v1", 41, 62]]),
        (q2, [["lamp-v1", 40, 61]]),
        (q2, [["lamp-v1", 0, 10], ["lamp-v1", 40, 63], ["lamp-v1", 41, 62]]),
        (["lamp-v1", 33, 40], [["lamp-v2", 33, 40], ["lamp-v2", 0, 62]]),
        (q2, [["lamp-v1", 33, 48], ["lamp-v2", 40, 55], ["lamp-v1", 55, 63]]),
        (q2, [["lamp-v2", 0, 62], ["lamp-v1", 0, 5], ["lamp-v1", 30, 63]]),
        (q2, [["lamp-v1", 0, 5], ["lamp-v1", 33, 48], ["lamp-v1", 48, 63], ["lamp-v1", 41, 62]]),
        (q2, [["lamp-v1", s, s + 1] for s in range(5)] + [["lamp-v1", 41, 62]]),
        (q2, [["lamp-v1", s, s + 1] for s in range(4)] + [["lamp-v1", 41, 62]]),
        (q2, [["lamp-v1", 62, 63], ["lamp-v1", 0, 41], ["lamp-v1", 41, 42]]),
    ]


def _hits_call(rng):
    corpus = shared.random_corpus(rng)
    evidence = shared.random_span(rng, corpus)
    ranking = shared.random_ranking(rng, corpus, evidence)
    roll = rng.random()
    if roll < 0.2 and ranking:
        ranking.append(list(rng.choice(ranking)))
    elif roll < 0.3:
        ranking.append(rng.choice([["nope", 0, 1], [evidence[0], 0, len(corpus[evidence[0]]) + 1], [evidence[0], 0.0, 1]]))
    if rng.random() < 0.3:
        return ([evidence, ranking, corpus], {})
    return ([evidence, ranking, corpus, rng.choice([1, 2, 3, 5, 6, 10, 100])], {})


# --- evaluate ------------------------------------------------------------------------------------------


def _evaluate_sweep(rng):
    calls = []
    lamp_q, lamp_r = shared.lamp_questions(), shared.lamp_rankings()
    for k in (1, 2, 5):
        calls.append(([lamp_q, lamp_r, shared.LAMP_CORPUS, k], {}))
    calls.append(([shared.TUTORIAL_QUESTIONS, shared.TUTORIAL_RANKINGS, shared.TUTORIAL_CORPUS, 3], {}))
    calls.append(([shared.TUTORIAL_QUESTIONS, {"q1": [["manual-v1", 0, 10]]}, shared.TUTORIAL_CORPUS], {}))
    for _, questions, _ in shared.question_rule_cases():
        rankings = {question_id: [["lamp-v1", 33, 40]] for question_id in _ids(questions)}
        calls.append(([questions, rankings, shared.LAMP_CORPUS], {}))
    question = shared.question("q1", ["v", 0, 1], {"v": "tekst"})
    for _, corpus, _ in _small_corpus_cases():
        calls.append(([[question], {"q1": [["v", 0, 5]]}, corpus], {}))
    q2 = [shared.question("q2", ["lamp-v1", 41, 62], shared.LAMP_CORPUS)]
    for _, ranking, _ in shared.ranking_rule_cases():
        calls.append(([q2, {"q2": ranking}, shared.LAMP_CORPUS, 2], {}))
    for evidence, ranking in _counting_cases():
        one = [shared.question("q", evidence, shared.LAMP_CORPUS)]
        calls.append(([one, {"q": ranking}, shared.LAMP_CORPUS, rng.choice([1, 2, 3, 4])], {}))
        calls.append(([one, {"q": ranking}, shared.LAMP_CORPUS], {}))
    for k, _ in shared.K_CASES:
        calls.append(([lamp_q, lamp_r, shared.LAMP_CORPUS, k], {}))
    span_question = [{"id": "q1", "question": "Wat?", "evidence": ["w", 0, 1], "quote": "t"}]
    for _, span, _ in shared.span_rule_cases():
        calls.append(([span_question, {"q1": [["w", 0, 5], span]}, shared.SPAN_CORPUS, 1], {}))
        calls.append(([span_question, {"q1": [span]}, shared.SPAN_CORPUS, 1], {}))
    missing = dict(lamp_r)
    del missing["q4"]
    for rankings in (missing, dict(lamp_r, q5=[]), dict(lamp_r, q4=None), None, list(lamp_r.values())):
        calls.append(([lamp_q, rankings, shared.LAMP_CORPUS], {}))
    return calls


def _evaluate_call(rng):
    questions, rankings, corpus = shared.random_case(rng)
    roll = rng.random()
    if roll < 0.1:
        del rankings[rng.choice(sorted(rankings))]
    elif roll < 0.2:
        rankings["extra"] = []
    elif roll < 0.3:
        victim = rng.choice(sorted(rankings))
        if rankings[victim]:
            rankings[victim] = rankings[victim] + [rankings[victim][0]]
    elif roll < 0.4:
        victim = rng.randrange(len(questions))
        questions[victim] = dict(questions[victim], quote=questions[victim]["quote"] + "!")
    if rng.random() < 0.3:
        return ([questions, rankings, corpus], {})
    return ([questions, rankings, corpus, rng.choice([1, 2, 3, 5, 6, 10, 100])], {})
