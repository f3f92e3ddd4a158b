"""Offline-only: inputs at the size limits, too slow to ship to every learner's browser.

`reference` and `shared` are injected by runner.bundle.
"""

from runner.testkit import expect_equal, test


def longest_document():
    # 10000 one-letter words in 19999 characters: the most words a valid text can hold.
    return shared.snapshot("lang", "Lang", " ".join("abcdefghij"[i % 10] for i in range(10000)))


@test("word_chunks", "10000 woorden met venster 1 (offline)")
def ten_thousand_chunks(learner):
    document = longest_document()
    expect_equal(
        learner.word_chunks(document, 1, 0),
        reference.word_chunks(document, 1, 0),
        "Een tekst van 10000 woorden met venster 1 geeft 10000 passages.",
        show=False,
    )


@test("word_chunks", "grootste venster over de langste tekst (offline)")
def widest_windows(learner):
    document = longest_document()
    expect_equal(
        learner.word_chunks(document, 256, 200),
        reference.word_chunks(document, 256, 200),
        "Venster 256 met overlap 200 over 10000 woorden klopt niet.",
        show=False,
    )


@test("chunk_coverage", "10000 passages (offline)")
def ten_thousand_chunk_audit(learner):
    document = longest_document()
    chunks = reference.word_chunks(document, 1, 0)[::-1]
    expect_equal(
        learner.chunk_coverage(document, chunks),
        reference.chunk_coverage(document, chunks),
        "De dekking van 10000 passages klopt niet.",
        show=False,
    )
