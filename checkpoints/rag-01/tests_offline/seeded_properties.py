"""Offline-only: more seeded comparisons with the reference solution (never shipped to the site).

`reference` and `shared` are injected by runner.core.bundle. The cases and the reference's outcomes
are built once per grading process (`shared.generated_cases`), not once per submission.
"""

import random

from runner.core.testkit import test

# A modest extra margin on top of the shipped 12 seeds per checkpoint, with documents of up to
# 120 words (twice the shipped ones); the inputs at the size limits are in large_inputs.py.
SEEDS = range(1000, 1004)
FORGED_FIELDS = ["start", "end", "text", "word_end", "revision"]


def _record_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        records = [
            shared.record(
                f"d{index}",
                rng.choice([" x ", "Titel", "😀" * rng.randint(1, 100), "\u3000t"]),
                shared.random_text(rng, rng.randint(1, 80)),
            )
            for index in range(rng.randint(1, 32))
        ]
        if rng.random() < 0.3:
            victim = rng.randrange(len(records))
            records[victim] = dict(records[victim], text=rng.choice(["", " \xa0 ", "x" * 20001, "a\ud800"]))
        cases.append((records, shared.outcome_of(lambda: reference.document_snapshots(records))))
    return cases


def _chunk_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        document = shared.random_document(rng, max_words=120)
        window, overlap = shared.random_window(rng)
        cases.append((document, window, overlap, shared.outcome_of(lambda: reference.word_chunks(document, window, overlap))))
    return cases


def _forge(rng, chunk):
    field = rng.choice(FORGED_FIELDS)
    wrong = {
        "start": chunk["start"] + 1,
        "end": chunk["end"] - 1,
        "text": chunk["text"] + " ",
        "word_end": chunk["word_end"] + 1,
        "revision": "0" * 64,
    }[field]
    return dict(chunk, **{field: wrong})


def _coverage_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        document = shared.random_document(rng, max_words=120)
        chunks = shared.random_chunk_selection(rng, document)
        if chunks and rng.random() < 0.3:
            victim = rng.randrange(len(chunks))
            chunks[victim] = _forge(rng, chunks[victim])
        cases.append((document, chunks, shared.outcome_of(lambda: reference.chunk_coverage(document, chunks))))
    return cases


@test("document_snapshots", "extra willekeurige documenten (offline)")
def more_random_records(learner):
    for records, outcome in shared.generated_cases("offline/document_snapshots", _record_cases):
        shared.expect_outcome(
            lambda: learner.document_snapshots(records),
            outcome,
            "Voor een extra gegenereerde lijst documenten wijkt je uitkomst af van de regels.",
        )


@test("word_chunks", "extra willekeurige documenten en vensters (offline)")
def more_random_chunks(learner):
    for document, window, overlap, outcome in shared.generated_cases("offline/word_chunks", _chunk_cases):
        shared.expect_outcome(
            lambda: learner.word_chunks(document, window, overlap),
            outcome,
            "Voor een extra gegenereerd document kloppen de passages niet.",
        )


@test("chunk_coverage", "extra willekeurige passages (offline)")
def more_random_coverage(learner):
    for document, chunks, outcome in shared.generated_cases("offline/chunk_coverage", _coverage_cases):
        shared.expect_outcome(
            lambda: learner.chunk_coverage(document, chunks),
            outcome,
            "Voor een extra gegenereerde set passages klopt de dekking of de controle niet.",
        )
