"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-00b`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function. The run calls
the reference and a mutant listed as equivalent with each of them; one different outcome makes
the listing invalid. So the inputs sit on the rules' edges first (every UTF-8 width, the surrogate
block, the end of the text, wrong types), then random texts. Never shipped.
`reference` and `shared` are injected as in the tests; the rng is seeded by the runner.
"""

CALLS_PER_CHECKPOINT = 300
BAD_TEXTS = [None, 5, True, 1.5, ["a"], {"a": 1}, *shared.SURROGATES, "a\ud800b", "x\ude42\ud83d"]
BAD_NUMBERS = [True, False, 0.0, 1.0, 2.0, -1, "1", None, [0]]


def inputs(checkpoint, rng):
    sweep = {"utf8_offsets": _texts_sweep, "char_to_utf16": _index_sweep, "byte_span_to_chars": _span_sweep}
    make = {"utf8_offsets": _texts_call, "char_to_utf16": _index_call, "byte_span_to_chars": _span_call}
    calls = sweep[checkpoint](rng)
    while len(calls) < CALLS_PER_CHECKPOINT:
        calls.append(make[checkpoint](rng))
    return calls[:CALLS_PER_CHECKPOINT]


def _edge_texts():
    texts = ["", shared.EXAMPLE_TEXT, shared.FLAG_TEXT, "".join(shared.EDGE_CHARS), *shared.EDGE_CHARS,
             *shared.CLUSTERS]
    return texts


def _texts_sweep(rng):
    return [([text], {}) for text in _edge_texts() + BAD_TEXTS]


def _texts_call(rng):
    return ([shared.random_text(rng)], {})


def _index_sweep(rng):
    calls = []
    for text in _edge_texts()[:4]:
        for index in range(-1, len(text) + 2):
            calls.append(([text, index], {}))
        for value in BAD_NUMBERS:
            calls.append(([text, value], {}))
    calls += [([text, 0], {}) for text in BAD_TEXTS]
    return calls


def _index_call(rng):
    text = shared.random_text(rng)
    return ([text, rng.randint(-1, len(text) + 1)], {})


def _span_sweep(rng):
    calls = []
    for text in _edge_texts()[:4]:
        total = len(text.encode("utf-8"))
        for byte_start in range(-1, total + 2):
            calls.append(([text, byte_start, total], {}))
            calls.append(([text, 0, byte_start], {}))
        for value in BAD_NUMBERS:
            calls.append(([text, value, total], {}))
            calls.append(([text, 0, value], {}))
    calls += [([text, 0, 0], {}) for text in BAD_TEXTS]
    return calls


def _span_call(rng):
    text = shared.random_text(rng, 6)
    total = len(text.encode("utf-8"))
    return ([text, rng.randint(-1, total + 1), rng.randint(-1, total + 1)], {})
