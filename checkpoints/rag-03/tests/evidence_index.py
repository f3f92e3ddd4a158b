"""Tests for checkpoint 1, evidence_index(questions, corpus).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_new_objects,
    expect_no_mutation,
    expect_no_shared_objects,
    expect_value_error,
    fail,
    returns,
    signature,
    test,
)

SIGNATURE = signature("evidence_index(questions, corpus)", CallShape(2))

CHECKPOINT = "evidence_index"


def index_of(learner, questions, corpus, message):
    result = returns(lambda: learner.evidence_index(questions, corpus), message)
    if result is None:
        fail("evidence_index gaf None terug: geef de dict terug met return (print laat hem alleen zien).")
    if type(result) is not dict:
        fail("evidence_index geeft een dict terug.")
    return result


def rejects(learner, message, questions, corpus):
    with expect_value_error(message):
        learner.evidence_index(questions, corpus)


# --- the lesson's worked examples (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: de vier lampvragen", visible=True)
def example_lamp(learner):
    expect_equal(
        index_of(learner, shared.lamp_questions(), shared.LAMP_CORPUS, "De vier lampvragen zijn geldig."),
        {"q1": ["lamp-v1", 13, 26], "q2": ["lamp-v1", 41, 62], "q3": ["lamp-v1", 33, 53], "q4": ["lamp-v1", 33, 40]},
        "Het bewijs van de vier lampvragen klopt niet.",
    )


@test(CHECKPOINT, "voorbeeld: dezelfde tekst in twee versies", visible=True)
def example_tutorial(learner):
    expect_equal(
        index_of(learner, shared.TUTORIAL_QUESTIONS, shared.TUTORIAL_CORPUS, "De vraag uit het voorbeeld is geldig."),
        {"q1": ["manual-v1", 3, 7]},
        "Het bewijs van het voorbeeld klopt niet.",
    )


# --- the result --------------------------------------------------------------------------------


@test(CHECKPOINT, "de volgorde van de vragen blijft")
def keeps_order(learner):
    questions = shared.lamp_questions()[::-1]
    result = index_of(learner, questions, shared.LAMP_CORPUS, "De lampvragen in omgekeerde volgorde zijn geldig.")
    if list(result) != ["q4", "q3", "q2", "q1"]:
        fail("De sleutels staan in de volgorde van de vragen.")


@test(CHECKPOINT, "precies de span van het bewijs, met exacte ints")
def exact_spans(learner):
    result = index_of(learner, shared.lamp_questions(), shared.LAMP_CORPUS, "De vier lampvragen zijn geldig.")
    for question_id, span in result.items():
        if type(span) is not list or len(span) != 3 or type(span[0]) is not str \
                or type(span[1]) is not int or type(span[2]) is not int:
            fail("Elke waarde is een list [versie, start, end] met een str en twee ints.")
    expect_equal(result, reference.evidence_index(shared.lamp_questions(), shared.LAMP_CORPUS),
                 "Elke waarde is precies het bewijs van die vraag.", show=False)


@test(CHECKPOINT, "invoer niet veranderd, nieuwe lists")
def no_mutation(learner):
    learner.evidence_index(shared.lamp_questions(), shared.LAMP_CORPUS)
    expect_no_mutation(learner, "evidence_index mag de vragen en het corpus niet veranderen.")
    expect_new_objects(learner, "evidence_index geeft een nieuwe dict terug met nieuwe lists, niet de lists uit de vragen.")


@test(CHECKPOINT, "elke vraag krijgt een eigen list, ook bij hetzelfde bewijs")
def own_lists(learner):
    questions = shared.lamp_questions() + [shared.question("q5", shared.LAMP_EVIDENCE["q2"], shared.LAMP_CORPUS, "Nog eens?")]
    index_of(learner, questions, shared.LAMP_CORPUS, "Twee vragen met hetzelfde bewijs zijn geldig.")
    expect_no_shared_objects(learner, "Elke vraag krijgt een nieuwe list, ook twee vragen met hetzelfde bewijs: delen ze één list, "
                                      "dan verandert het bewijs van allebei zodra iemand er één aanpast.")


@test(CHECKPOINT, "tekenposities zijn codepunten")
def code_points(learner):
    corpus = {"emoji-v1": "😀 lamp 👩‍💻 aan 𝔘𝔫𝔦", "emoji-v2": "x"}
    questions = [shared.question("e1", ["emoji-v1", 2, 6], corpus), shared.question("e2", ["emoji-v1", 7, 12], corpus)]
    expect_equal(index_of(learner, questions, corpus, "Posities tellen codepunten, zoals Python-strings."),
                 {"e1": ["emoji-v1", 2, 6], "e2": ["emoji-v1", 7, 12]},
                 "Posities tellen codepunten, zoals Python-strings: een emoji is één teken.", show=False)
    rejects(learner, "Het citaat staat precies op de plek van het bewijs: met UTF-16-posities wijst het bewijs naar een andere plek en moet dat een ValueError geven.",
            [{"id": "e3", "question": "Wat?", "evidence": ["emoji-v1", 3, 7], "quote": "lamp"}], corpus)


# --- the rules ------------------------------------------------------------------------------------


@test(CHECKPOINT, "het citaat wordt niet genormaliseerd")
def quote_not_normalised(learner):
    corpus = shared.NORMALISATION_CORPUS
    for message, item, valid in shared.quote_normalisation_cases():
        if valid:
            expect_equal(index_of(learner, [item], corpus, message), {"n1": item["evidence"]},
                         message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, [item], corpus)



@test(CHECKPOINT, "het corpus volgt de regels")
def corpus_rules(learner):
    for message, corpus, valid in shared.corpus_rule_cases():
        questions = [shared.question("q1", ["v", 0, 1], {"v": "tekst"})]
        if valid:
            expect_equal(index_of(learner, questions, corpus, message), {"q1": ["v", 0, 1]}, message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, questions, corpus)


@test(CHECKPOINT, "elke vraag volgt de regels")
def question_rules(learner):
    for message, questions, valid in shared.question_rule_cases():
        if valid:
            expect_equal(index_of(learner, questions, shared.LAMP_CORPUS, message),
                         reference.evidence_index(questions, shared.LAMP_CORPUS), message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, questions, shared.LAMP_CORPUS)


@test(CHECKPOINT, "het bewijs is een geldige span")
def evidence_span_rules(learner):
    for message, span, valid in shared.span_rule_cases():
        questions = [{"id": "q1", "question": "Wat?", "evidence": span, "quote": shared.quote_for(span)}]
        if valid:
            expect_equal(index_of(learner, questions, shared.SPAN_CORPUS, message), {"q1": span}, message + shared.ACCEPTED_BUT_WRONG, show=False)
        else:
            rejects(learner, message, questions, shared.SPAN_CORPUS)


@test(CHECKPOINT, "een fout in een latere vraag telt ook")
def late_mistake(learner):
    questions = shared.lamp_questions() + [dict(shared.lamp_questions()[0], id="q5", quote="tien  seconden")]
    rejects(learner, "Eén fout citaat na vier goede vragen moet een ValueError geven.", questions, shared.LAMP_CORPUS)


# --- generated test sets compared with the reference ---------------------------------------------


def _cases():
    rng = random.Random(303)
    cases = []
    for _ in range(12):
        questions, _, corpus = shared.random_case(rng)
        if rng.random() < 0.4:
            victim = rng.randrange(len(questions))
            version, start, end = questions[victim]["evidence"]
            questions[victim] = dict(questions[victim], **rng.choice([
                {"quote": questions[victim]["quote"] + " "},
                {"evidence": [version, start, len(corpus[version]) + 1]},
                {"id": questions[0]["id"]} if victim else {"question": " "},
            ]))
        cases.append((questions, corpus, shared.outcome_of(lambda: reference.evidence_index(questions, corpus))))
    return cases


@test(CHECKPOINT, "willekeurige testsets, vergeleken met de voorbeeldoplossing")
def property_random_sets(learner):
    for questions, corpus, outcome in shared.generated_cases("evidence_index/303", _cases):
        shared.expect_outcome(lambda: learner.evidence_index(questions, corpus), outcome,
                              "Voor een gegenereerde testset (met emoji en versies met gelijke tekst) wijkt je uitkomst af.")
