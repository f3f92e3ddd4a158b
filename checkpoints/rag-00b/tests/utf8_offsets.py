"""Tests for checkpoint 1, utf8_offsets(text).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_no_shared_objects,
    expect_value_error,
    returns,
    signature,
    test,
)

SIGNATURE = signature("utf8_offsets(text)", CallShape(1))
CHECKPOINT = "utf8_offsets"


def offsets(learner, text, message):
    return returns(lambda: learner.utf8_offsets(text), message)


def rejects(learner, text, message):
    with expect_value_error(message):
        learner.utf8_offsets(text)


# --- the lesson's worked examples (visible) -------------------------------------------------


@test(CHECKPOINT, "voorbeeld: café 🙂", visible=True)
def example_cafe(learner):
    expect_equal(
        learner.utf8_offsets("café \U0001F642"),
        [[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 3, 5], [4, 5, 6], [5, 6, 10]],
        "De bytes van het voorbeeld kloppen niet: é kost 2 bytes en 🙂 kost er 4.",
    )


@test(CHECKPOINT, "voorbeeld: e met los accent en de Nederlandse vlag", visible=True)
def example_flag(learner):
    expect_equal(
        learner.utf8_offsets("e\u0301 \U0001F1F3\U0001F1F1"),
        [[0, 0, 1], [1, 1, 3], [2, 3, 4], [3, 4, 8], [4, 8, 12]],
        "Elk codepunt krijgt een eigen rij, ook het losse accent en elke helft van de vlag.",
    )


# --- the rules, each on its own (hidden) ----------------------------------------------------


@test(CHECKPOINT, "elke aanroep begint opnieuw")
def no_state_between_calls(learner):
    first = offsets(learner, "ab", "Een geldige tekst moet een lijst geven.")
    expect_equal(offsets(learner, "ab", "Een geldige tekst moet een lijst geven."), first,
                 "Twee keer dezelfde tekst moet twee keer hetzelfde geven: onthoud niets tussen aanroepen.",
                 show=False)
    expect_equal(offsets(learner, "\U0001F642", "Een geldige tekst moet een lijst geven."), [[0, 0, 4]],
                 "Elke aanroep telt vanaf byte 0 en index 0, los van eerdere aanroepen.", show=False)


@test(CHECKPOINT, "een lege tekst geeft een lege lijst")
def empty_text(learner):
    expect_equal(offsets(learner, "", "Een lege tekst is geldig."), [],
                 "Een lege tekst heeft geen codepunten, dus geen rijen.", show=False)


@test(CHECKPOINT, "ASCII: één byte per teken")
def ascii_text(learner):
    expect_equal(offsets(learner, "ab c", "Een ASCII-tekst is geldig."),
                 [[0, 0, 1], [1, 1, 2], [2, 2, 3], [3, 3, 4]],
                 "Een ASCII-teken kost precies één byte.", show=False)


@test(CHECKPOINT, "twee bytes vanaf U+0080")
def two_byte_edge(learner):
    expect_equal(offsets(learner, "\x7f\x80\u07ff", "Deze tekst is geldig."),
                 [[0, 0, 1], [1, 1, 3], [2, 3, 5]],
                 "Tot en met U+007F is een codepunt één byte, van U+0080 tot en met U+07FF twee.",
                 show=False)


@test(CHECKPOINT, "drie bytes vanaf U+0800")
def three_byte_edge(learner):
    expect_equal(offsets(learner, "\u07ff\u0800\uffff", "Deze tekst is geldig."),
                 [[0, 0, 2], [1, 2, 5], [2, 5, 8]],
                 "Van U+0800 tot en met U+FFFF is een codepunt drie bytes.", show=False)


@test(CHECKPOINT, "vier bytes vanaf U+10000")
def four_byte_edge(learner):
    expect_equal(offsets(learner, "\uffff\U00010000\U0010ffff", "Deze tekst is geldig."),
                 [[0, 0, 3], [1, 3, 7], [2, 7, 11]],
                 "Vanaf U+10000 is een codepunt vier bytes, tot en met het laatste, U+10FFFF.", show=False)


@test(CHECKPOINT, "net naast de surrogaten is een teken geldig")
def next_to_surrogates(learner):
    expect_equal(offsets(learner, "\ud7ff\ue000", "U+D7FF en U+E000 zijn geen surrogaten."),
                 [[0, 0, 3], [1, 3, 6]],
                 "U+D7FF en U+E000 zijn gewone codepunten van drie bytes.", show=False)


@test(CHECKPOINT, "samengestelde tekens: een rij per codepunt")
def clusters(learner):
    text = "\U0001F44D\U0001F3FD\U0001F469\u200d\U0001F4BB"
    expect_equal(offsets(learner, text, "Deze tekst is geldig."),
                 [[0, 0, 4], [1, 4, 8], [2, 8, 12], [3, 12, 15], [4, 15, 19]],
                 "Een emoji met huidskleur of een samengestelde emoji is meer dan één codepunt: "
                 "elk codepunt krijgt zijn eigen rij.", show=False)


@test(CHECKPOINT, "een losse surrogaat geeft een ValueError")
def lone_surrogates(learner):
    for text in ["\ud800", "a\udfff", "\udbffb", "ab\udc00"]:
        rejects(learner, text, "Een losse surrogaat (U+D800 tot en met U+DFFF) heeft geen UTF-8-codering: "
                               "dat moet een ValueError geven.")


@test(CHECKPOINT, "text moet een str zijn")
def text_not_str(learner):
    for value in [None, 5, ["a", "b"], True]:
        rejects(learner, value, "Als text geen str is, hoort er een ValueError.")


@test(CHECKPOINT, "elke rij is een eigen lijst van drie ints")
def own_rows(learner):
    got = offsets(learner, "aé\U0001F642", "Deze tekst is geldig.")
    expect_no_shared_objects(learner, "Elke rij moet een eigen nieuwe lijst zijn, niet één gedeelde lijst.")
    expect_equal(got, [[0, 0, 1], [1, 1, 3], [2, 3, 7]],
                 "Elke rij is [index, byte_start, byte_end], drie ints.", show=False)


@test(CHECKPOINT, "de bytes van elke rij zijn precies dat codepunt")
def slices_match(learner):
    for seed in range(30):
        text = shared.random_text(random.Random(seed))
        expect_equal(offsets(learner, text, "Deze tekst is geldig."), reference.utf8_offsets(text),
                     "Voor een tekst met tekens van 1 tot 4 bytes kloppen je rijen niet.", show=False)


@test(CHECKPOINT, "een lange tekst")
def long_text(learner):
    text = "".join(shared.PIECES) * 40
    expect_equal(offsets(learner, text, "Deze tekst is geldig."), reference.utf8_offsets(text),
                 "Voor een lange tekst met tekens van 1 tot 4 bytes kloppen je rijen niet.", show=False)
