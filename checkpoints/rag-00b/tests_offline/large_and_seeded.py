"""Offline-only: long texts and many more seeds than the page should spend its time on (never
shipped to the site). `reference` and `shared` are injected by runner.core.bundle."""

import random

from runner.core.testkit import expect_equal, expect_value_error, returns, test

# Every UTF-8 width and every kind of cluster, repeated: the running byte and UTF-16 counts must
# stay exact over almost twenty thousand code points.
LONG_TEXT = "".join(shared.PIECES) * 400


@test("utf8_offsets", "een tekst van bijna twintigduizend codepunten")
def long_offsets(learner):
    got = returns(lambda: learner.utf8_offsets(LONG_TEXT), "Een lange geldige tekst mag geen ValueError geven.")
    expect_equal(got, reference.utf8_offsets(LONG_TEXT), "Voor een heel lange tekst kloppen je rijen niet.",
                 show=False)


@test("utf8_offsets", "een losse surrogaat helemaal aan het eind van een lange tekst")
def long_surrogate(learner):
    with expect_value_error("Een losse surrogaat aan het eind van een lange tekst moet een ValueError geven."):
        learner.utf8_offsets(LONG_TEXT + "\udfff")


@test("char_to_utf16", "posities in een lange tekst")
def long_positions(learner):
    for index in [0, 1, len(LONG_TEXT) // 3, len(LONG_TEXT) - 1, len(LONG_TEXT)]:
        expect_equal(returns(lambda: learner.char_to_utf16(LONG_TEXT, index), "Deze index is geldig."),
                     reference.char_to_utf16(LONG_TEXT, index),
                     "In een heel lange tekst klopt een JavaScript-positie niet.", show=False)


@test("char_to_utf16", "vijfhonderd willekeurige teksten")
def many_positions(learner):
    rng = random.Random(2026)
    for _ in range(500):
        text = shared.random_text(rng, 20)
        index = rng.randint(0, len(text))
        expect_equal(returns(lambda: learner.char_to_utf16(text, index), "Deze index is geldig."),
                     reference.char_to_utf16(text, index),
                     "Voor een willekeurige tekst klopt een JavaScript-positie niet.", show=False)


@test("byte_span_to_chars", "bereiken in een lange tekst")
def long_spans(learner):
    total = len(LONG_TEXT.encode("utf-8"))
    for byte_start, byte_end in [(0, total), (total, total), (0, 0)]:
        expect_equal(returns(lambda: learner.byte_span_to_chars(LONG_TEXT, byte_start, byte_end), "Geldig bereik."),
                     reference.byte_span_to_chars(LONG_TEXT, byte_start, byte_end),
                     "In een heel lange tekst klopt een bereik niet.", show=False)
    with expect_value_error("Een grens net voor het eind, midden in een emoji, moet een ValueError geven."):
        learner.byte_span_to_chars(LONG_TEXT + "\U0001F642", 0, total + 3)


@test("byte_span_to_chars", "vijfhonderd willekeurige bereiken")
def many_spans(learner):
    rng = random.Random(2027)
    for _ in range(500):
        text = shared.random_text(rng, 10)
        total = len(text.encode("utf-8"))
        byte_start, byte_end = sorted([rng.randint(0, total), rng.randint(0, total)])
        try:
            expected = reference.byte_span_to_chars(text, byte_start, byte_end)
        except ValueError:
            with expect_value_error("Een grens midden in een codepunt moet een ValueError geven."):
                learner.byte_span_to_chars(text, byte_start, byte_end)
            continue
        expect_equal(returns(lambda: learner.byte_span_to_chars(text, byte_start, byte_end), "Geldig bereik."),
                     expected, "Voor een willekeurige tekst klopt een bereik niet.", show=False)
