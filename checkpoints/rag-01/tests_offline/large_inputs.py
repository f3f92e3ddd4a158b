"""Offline-only: one input at the size limits per checkpoint (never shipped to the site).

The long text is built to be sharp rather than merely big: 10000 one-character words (the most a
valid text can hold), among them astral emoji and accented letters, separated by single
whitespace characters that cycle through ASCII and Unicode whitespace. Offsets past an emoji
expose byte or UTF-16 counting; a split on " " alone merges words. `reference` and `shared` are
injected by runner.core.bundle.
"""

from runner.core.testkit import expect_equal, test

# One word in four is not ASCII and about half the separators are not a plain space (Unicode
# and control whitespace): enough to shift every offset past the first few words, while the JSON
# that carries the text (non-ASCII travels as \u escapes) stays small. The cycle lengths are
# coprime, so every word meets every separator.
LONG_WORDS = ["a", "b", "😀", "c", "d", "é", "e", "f", "𝔘", "g", "h", "漢"]
LONG_SEPARATORS = [" ", "\u3000", " ", " ", "\n", " ", "\xa0", " ", "\t", " ", "\u2028", " ", "\x1f"]


def longest_text(word_count=10000):
    # word_count words and word_count - 1 separators: 19999 characters for 10000 words.
    words = (LONG_WORDS[i % len(LONG_WORDS)] for i in range(word_count))
    return "".join(
        word + (LONG_SEPARATORS[i % len(LONG_SEPARATORS)] if i < word_count - 1 else "")
        for i, word in enumerate(words)
    )


def longest_document():
    return shared.snapshot("lang", "Lang", longest_text())


def _records_case():
    text = longest_text()
    # The limits at once: 32 documents with 100-character titles; the first and the last hold
    # 20000 characters (the digit in front makes their revisions differ), the rest one word.
    records = [shared.record(f"d{i}", "Ω" * 100, f"woord{i}") for i in range(32)]
    for index in (0, 31):
        records[index]["text"] = (str(index) + text)[:20000]
    return [(records, reference.document_snapshots(records))]


def _window_case():
    document = longest_document()
    return [(document, reference.word_chunks(document, 256, 200))]


def _coverage_case():
    document = longest_document()
    # Overlapping chunks with every third and the last ten left out, in reverse order: duplicated
    # words, an uncovered tail and offsets far past many astral characters.
    chunks = reference.word_chunks(document, 256, 200)[:-10]
    chunks = [chunk for index, chunk in enumerate(chunks) if index % 3 != 1][::-1]
    return [(document, chunks, reference.chunk_coverage(document, chunks))]


@test("document_snapshots", "32 documenten van 20000 tekens (offline)")
def largest_records(learner):
    [(records, expected)] = shared.generated_cases("offline/largest_records", _records_case)
    expect_equal(
        learner.document_snapshots(records),
        expected,
        "32 documenten van 20000 tekens geven niet de juiste snapshots.",
        show=False,
    )


@test("word_chunks", "grootste venster over de langste tekst (offline)")
def widest_windows(learner):
    [(document, expected)] = shared.generated_cases("offline/widest_windows", _window_case)
    expect_equal(
        learner.word_chunks(document, 256, 200),
        expected,
        "Venster 256 met overlap 200 over 10000 woorden met emoji en Unicode-witruimte klopt niet.",
        show=False,
    )


@test("chunk_coverage", "passages over de langste tekst, door elkaar (offline)")
def long_text_coverage(learner):
    [(document, chunks, expected)] = shared.generated_cases("offline/long_text_coverage", _coverage_case)
    expect_equal(
        learner.chunk_coverage(document, chunks),
        expected,
        "De dekking van passages over een tekst van 10000 woorden klopt niet.",
        show=False,
    )


def _most_chunks_case():
    # 10000 one-word chunks over 10000 words: the most valid chunks a text of 20000 characters can
    # have (ids are unique, so one per start word). A limit below 20000 that was mistyped (2000)
    # or guessed (the 10000 words) refuses them; no shipped test is this large.
    document = shared.snapshot("veel", "Veel", longest_text())
    chunks = reference.word_chunks(document, 1, 0)
    return [(document, chunks, reference.chunk_coverage(document, chunks))]


@test("chunk_coverage", "10000 passages van één woord (offline)")
def most_chunks(learner):
    [(document, chunks, expected)] = shared.generated_cases("offline/most_chunks", _most_chunks_case)
    expect_equal(
        learner.chunk_coverage(document, chunks),
        expected,
        "10000 geldige passages van één woord moeten lukken: er mogen er tot 20000 zijn.",
        show=False,
    )


def _one_word_windows_case():
    # 10000 chunks of one word: the most word_chunks can return. A function that recurses once per
    # chunk runs out of Python's recursion depth (1000) long before that; no shipped test is this large.
    document = shared.snapshot("per-woord", "Per woord", longest_text())
    return [(document, reference.word_chunks(document, 1, 0))]


@test("word_chunks", "venster 1 over de langste tekst (offline)")
def one_word_windows(learner):
    [(document, expected)] = shared.generated_cases("offline/one_word_windows", _one_word_windows_case)
    expect_equal(
        learner.word_chunks(document, 1, 0),
        expected,
        "Venster 1 zonder overlap over 10000 woorden geeft 10000 passages van één woord.",
        show=False,
    )
