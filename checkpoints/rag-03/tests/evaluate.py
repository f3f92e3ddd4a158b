"""Tests for checkpoint 3, evaluate(questions, rankings, corpus, k=5).

`reference` and `shared` are injected by runner.core.bundle.
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
    signature,
    test,
)

SIGNATURE = signature(
    "evaluate(questions, rankings, corpus, k=5)",
    CallShape(3),
    CallShape(4),
    CallShape(3, ("k",)),
)

CHECKPOINT = "evaluate"
LAMP = shared.LAMP_CORPUS


def result_of(learner, message, *args, **kwargs):
    result = returns(lambda: learner.evaluate(*args, **kwargs), message)
    problem = shared.shape_problem(result, shared.RESULT_ORDER, "evaluate")
    if problem:
        fail(problem)
    return result


def expect_result(learner, message, expected, *args, **kwargs):
    result = result_of(learner, message, *args, **kwargs)
    if not shared.same_result(result, expected):
        fail(message + shared.differing_keys(result, expected))


def expect_accepted(learner, message, expected, *args, **kwargs):
    """A rule's valid side: no ValueError (the rule's message), and then the right answer."""
    result = result_of(learner, message, *args, **kwargs)
    if not shared.same_result(result, expected):
        fail(message + shared.ACCEPTED_BUT_WRONG + shared.differing_keys(result, expected))


def rejects(learner, message, *args, **kwargs):
    with expect_value_error(message):
        learner.evaluate(*args, **kwargs)


def measures(n, k, single, union, mrr):
    return {"questions": n, "k": k, "single_hit_at_k": single, "union_hit_at_k": union, "single_mrr_at_k": mrr}


# --- the lesson's worked examples (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: dezelfde tekst in een andere versie, k=3", visible=True)
def example_tutorial(learner):
    expect_equal(
        result_of(learner, "Het voorbeeld is geldig.", shared.TUTORIAL_QUESTIONS, shared.TUTORIAL_RANKINGS, shared.TUTORIAL_CORPUS, 3),
        measures(1, 3, 0.0, 1.0, 0.0),
        "Single hit 0.0, union hit 1.0 en MRR 0.0: de eerste span staat in een ander document.",
    )


@test(CHECKPOINT, "voorbeeld: de vier lampvragen bij k=1, 2 en 5", visible=True)
def example_lamp(learner):
    got = {k: result_of(learner, "De lampvragen zijn geldig.", shared.lamp_questions(), shared.lamp_rankings(), LAMP, k) for k in (1, 2, 5)}
    expect_equal(got, {1: measures(4, 1, 0.25, 0.25, 0.25), 2: measures(4, 2, 0.5, 0.75, 0.375), 5: measures(4, 5, 0.5, 0.75, 0.375)},
                 "De drie maten van de lampvragen kloppen niet.")


# --- the measures --------------------------------------------------------------------------------


@test(CHECKPOINT, "MRR: 1, 1/2 en 1/4, en 0 voor een misser")
def reciprocal_ranks(learner):
    corpus = {"doc-v1": "abcdefghij", "doc-v2": "abcdefghij"}
    questions = [shared.question(f"q{index}", ["doc-v1", index, index + 1], corpus) for index in range(4)]
    rankings = {
        "q0": [["doc-v1", 0, 3]],
        "q1": [["doc-v2", 0, 10], ["doc-v1", 1, 2]],
        "q2": [["doc-v1", 5, 6], ["doc-v1", 6, 7], ["doc-v2", 2, 3], ["doc-v1", 0, 10]],
        "q3": [["doc-v2", 3, 4]],
    }
    expect_result(learner, "Plekken 1, 2 en 4 en een misser geven een MRR van (1 + 1/2 + 1/4 + 0) / 4.",
                  measures(4, 5, 0.75, 0.75, 0.4375), questions, rankings, corpus)
    expect_result(learner, "Bij k=3 valt de treffer op plek 4 weg.", measures(4, 3, 0.5, 0.5, 0.375), questions, rankings, corpus, 3)


@test(CHECKPOINT, "een vraag telt één keer, ook met twee treffers")
def one_count_per_question(learner):
    corpus = {"doc-v1": "abcdefghij"}
    questions = [shared.question("a", ["doc-v1", 2, 4], corpus), shared.question("b", ["doc-v1", 6, 8], corpus, "Nog eens?")]
    expected = measures(2, 5, 0.5, 0.5, 0.25)
    # The same test set with only the first containing span: a learner who already gets this wrong
    # has another mistake, which the other tests name; only a difference here means counting twice.
    single = {"a": [["doc-v1", 0, 1], ["doc-v1", 1, 5], ["doc-v1", 5, 6], ["doc-v1", 6, 7]], "b": [["doc-v1", 0, 2]]}
    if not shared.same_result(result_of(learner, "Deze testset is geldig.", questions, single, corpus), expected):
        return
    rankings = {"a": [["doc-v1", 0, 1], ["doc-v1", 1, 5], ["doc-v1", 0, 10], ["doc-v1", 2, 4]], "b": [["doc-v1", 0, 2]]}
    expect_result(learner, "Een vraag met meer spans die het bewijs bevatten telt één keer, met de plek van de eerste.",
                  expected, questions, rankings, corpus)


@test(CHECKPOINT, "geen geheugen tussen aanroepen")
def no_state_between_calls(learner):
    empty = {question_id: [] for question_id in shared.LAMP_EVIDENCE}
    message = "Elke aanroep telt alleen zijn eigen vragen en rankings: onthoud niets tussen aanroepen (geen globale teller of cache)."
    # k=3: no earlier test sends the lamp questions with it, so a cache starts empty here.
    got = [result_of(learner, "De lampvragen zijn geldig.", shared.lamp_questions(), rankings, LAMP, 3)
           for rankings in (empty, shared.lamp_rankings(), empty, shared.lamp_rankings())]
    # Only blame memory when it shows: a repeat that differs, or the first answer again for other
    # rankings. A wrong answer given the same way every time is left to the tests of its rule.
    repeat_differs = not shared.same_result(got[0], got[2]) or not shared.same_result(got[1], got[3])
    copied_first = shared.same_result(got[0], measures(4, 3, 0.0, 0.0, 0.0)) and shared.same_result(got[1], got[0])
    if repeat_differs or copied_first:
        fail(message)


@test(CHECKPOINT, "de maten worden niet afgerond")
def not_rounded(learner):
    corpus = {"doc-v1": "abcdefghij"}
    questions = [shared.question(f"q{index}", ["doc-v1", index, index + 1], corpus) for index in range(3)]
    rankings = {"q0": [["doc-v1", 5, 6], ["doc-v1", 6, 7], ["doc-v1", 0, 3]], "q1": [], "q2": [["doc-v1", 0, 1]]}
    expect_result(learner, "Eén treffer op plek 3 bij drie vragen geeft 1/3 en een MRR van 1/9, als float en niet afgerond.",
                  measures(3, 5, 1 / 3, 1 / 3, 1 / 9), questions, rankings, corpus)


@test(CHECKPOINT, "union hit zonder single hit, en een gat")
def union_without_single(learner):
    corpus = {"doc-v1": "0123456789"}
    questions = [shared.question("a", ["doc-v1", 2, 8], corpus), shared.question("b", ["doc-v1", 2, 8], corpus, "Nog eens?")]
    rankings = {"a": [["doc-v1", 0, 5], ["doc-v1", 5, 9]], "b": [["doc-v1", 0, 4], ["doc-v1", 5, 9]]}
    expect_result(learner, "Aansluitende spans geven een union hit; een gat van één teken niet.", measures(2, 5, 0.0, 0.5, 0.0), questions, rankings, corpus)


@test(CHECKPOINT, "de maten zijn floats, ook als de deling precies uitkomt")
def exact_types(learner):
    result = result_of(learner, "Het voorbeeld is geldig.", shared.TUTORIAL_QUESTIONS, shared.TUTORIAL_RANKINGS, shared.TUTORIAL_CORPUS, 3)
    for key in ("single_hit_at_k", "union_hit_at_k", "single_mrr_at_k"):
        if type(result[key]) is not float:
            fail(f"{key} is een float, ook als hij 0 of 1 is.")
    if type(result["questions"]) is not int or type(result["k"]) is not int:
        fail("questions en k zijn ints.")
    rankings = {"q1": [["manual-v1", 0, 10]]}
    expect_equal(result_of(learner, "Het voorbeeld is geldig.", shared.TUTORIAL_QUESTIONS, rankings, shared.TUTORIAL_CORPUS),
                 measures(1, 5, 1.0, 1.0, 1.0), "Een treffer op plek 1 geeft 1.0 voor alle drie de maten.", show=False)


@test(CHECKPOINT, "k is standaard 5")
def default_k(learner):
    rankings = shared.lamp_rankings()
    rankings["q4"] = [["lamp-v1", start, start + 1] for start in range(5)] + [["lamp-v1", 33, 40]]
    expect_result(learner, "Zonder k telt evaluate de eerste 5 spans en geeft k=5 terug.", measures(4, 5, 0.5, 0.75, 0.375),
                  shared.lamp_questions(), rankings, LAMP)


@test(CHECKPOINT, "een lege ranking telt mee als misser")
def empty_rankings(learner):
    rankings = {question_id: [] for question_id in shared.LAMP_EVIDENCE}
    expect_result(learner, "Lege rankings zijn missers: alle drie de maten zijn 0.0 en questions blijft 4.", measures(4, 5, 0.0, 0.0, 0.0),
                  shared.lamp_questions(), rankings, LAMP)


@test(CHECKPOINT, "invoer niet veranderd")
def no_mutation(learner):
    learner.evaluate(shared.lamp_questions(), shared.lamp_rankings(), LAMP, 2)
    expect_no_mutation(learner, "evaluate mag de vragen, de rankings en het corpus niet veranderen.")
    expect_new_objects(learner, "evaluate geeft een nieuwe dict terug.")
    # Vragen en spans die niet op volgorde staan: sorteren (ook na het tellen) verandert ze dan wel.
    rankings = {qid: ranking[::-1] for qid, ranking in shared.lamp_rankings().items()}
    learner.evaluate(shared.lamp_questions()[::-1], rankings, LAMP, 2)
    expect_no_mutation(learner, "evaluate mag de vragen en de rankings niet veranderen, ook niet sorteren.")


# --- the rankings ----------------------------------------------------------------------------------


@test(CHECKPOINT, "precies één ranking per vraag")
def rankings_keys(learner):
    questions = shared.lamp_questions()
    missing = shared.lamp_rankings()
    del missing["q4"]
    rejects(learner, "Een ontbrekende ranking is een fout, geen lege ranking.", questions, missing, LAMP)
    extra = dict(shared.lamp_rankings(), q5=[])
    rejects(learner, "Een ranking voor een vraag die niet bestaat moet een ValueError geven.", questions, extra, LAMP)
    swapped = shared.lamp_rankings()
    swapped["Q4"] = swapped.pop("q4")
    rejects(learner, "Een ranking onder een ander id dan de vraag moet een ValueError geven.", questions, swapped, LAMP)
    rejects(learner, "rankings is een dict: een list moet een ValueError geven.", questions, list(shared.lamp_rankings().values()), LAMP)
    rejects(learner, "rankings is een dict: None moet een ValueError geven.", questions, None, LAMP)
    rejects(learner, "Een ranking die None is moet een ValueError geven.", questions, dict(shared.lamp_rankings(), q4=None), LAMP)


@test(CHECKPOINT, "elke ranking wordt gecontroleerd, ook voorbij k")
def ranking_rules(learner):
    questions = [shared.question("q2", ["lamp-v1", 41, 62], LAMP)]
    for message, ranking, valid in shared.ranking_rule_cases():
        if valid:
            expected = reference.evaluate(questions, {"q2": ranking}, LAMP, 2)
            expect_accepted(learner, message, expected, questions, {"q2": ranking}, LAMP, 2)
        else:
            rejects(learner, message, questions, {"q2": ranking}, LAMP, 2)


@test(CHECKPOINT, "k is een int van 1 tot en met 100")
def k_rules(learner):
    for k, valid in shared.K_CASES:
        message = f"k={k!r} {'mag' if valid else 'moet een ValueError geven'}."
        if valid:
            expect_accepted(learner, message, reference.evaluate(shared.lamp_questions(), shared.lamp_rankings(), LAMP, k),
                          shared.lamp_questions(), shared.lamp_rankings(), LAMP, k)
        else:
            rejects(learner, message, shared.lamp_questions(), shared.lamp_rankings(), LAMP, k)


# --- the rules of checkpoint 1 and 2 ----------------------------------------------------------------


@test(CHECKPOINT, "de vragen volgen de regels van checkpoint 1")
def question_rules(learner):
    for message, questions, valid in shared.question_rule_cases():
        ids = [item["id"] for item in questions if isinstance(item, dict) and isinstance(item.get("id"), str)] \
            if isinstance(questions, list) else []
        rankings = {question_id: [["lamp-v1", 33, 40]] for question_id in ids}
        if valid:
            expect_accepted(learner, message, reference.evaluate(questions, rankings, LAMP), questions, rankings, LAMP)
        else:
            rejects(learner, message, questions, rankings, LAMP)


@test(CHECKPOINT, "het citaat wordt niet genormaliseerd")
def quote_not_normalised(learner):
    corpus = shared.NORMALISATION_CORPUS
    for message, item, valid in shared.quote_normalisation_cases():
        rankings = {"n1": [list(item["evidence"])]}
        if valid:
            expect_accepted(learner, message, measures(1, 5, 1.0, 1.0, 1.0), [item], rankings, corpus)
        else:
            rejects(learner, message, [item], rankings, corpus)


@test(CHECKPOINT, "het corpus volgt de regels")
def corpus_rules(learner):
    for message, corpus, valid in shared.corpus_rule_cases():
        questions = [shared.question("q1", ["v", 0, 1], {"v": "tekst"})]
        rankings = {"q1": [["v", 0, 5]]}
        if valid:
            expect_accepted(learner, message, measures(1, 5, 1.0, 1.0, 1.0), questions, rankings, corpus)
        else:
            rejects(learner, message, questions, rankings, corpus)


@test(CHECKPOINT, "elke span is een geldige span")
def span_rules(learner):
    for message, span, valid in shared.span_rule_cases():
        questions = [{"id": "q1", "question": "Wat?", "evidence": ["w", 0, 1], "quote": "t"}]
        if valid:
            expect_accepted(learner, message, measures(1, 1, 0.0, 0.0, 0.0), questions, {"q1": [span]}, shared.SPAN_CORPUS, 1)
        else:
            rejects(learner, message + " Dat geldt ook voor een span voorbij k.", questions, {"q1": [["w", 0, 5], span]}, shared.SPAN_CORPUS, 1)


# --- generated test sets compared with the reference ---------------------------------------------


def _cases():
    rng = random.Random(707)
    cases = []
    for _ in range(12):
        questions, rankings, corpus = shared.random_case(rng)
        k = rng.choice([1, 2, 3, 5, 10, 100])
        roll = rng.random()
        if roll < 0.15:
            del rankings[rng.choice(sorted(rankings))]
        elif roll < 0.3:
            victim = rng.choice(sorted(rankings))
            if rankings[victim]:
                rankings[victim] = rankings[victim] + [rankings[victim][0]]
        cases.append((questions, rankings, corpus, k, shared.outcome_of(lambda: reference.evaluate(questions, rankings, corpus, k))))
    return cases


@test(CHECKPOINT, "willekeurige testsets, vergeleken met de voorbeeldoplossing")
def property_random_sets(learner):
    for questions, rankings, corpus, k, outcome in shared.generated_cases("evaluate/707", _cases):
        shared.expect_outcome(lambda: learner.evaluate(questions, rankings, corpus, k), outcome,
                              "Voor een gegenereerde testset kloppen je drie maten of je controle niet.")
