"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-02`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function: first every
trap of the heading rules and every rule of the snapshot once, on both sides of each limit, then
seeded random Markdown. The run calls the reference and each mutant listed as equivalent with all
of them; one different outcome makes the listing invalid. Never shipped. `reference` and `shared`
are injected as in the tests; the rng is seeded by the runner.
"""

CALLS_PER_CHECKPOINT = 300
EXTRA_TEXTS = [
    "", " ", "\n", "x", "#", "# ", "#\t", "# #", "##  ##  ", "# foo#", "# foo \t##  ", "### ### ###", "# a # b",
    "# x\xa0", "#\u3000x", " \t# x", "# C#", "# kop ###x", "```", "~~~", "```\n", "````\n```", "~~~ `\n# x\n~~~",
    "\r", "\r\n", "# a\r", "# a\r\r", "x" * 20000, "# k\n" + "x" * 19996, "x" * 20001, "# k\n" + "x" * 19997,
    "# A\n## B\n### C\nc\n## D\nd\n### E\ne\n# F\nf\n#### G\ng", "# A\n### C\nc\n## B\nb\n###### F\nf",
    "  Inleiding\n\n# A\na", " \n\t\n# A\na", "# Titel\n## Leeg\n  \n## Vol\ntekst\n### Ook leeg\n",
    "# A\n\u3000\x85 eerste  regel\n\n\ttweede\x1c\u2028\n\xa0\n## B\n\x1d\x1e\x1f", "# A\na\n## B", "#\n## #\ntekst",
    "😀 intro 👩‍💻\n# 𝔘𝔫𝔦\n\n 漢字 😀 \n", "inleiding\n# A\n## B\nb", "#\nx", "# Leeg\n# A\na b c\n## Leeg\n# B\nd",
]
BAD_TEXTS = [None, 7, True, ["# k"], {"text": "# k"}, 2.5]


def _texts():
    return list(shared.TRAP_TEXTS) + EXTRA_TEXTS + [shared.LAMP_TEXT]


def inputs(checkpoint, rng):
    make = {"markdown_headings": _headings_calls, "section_chunks": _section_calls, "sized_chunks": _sized_calls}[checkpoint]
    calls = make(rng)
    while len(calls) < CALLS_PER_CHECKPOINT:
        calls.append(_random_call(checkpoint, rng))
    return calls[:CALLS_PER_CHECKPOINT]


def _valid_documents():
    return [shared.snapshot(text=text) for text in _texts() if text.strip() and len(text) <= 20000]


def _broken_documents():
    return [document for _, document, valid in shared.document_rule_cases() if not valid] + [
        shared.document_with(text="x" * 20001), None, "tekst", 5,
    ]


def _headings_calls(rng):
    return [([text], {}) for text in _texts()] + [([bad], {}) for bad in BAD_TEXTS]


def _section_calls(rng):
    calls = [([document], {}) for document in _valid_documents()]
    calls += [([document], {}) for document in _broken_documents()]
    calls += [([document], {}) for _, document, valid in shared.document_rule_cases() if valid]
    return calls


SIZES = [(1, 0), (2, 1), (3, 0), (5, 1), (40, 8), (256, 255), (4, 3)]
BAD_SIZES = [(0, 0), (-1, 0), (257, 0), (4, 4), (4, 5), (4, -1), (True, 0), (4.0, 1), ("4", 1), (None, 1),
             (4, False), (4, True), (4, 1.0), (4, None), (1, 1), (256, 256)]


def _sized_calls(rng):
    calls = []
    for document in _valid_documents():
        calls.append(([document] + list(rng.choice(SIZES)), {}))
    lamp = shared.lamp_document()
    for max_words, overlap in SIZES + BAD_SIZES:
        calls.append(([lamp, max_words, overlap], {}))
    calls += [([lamp], {}), ([lamp, 10], {}), ([lamp], {"overlap": 0}), ([lamp], {"max_words": 3, "overlap": 2})]
    # A valid document whose sections are all empty: the sizes must be checked all the same.
    headings_only = shared.snapshot(text="# Alleen een kopje\n## En nog een\n")
    calls += [([headings_only, max_words, overlap], {}) for max_words, overlap in SIZES[:2] + BAD_SIZES]
    long_document = shared.snapshot(text="# Lang\n" + " ".join(f"w{index}" for index in range(100)))
    calls += [([long_document], {}), ([long_document], {"overlap": 0}), ([long_document, 10], {})]
    calls += [([document, 2, 0], {}) for document in _broken_documents()]
    calls += [([document, 2, 0], {}) for _, document, valid in shared.document_rule_cases() if valid]
    return calls


def _random_call(checkpoint, rng):
    document = shared.random_document(rng, line_count=rng.choice([5, 25, 60]))
    if checkpoint == "markdown_headings":
        return ([document["text"]], {})
    if checkpoint == "section_chunks":
        return ([document], {})
    return ([document] + list(shared.random_sizes(rng)), {})
