"""Tests for checkpoint 3, byte_span_to_chars(text, byte_start, byte_end), which uses utf8_offsets.

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import CallShape, expect_equal, expect_value_error, returns, signature, test

SIGNATURE = signature("byte_span_to_chars(text, byte_start, byte_end)", CallShape(3))
CHECKPOINT = "byte_span_to_chars"
EXAMPLE = "café \U0001F642"


def span(learner, text, byte_start, byte_end, message="Deze tekst en bytegrenzen zijn geldig."):
    return returns(lambda: learner.byte_span_to_chars(text, byte_start, byte_end), message)


def rejects(learner, text, byte_start, byte_end, message):
    with expect_value_error(message):
        learner.byte_span_to_chars(text, byte_start, byte_end)


# --- the lesson's worked example (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: café 🙂, geldige bereiken", visible=True)
def example_valid(learner):
    expect_equal(learner.byte_span_to_chars(EXAMPLE, 3, 5), [3, 4], "Bytes 3 tot 5 zijn precies de é.")
    expect_equal(learner.byte_span_to_chars(EXAMPLE, 6, 10), [5, 6], "Bytes 6 tot 10 zijn precies de 🙂.")
    expect_equal(learner.byte_span_to_chars(EXAMPLE, 0, 0), [0, 0], "Een leeg bereik aan het begin mag.")


@test(CHECKPOINT, "voorbeeld: café 🙂, ongeldige bereiken", visible=True)
def example_invalid(learner):
    rejects(learner, EXAMPLE, 3, 4, "(3, 4) knipt de é doormidden: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 4, 3, "(4, 3) is omgekeerd: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 0, 11, "(0, 11) gaat voorbij de 10 bytes: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, True, 5, "True is geen int: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 3.0, 5, "3.0 is een float, geen int: dat moet een ValueError geven.")


# --- the rules, each on its own (hidden) ----------------------------------------------------


@test(CHECKPOINT, "elke aanroep begint opnieuw")
def no_state_between_calls(learner):
    first = span(learner, "\U0001F642a", 4, 5)
    expect_equal(span(learner, "\U0001F642a", 4, 5), first,
                 "Twee keer dezelfde vraag moet twee keer hetzelfde antwoord geven: onthoud niets tussen aanroepen.",
                 show=False)
    expect_equal(span(learner, "ab", 1, 2), [1, 2],
                 "Elke aanroep rekent met zijn eigen tekst, los van eerdere aanroepen.", show=False)
    rejects(learner, "ab\U0001F642", 3, 4, "Elke aanroep rekent met zijn eigen tekst: een grens midden in een "
                                            "codepunt moet een ValueError geven.")


@test(CHECKPOINT, "het hele bereik: van 0 tot het aantal bytes")
def whole_text(learner):
    expect_equal(span(learner, EXAMPLE, 0, 10), [0, 6],
                 "Het bereik van 0 tot het totale aantal bytes is de hele tekst.", show=False)


@test(CHECKPOINT, "een leeg bereik op elke grens")
def empty_spans(learner):
    for boundary, index in [(0, 0), (3, 3), (5, 4), (6, 5), (10, 6)]:
        expect_equal(span(learner, EXAMPLE, boundary, boundary, "Een leeg bereik op een grens is toegestaan."),
                     [index, index], "Een leeg bereik op een grens geeft twee keer hetzelfde codepunt.",
                     show=False)


@test(CHECKPOINT, "een lege tekst")
def empty_text(learner):
    expect_equal(span(learner, "", 0, 0, "In een lege tekst is (0, 0) het enige geldige bereik."), [0, 0],
                 "In een lege tekst is (0, 0) het lege bereik [0, 0].", show=False)
    rejects(learner, "", 0, 1, "Een lege tekst heeft geen bytes: byte_end 1 moet een ValueError geven.")


@test(CHECKPOINT, "byte_start midden in een codepunt")
def start_inside(learner):
    for text, byte_start, byte_end in [("é", 1, 2), ("a€", 2, 4), ("a€", 3, 4), ("\U0001F642", 1, 4),
                                       ("\U0001F642", 3, 4)]:
        rejects(learner, text, byte_start, byte_end,
                "Een byte_start midden in een codepunt moet een ValueError geven.")


@test(CHECKPOINT, "byte_end midden in een codepunt")
def end_inside(learner):
    for text, byte_start, byte_end in [("é", 0, 1), ("a€", 1, 2), ("a€", 1, 3), ("\U0001F642", 0, 2),
                                       ("\U0001F642", 0, 3)]:
        rejects(learner, text, byte_start, byte_end,
                "Een byte_end midden in een codepunt moet een ValueError geven.")


@test(CHECKPOINT, "bytegrenzen buiten de tekst")
def outside(learner):
    # Ook in een ASCII-tekst, waar een negatieve index als slice gewoon iets zou opleveren.
    for text, byte_start, byte_end in [(EXAMPLE, -1, 3), (EXAMPLE, 0, 11), (EXAMPLE, 11, 11), (EXAMPLE, -1, -1),
                                       (EXAMPLE, 0, -1), ("abc", -1, 3), ("abc", -2, -1)]:
        rejects(learner, text, byte_start, byte_end,
                "Een bytegrens voor 0 of na het laatste byte moet een ValueError geven.")


@test(CHECKPOINT, "byte_start na byte_end")
def reversed_span(learner):
    for byte_start, byte_end in [(5, 3), (10, 0), (1, 0)]:
        rejects(learner, EXAMPLE, byte_start, byte_end, "Een omgekeerd bereik moet een ValueError geven.")


@test(CHECKPOINT, "byte_start True of False is geen int")
def start_bool(learner):
    rejects(learner, EXAMPLE, True, 3, "byte_start True is geen int: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, False, 3, "byte_start False is geen int: dat moet een ValueError geven.")


@test(CHECKPOINT, "byte_end True of False is geen int")
def end_bool(learner):
    rejects(learner, EXAMPLE, 0, True, "byte_end True is geen int: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 0, False, "byte_end False is geen int: dat moet een ValueError geven.")


@test(CHECKPOINT, "byte_start 3.0 is geen int")
def start_float(learner):
    rejects(learner, EXAMPLE, 3.0, 5, "byte_start 3.0 is een float: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 0.0, 5, "byte_start 0.0 is een float: dat moet een ValueError geven.")


@test(CHECKPOINT, "byte_end 5.0 is geen int")
def end_float(learner):
    rejects(learner, EXAMPLE, 3, 5.0, "byte_end 5.0 is een float: dat moet een ValueError geven.")
    rejects(learner, EXAMPLE, 0, 0.0, "byte_end 0.0 is een float: dat moet een ValueError geven.")


@test(CHECKPOINT, "bytegrenzen van een ander type")
def other_types(learner):
    for byte_start, byte_end in [("3", 5), (None, 5), (3, "5"), (3, None), ([3], 5)]:
        rejects(learner, EXAMPLE, byte_start, byte_end, "Een bytegrens die geen int is, moet een ValueError geven.")


@test(CHECKPOINT, "text moet een str zijn")
def text_not_str(learner):
    for value in [None, 5, ["a"], True]:
        rejects(learner, value, 0, 0, "Als text geen str is, hoort er een ValueError.")


@test(CHECKPOINT, "een losse surrogaat in de tekst")
def lone_surrogates(learner):
    for text in ["\ud800", "a\udfff", "x\ude42\ud83d"]:
        rejects(learner, text, 0, 0, "Een tekst met een losse surrogaat is ongeldig: dat moet een ValueError geven.")


@test(CHECKPOINT, "grenzen bij tekens van 1, 2, 3 en 4 bytes")
def width_edges(learner):
    # U+007F, U+0080, U+07FF, U+0800, U+FFFF, U+10000: byte boundaries 0, 1, 3, 5, 8, 11, 15.
    text = "\x7f\x80\u07ff\u0800\uffff\U00010000"
    for index, (byte_start, byte_end) in enumerate([(0, 1), (1, 3), (3, 5), (5, 8), (8, 11), (11, 15)]):
        expect_equal(span(learner, text, byte_start, byte_end), [index, index + 1],
                     "Een codepunt kost 1 byte tot U+0080, 2 tot U+0800, 3 tot U+10000 en daarboven 4: "
                     "een bereik om één codepunt klopt niet.", show=False)
    for inner in [2, 4, 6, 7, 9, 10, 12, 13, 14]:
        rejects(learner, text, 0, inner, "Een grens midden in een codepunt van 2, 3 of 4 bytes moet een "
                                         "ValueError geven.")


@test(CHECKPOINT, "de helft van een vlag is een geldig bereik")
def half_a_flag(learner):
    text = "e\u0301 \U0001F1F3\U0001F1F1"
    expect_equal(span(learner, text, 4, 8), [3, 4],
                 "Een bereik om één codepunt van een samengesteld teken is geldig: grenzen liggen tussen "
                 "codepunten, niet tussen wat de lezer als teken ziet.", show=False)
    expect_equal(span(learner, text, 0, 1), [0, 1],
                 "De e zonder haar losse accent is een geldig bereik van één codepunt.", show=False)


@test(CHECKPOINT, "elke byte en elk paar grenzen van willekeurige teksten")
def generated(learner):
    for seed in range(12):
        text = shared.random_text(random.Random(seed), 6)
        boundaries = shared.byte_boundaries(text)
        for byte_start in boundaries:
            for byte_end in boundaries:
                if byte_start <= byte_end:
                    expect_equal(span(learner, text, byte_start, byte_end),
                                 reference.byte_span_to_chars(text, byte_start, byte_end),
                                 "Voor een tekst met tekens van 1 tot 4 bytes klopt een bereik niet.", show=False)
        for inner in shared.inner_bytes(text):
            rejects(learner, text, inner, boundaries[-1],
                    "Voor een tekst met tekens van 1 tot 4 bytes hoort een grens midden in een codepunt een "
                    "ValueError te geven.")
