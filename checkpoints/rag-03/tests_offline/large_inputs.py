"""Offline-only: every limit of the contract at its full size (never shipped to the site).

1000 questions, 1000 versions, texts of 200000 code points, rankings of 1000 spans and k = 100:
valid at the limit, refused one past it. Too heavy for the page's check limit, cheap offline.
"""

from runner.core.testkit import expect_value_error, fail, returns, test

TEXT = ("De lamp brandt groen na reset. 😀 " * 7000)[:200000]


def large_case():
    """1000 questions over 1000 versions (two of them 200000 code points long), each with a
    ranking of 20 spans; the last question's ranking has the full 1000. Built once per grading
    process, like the reference's answers below: a class is graded with the same inputs."""
    return shared.generated_cases("offline/large_case", _build_large_case)


def _build_large_case():
    corpus = {f"v{index}": f"tekst {index} " * 3 for index in range(998)}
    corpus["groot-v1"] = TEXT
    corpus["groot-v2"] = TEXT
    questions, rankings = [], {}
    for index in range(1000):
        start = (index * 197) % (len(TEXT) - 400)
        evidence = ["groot-v1", start, start + 300]
        questions.append({"id": f"q{index}", "question": "Wat staat hier?", "evidence": evidence, "quote": TEXT[start:start + 300]})
        ranking = [["groot-v2", start, start + 300]]  # the same text, in the other version
        ranking += [["groot-v1", max(0, start - 50 + 20 * step), start + 20 * step] for step in range(1, 19)]
        ranking.append(["groot-v1", max(0, start - 5), start + 305])
        rankings[f"q{index}"] = ranking
    rankings["q999"] = rankings["q999"] + [["groot-v1", offset, offset + 7] for offset in range(0, 980 * 7, 7)]
    return questions, rankings, corpus


@test("evidence_index", "1000 vragen over 1000 versies van 200000 tekens (offline)")
def large_index(learner):
    questions, _, corpus = large_case()
    result = returns(lambda: learner.evidence_index(questions, corpus), "1000 vragen en 1000 versies liggen precies op de grenzen en zijn geldig.")
    expected = shared.generated_cases("offline/large_index", lambda: reference.evidence_index(questions, corpus))
    if result != expected:
        fail("Bij 1000 vragen klopt het bewijs van een of meer vragen niet.")
    with expect_value_error("1001 vragen is er één te veel."):
        learner.evidence_index(questions + [dict(questions[0], id="extra")], corpus)


@test("question_hits", "een ranking van 1000 spans met k = 100 (offline)")
def large_ranking(learner):
    questions, rankings, corpus = large_case()
    ranking = rankings["q999"]
    if len(ranking) != 1000:
        fail("De test zelf is fout: de ranking moet 1000 spans hebben; meld dit aan je docent.")
    evidence = questions[999]["evidence"]
    message = "Een ranking van 1000 spans met k = 100 ligt op de grenzen en is geldig."
    expected = shared.generated_cases("offline/large_ranking", lambda: reference.question_hits(evidence, ranking, corpus, 100))
    if returns(lambda: learner.question_hits(evidence, ranking, corpus, 100), message) != expected:
        fail("Bij een ranking van 1000 spans en k = 100 kloppen je treffers niet.")
    with expect_value_error("Een ranking van 1001 spans is er één te veel."):
        learner.question_hits(evidence, ranking + [["v0", 0, 1]], corpus, 100)


@test("evaluate", "1000 vragen met elk een ranking (offline)")
def large_evaluate(learner):
    questions, rankings, corpus = large_case()
    expected = shared.generated_cases("offline/large_evaluate", lambda: {
        k: reference.evaluate(questions, rankings, corpus, k) for k in (1, 20, 100)})
    for k in (1, 20, 100):
        message = f"1000 vragen met rankings van 20 tot 1000 spans, k = {k}, zijn geldig."
        result = returns(lambda: learner.evaluate(questions, rankings, corpus, k), message)
        if not shared.same_result(result, expected[k]):
            fail(f"Bij 1000 vragen en k = {k} kloppen je drie maten niet.")
