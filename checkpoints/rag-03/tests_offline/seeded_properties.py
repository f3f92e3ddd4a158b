"""Offline-only: more seeded comparisons with the reference solution (never shipped to the site).

`reference` and `shared` are injected by runner.core.bundle; the cases and the reference's
outcomes are built once per grading process (`shared.generated_cases`).
"""

import random

from runner.core.testkit import test

SEEDS = range(3000, 3040)


def _break_one_rule(rng, questions, rankings, corpus):
    """Valid most of the time; otherwise one rule of the contract broken in one place."""
    roll = rng.random()
    victim = rng.randrange(len(questions))
    qid = questions[victim]["id"]
    version, start, end = questions[victim]["evidence"]
    if roll < 0.08:
        questions[victim] = dict(questions[victim], quote=questions[victim]["quote"][:-1] + "?")
    elif roll < 0.16:
        rankings[qid] = rankings[qid] + [[version, end, len(corpus[version]) + 1]]
    elif roll < 0.24 and rankings[qid]:
        rankings[qid] = rankings[qid] + [list(rankings[qid][0])]
    elif roll < 0.30:
        rankings.pop(qid)
    elif roll < 0.36:
        rankings["onbekend"] = []
    elif roll < 0.42:
        questions.append(dict(questions[victim]))
    return questions, rankings, corpus


def _cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        questions, rankings, corpus = _break_one_rule(rng, *shared.random_case(rng, rng.randint(1, 30)))
        k = rng.choice([1, 2, 3, 5, 8, 20, 100])
        cases.append((questions, rankings, corpus, k))
    return cases


def _with(build, call):
    return [(case, shared.outcome_of(lambda: call(*case))) for case in build()]


@test("evidence_index", "extra willekeurige testsets (offline)")
def more_indexes(learner):
    cases = shared.generated_cases("offline/evidence_index", lambda: _with(_cases, lambda q, r, c, k: reference.evidence_index(q, c)))
    for (questions, _, corpus, _), outcome in cases:
        shared.expect_outcome(lambda: learner.evidence_index(questions, corpus), outcome,
                              "Voor een extra gegenereerde testset wijkt je uitkomst of je controle af.")


@test("question_hits", "extra willekeurige rankings (offline)")
def more_hits(learner):
    def build():
        pairs = []
        for questions, rankings, corpus, k in _cases():
            for question in questions[:5]:
                ranking = rankings.get(question["id"], [])
                pairs.append(((question["evidence"], ranking, corpus, k),
                              shared.outcome_of(lambda: reference.question_hits(question["evidence"], ranking, corpus, k))))
        return pairs
    for (evidence, ranking, corpus, k), outcome in shared.generated_cases("offline/question_hits", build):
        shared.expect_outcome(lambda: learner.question_hits(evidence, ranking, corpus, k), outcome,
                              "Voor een extra gegenereerde ranking kloppen je treffers of je controle niet.")


@test("evaluate", "extra willekeurige testsets (offline)")
def more_evaluations(learner):
    cases = shared.generated_cases("offline/evaluate", lambda: _with(_cases, reference.evaluate))
    for (questions, rankings, corpus, k), outcome in cases:
        shared.expect_outcome(lambda: learner.evaluate(questions, rankings, corpus, k), outcome,
                              "Voor een extra gegenereerde testset kloppen je drie maten of je controle niet.")
