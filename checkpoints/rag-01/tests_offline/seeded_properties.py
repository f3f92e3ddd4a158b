"""Offline-only: many more seeded comparisons with the reference solution (never shipped to the site).

`reference` and `shared` are injected by runner.bundle.
"""

import random

from runner.testkit import test

SEEDS = range(1000, 1040)


@test("document_snapshots", "extra willekeurige documenten (offline)")
def more_random_records(learner):
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
        shared.expect_like_reference(
            lambda: learner.document_snapshots(records),
            lambda: reference.document_snapshots(records),
            "Voor een extra gegenereerde lijst documenten wijkt je uitkomst af van de regels.",
        )


@test("word_chunks", "extra willekeurige documenten en vensters (offline)")
def more_random_chunks(learner):
    for seed in SEEDS:
        rng = random.Random(seed)
        document = shared.random_document(rng, max_words=400)
        window, overlap = shared.random_window(rng)
        shared.expect_like_reference(
            lambda: learner.word_chunks(document, window, overlap),
            lambda: reference.word_chunks(document, window, overlap),
            "Voor een extra gegenereerd document kloppen de passages niet.",
        )


@test("chunk_coverage", "extra willekeurige passages (offline)")
def more_random_coverage(learner):
    for seed in SEEDS:
        rng = random.Random(seed)
        document = shared.random_document(rng, max_words=300)
        chunks = shared.random_chunk_selection(rng, document)
        if chunks and rng.random() < 0.3:
            victim = rng.randrange(len(chunks))
            field = rng.choice(["start", "end", "text", "word_end", "revision"])
            forged = dict(chunks[victim])
            forged[field] = {"start": forged["start"] + 1, "end": forged["end"] - 1, "text": forged["text"] + " ",
                             "word_end": forged["word_end"] + 1, "revision": "0" * 64}[field]
            chunks[victim] = forged
        shared.expect_like_reference(
            lambda: learner.chunk_coverage(document, chunks),
            lambda: reference.chunk_coverage(document, chunks),
            "Voor een extra gegenereerde set passages klopt de dekking of de controle niet.",
        )
