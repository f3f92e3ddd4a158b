"""Tests for checkpoint 2, char_to_utf16(text, index).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import CallShape, expect_equal, expect_value_error, returns, signature, test

SIGNATURE = signature("char_to_utf16(text, index)", CallShape(2))
CHECKPOINT = "char_to_utf16"


def position(learner, text, index, message="Deze tekst en index zijn geldig."):
    return returns(lambda: learner.char_to_utf16(text, index), message)


def rejects(learner, text, index, message):
    with expect_value_error(message):
        learner.char_to_utf16(text, index)


# --- the lesson's worked examples (visible) -------------------------------------------------


@test(CHECKPOINT, "voorbeeld: café 🙂, index 0 tot en met 6", visible=True)
def example_cafe(learner):
    text = "café \U0001F642"
    expect_equal(
        [learner.char_to_utf16(text, index) for index in range(7)],
        [0, 1, 2, 3, 4, 5, 7],
        "De JavaScript-posities van het voorbeeld kloppen niet: 🙂 telt in UTF-16 voor twee.",
    )


@test(CHECKPOINT, "voorbeeld: het einde van e met los accent en de vlag", visible=True)
def example_flag_end(learner):
    expect_equal(learner.char_to_utf16("e\u0301 \U0001F1F3\U0001F1F1", 5), 7,
                 "Aan het eind van de tekst staan 7 UTF-16-eenheden: elke helft van de vlag telt voor twee.")


# --- the rules, each on its own (hidden) ----------------------------------------------------


@test(CHECKPOINT, "elke aanroep begint opnieuw")
def no_state_between_calls(learner):
    first = position(learner, "\U0001F642a", 2)
    expect_equal(position(learner, "\U0001F642a", 2), first,
                 "Twee keer dezelfde vraag moet twee keer hetzelfde antwoord geven: onthoud niets tussen aanroepen.",
                 show=False)
    expect_equal(position(learner, "ab", 1), 1,
                 "Elke aanroep telt vanaf 0, los van eerdere aanroepen.", show=False)


@test(CHECKPOINT, "index 0 is altijd positie 0")
def index_zero(learner):
    for text in ["", "\U0001F642", "abc"]:
        expect_equal(position(learner, text, 0), 0, "Vóór het eerste codepunt staan nul UTF-16-eenheden.",
                     show=False)


@test(CHECKPOINT, "het einde van de tekst mag")
def index_at_end(learner):
    expect_equal(position(learner, "a\U0001F642", 2, "index == len(text) is toegestaan: het einde van de tekst."),
                 3, "Aan het eind van de tekst tellen alle UTF-16-eenheden van de tekst mee.", show=False)


@test(CHECKPOINT, "tot en met U+FFFF één eenheid, daarboven twee")
def surrogate_pair_edge(learner):
    text = "\uffff\U00010000\U0010ffff\ue000"
    expect_equal([position(learner, text, index) for index in range(5)], [0, 1, 3, 5, 6],
                 "Een codepunt tot en met U+FFFF is één UTF-16-eenheid, een hoger codepunt twee.", show=False)


@test(CHECKPOINT, "UTF-16 telt geen bytes")
def not_bytes(learner):
    expect_equal(position(learner, "é€\u0800x", 3), 3,
                 "Tekens onder U+10000 zijn in UTF-16 één eenheid, ook al kosten ze in UTF-8 meer bytes.",
                 show=False)


@test(CHECKPOINT, "samengestelde tekens tellen per codepunt")
def clusters(learner):
    text = "e\u0301\U0001F44D\U0001F3FD"
    expect_equal([position(learner, text, index) for index in range(5)], [0, 1, 2, 4, 6],
                 "Een los accent is één eenheid en elk astraal codepunt twee, ook als de lezer één teken ziet.",
                 show=False)


@test(CHECKPOINT, "index voor het begin of na het einde")
def index_outside(learner):
    for text, index in [("abc", -1), ("abc", 4), ("", 1), ("", -1), ("\U0001F642", 2)]:
        rejects(learner, text, index, "Een index buiten 0 tot en met len(text) moet een ValueError geven.")


@test(CHECKPOINT, "index True of False is geen int")
def index_bool(learner):
    rejects(learner, "abc", True, "True is geen int voor een index: dat moet een ValueError geven.")
    rejects(learner, "abc", False, "False is geen int voor een index: dat moet een ValueError geven.")


@test(CHECKPOINT, "index 2.0 is geen int")
def index_float(learner):
    rejects(learner, "abc", 2.0, "2.0 is een float, geen int: dat moet een ValueError geven.")
    rejects(learner, "abc", 0.0, "0.0 is een float, geen int: dat moet een ValueError geven.")


@test(CHECKPOINT, "index van een ander type")
def index_other_type(learner):
    for value in ["1", None, [1]]:
        rejects(learner, "abc", value, "Een index die geen int is, moet een ValueError geven.")


@test(CHECKPOINT, "text moet een str zijn")
def text_not_str(learner):
    for value in [None, 5, ["a"], True]:
        rejects(learner, value, 0, "Als text geen str is, hoort er een ValueError.")


@test(CHECKPOINT, "een losse surrogaat ergens in de tekst")
def lone_surrogates(learner):
    for text, index in [("\ud800", 0), ("a\udfff", 1), ("ab\udbff", 0), ("\udc00b", 2), ("\ude42\ud83d", 1)]:
        rejects(learner, text, index,
                "Een tekst met een losse surrogaat is ongeldig, ook als die na de index staat: "
                "dat moet een ValueError geven.")


@test(CHECKPOINT, "net naast de surrogaten is een teken geldig")
def next_to_surrogates(learner):
    expect_equal(position(learner, "\ud7ff\ue000", 2), 2,
                 "U+D7FF en U+E000 zijn gewone codepunten van één UTF-16-eenheid.", show=False)


@test(CHECKPOINT, "willekeurige teksten, elke index")
def generated(learner):
    for seed in range(30):
        text = shared.random_text(random.Random(seed))
        for index in range(len(text) + 1):
            expect_equal(position(learner, text, index), reference.char_to_utf16(text, index),
                         "Voor een tekst met gewone en astrale tekens kloppen je posities niet.", show=False)
