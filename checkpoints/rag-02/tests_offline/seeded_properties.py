"""Offline-only: more seeds and longer Markdown than the page spends its time on (never shipped).

`reference` and `shared` are injected by runner.core.bundle; the cases are built once per process.
"""

import random

from runner.core.testkit import test

SEEDS = range(3000, 3030)


def _heading_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        text = shared.random_markdown(rng, rng.randint(1, 80), safe=rng.random() < 0.3)
        cases.append((text, shared.outcome_of(lambda: reference.markdown_headings(text))))
    return cases


def _document_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        document = shared.random_document(rng, line_count=80)
        max_words, overlap = shared.random_sizes(rng)
        cases.append((document, max_words, overlap,
                      shared.outcome_of(lambda: reference.section_chunks(document)),
                      shared.outcome_of(lambda: reference.sized_chunks(document, max_words, overlap))))
    return cases


@test("markdown_headings", "meer willekeurige Markdown (offline)")
def more_headings(learner):
    for text, outcome in shared.generated_cases("offline/headings", _heading_cases):
        shared.expect_outcome(lambda: learner.markdown_headings(text), outcome,
                              "Voor langere gegenereerde Markdown kloppen je kopjes niet.")


@test("section_chunks", "meer willekeurige documenten (offline)")
def more_sections(learner):
    for document, _, _, outcome, _ in shared.generated_cases("offline/documents", _document_cases):
        shared.expect_outcome(lambda: learner.section_chunks(document), outcome,
                              "Voor langere gegenereerde documenten kloppen je secties niet.")


@test("sized_chunks", "meer willekeurige documenten en venstergroottes (offline)")
def more_windows(learner):
    for document, max_words, overlap, _, outcome in shared.generated_cases("offline/documents", _document_cases):
        shared.expect_outcome(lambda: learner.sized_chunks(document, max_words, overlap), outcome,
                              "Voor langere gegenereerde documenten kloppen je vensters niet.")
