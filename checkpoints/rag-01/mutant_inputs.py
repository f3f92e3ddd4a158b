"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-01`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function. The run calls
the reference and a mutant listed as equivalent with each of them; one different outcome makes
the listing invalid. So the inputs sit on the rules' edges: valid inputs at the limits and inputs
that break exactly one rule of the contract, with random texts in between. Never shipped.
`reference` and `shared` are injected as in the tests; the rng is seeded by the runner.
"""

CALLS_PER_CHECKPOINT = 300
IDS = ["", "x" * 40, "x" * 41, "a" * 39, "d 1", "d\n", " d", "café", "d:1", "d.1", "Az09_-", "0", 7, None, True, ["d"]]
TITLES = ["", " ", "\u3000", "\n\t", "t" * 100, "t" * 101, " " + "t" * 99, " " + "t" * 100, "😀" * 100, "😀" * 101,
          5, None, True, ["T"]]
TEXTS = ["", " ", " \xa0\n", "\u3000", "x" * 20000, "x" * 20001, " " + "x" * 19999, "x " * 10000, "a\ud800", "\ud800",
         5, None, True, ["tekst"], " a ", "a"]


def inputs(checkpoint, rng):
    """First one call for each single-rule edge (in a random setting), then random calls."""
    sweep, make = {
        "document_snapshots": (_records_sweep, _records_call),
        "word_chunks": (_window_sweep, _window_call),
        "chunk_coverage": (_coverage_sweep, _coverage_call),
    }[checkpoint]
    calls = sweep(rng)
    while len(calls) < CALLS_PER_CHECKPOINT:
        calls.append(make(rng))
    return calls


def _item_variants(item):
    """item with each rule of checkpoint 1 broken, or bent to its limit, one at a time."""
    variants = [dict(item, id=value) for value in IDS]
    variants += [dict(item, title=value) for value in TITLES]
    variants += [dict(item, text=value) for value in TEXTS]
    for key in sorted(item):
        without = dict(item)
        del without[key]
        variants.append(without)
    variants += [dict(item, **{key: "x"}) for key in ("extra", "revision", "ID")]
    variants += [sorted(item), list(item.values()), tuple(item), item["id"], None, 5]
    return variants


def _records_sweep(rng):
    calls = []
    for variant in _item_variants(_record(rng, 0)):
        calls.append(([[variant]], {}))
        calls.append(([[_record(rng, 1), variant]], {}))
    for count in (0, 1, 31, 32, 33):
        calls.append(([[shared.record(f"d{index}", "T", "x") for index in range(count)]], {}))
    for shape in (tuple, lambda records: records[0], lambda records: None):
        calls.append(([shape([_record(rng, 0)])], {}))
    return calls


def _window_sweep(rng):
    calls = []
    record = {key: value for key, value in shared.random_document(rng).items() if key != "revision"}
    for variant in _item_variants(record):
        calls.append(([_document_with(rng, variant), rng.choice([1, 2, 4]), 0], {}))
    document = shared.random_document(rng, max_words=120)
    calls.append(([dict(document, text=document["text"] + "!")], {}))
    calls.append(([dict(document, revision=document["revision"].upper())], {}))
    for window in (-1, 0, 1, 2, 39, 40, 41, 255, 256, 257, True, 4.0, "4", None):
        calls.append(([document, window, 0], {}))
        calls.append(([document], {"window": window}))
    for overlap in (-1, 0, 1, 3, 4, 5, 7, 8, 9, True, False, 1.0, None):
        calls.append(([document, 4, overlap], {}))
        calls.append(([document], {"overlap": overlap}))
    calls.append(([document], {}))
    return calls


def _coverage_sweep(rng):
    calls = []
    record = {key: value for key, value in shared.random_document(rng).items() if key != "revision"}
    for variant in _item_variants(record):
        calls.append(([_document_with(rng, variant), []], {}))
    document = shared.random_document(rng, max_words=40)
    chunks = reference.word_chunks(document, 4, 1)
    for choice in range(FORGERIES):
        for _ in range(3):
            forged = list(chunks)
            victim = rng.randrange(len(forged))
            forged[victim] = _forged_chunk(rng, document, forged[victim], choice)
            calls.append(([document, forged], {}))
    for shape in (tuple, lambda chunks: chunks[0], lambda chunks: None, lambda chunks: chunks + [chunks[0]]):
        calls.append(([document, shape(chunks)], {}))
    # A one-letter first word: its bounds 0 and 1 equal False and True, which only a type check refuses.
    short = shared.snapshot(text="a bc d")
    first = reference.make_chunk(short, reference.word_spans(short["text"]), 0, 1)
    for field, value in (("word_start", False), ("word_end", True), ("start", False), ("end", True), ("end", 1.0)):
        calls.append(([short, [dict(first, **{field: value})]], {}))
    return calls


# --- records and documents -----------------------------------------------------------------------


def _text(rng):
    return shared.random_text(rng, rng.randint(1, rng.choice([5, 20, 60])), unicode_spaces=rng.random() < 0.7)


def _record(rng, index):
    return shared.record(f"d{index}", rng.choice(["Titel", " Lamp ", "Ωmega 😀", "t" * rng.randint(1, 100)]), _text(rng))


def _broken_item(rng, item):
    return rng.choice(_item_variants(item))


def _records_call(rng):
    records = [_record(rng, index) for index in range(rng.choice([1, 1, 2, 3, 5]))]
    roll = rng.random()
    if roll < 0.5:
        victim = rng.randrange(len(records))
        records[victim] = _broken_item(rng, records[victim])
    elif roll < 0.6:
        records = [shared.record(f"d{index}", "T", "x") for index in range(rng.choice([0, 31, 32, 33]))]
    elif roll < 0.7:
        records.append(dict(records[0], title="Anders"))  # the same id twice
    elif roll < 0.75:
        return ([rng.choice([tuple(records), records[0], None, "d", 5])], {})
    return ([records], {})


def _document_with(rng, item):
    """A document from a record that may break the rules, with a revision that fits its text."""
    text = item.get("text") if isinstance(item, dict) else None
    try:
        revision = reference.sha256_of(text) if isinstance(text, str) else "0" * 64
    except ValueError:
        revision = "0" * 64
    return dict(item, revision=revision) if isinstance(item, dict) else item


def _document(rng, max_words=60):
    document = shared.random_document(rng, max_words=max_words)
    roll = rng.random()
    if roll < 0.3:
        record = {key: document[key] for key in ("id", "title", "text")}
        return _document_with(rng, _broken_item(rng, record))
    if roll < 0.4:
        field = rng.choice(["text", "revision"])
        wrong = {"text": document["text"] + rng.choice(["!", " ", "\n"]),
                 "revision": rng.choice(["0" * 64, document["revision"].upper(), None, document["revision"][:-1]])}[field]
        return dict(document, **{field: wrong})
    if roll < 0.45:
        return rng.choice([sorted(document), list(document.values()), None, document["text"]])
    return document


# --- word_chunks -----------------------------------------------------------------------------------


def _window_value(rng):
    return rng.choice([-1, 0, 1, 2, 3, 4, 5, 7, 10, 39, 40, 41, 255, 256, 257, True, 4.0, "4", None])


def _overlap_value(rng, window):
    if type(window) is int:
        return rng.choice([-1, 0, 1, 7, 8, 9, window - 1, window - 1, window, window + 1, True, False, 1.0, None])
    return rng.choice([0, 1, 8])


def _window_call(rng):
    document = _document(rng, max_words=rng.choice([10, 60, 120]))
    window = _window_value(rng)
    overlap = _overlap_value(rng, window)
    shape = rng.randrange(5)
    if shape == 0:
        return ([document], {})
    if shape == 1:
        return ([document, window], {})
    if shape == 2:
        return ([document], {"overlap": overlap})
    if shape == 3:
        return ([document], {"window": window, "overlap": overlap})
    return ([document, window, overlap], {})


# --- chunk_coverage ----------------------------------------------------------------------------------


FORGERIES = 12


def _forged_chunk(rng, document, chunk, choice=None):
    spans = reference.word_spans(document["text"])
    total = len(spans)
    if choice is None:
        choice = rng.randrange(FORGERIES)
    if choice == 0:  # word bounds moved, every other field made to fit them
        start = rng.choice([-1, -2, 0, chunk["word_start"] - 1, chunk["word_start"] + 1, total - 1, total])
        end = rng.choice([start, start + 1, chunk["word_end"], total, total + 1, start - 1])
        try:
            return reference.make_chunk(document, spans, start, end)
        except IndexError:
            return dict(chunk, word_start=start, word_end=end)
    if choice == 1:
        field, shift = rng.choice(["start", "end"]), rng.choice([-1, 1])
        forged = dict(chunk, **{field: chunk[field] + shift})
        return dict(forged, text=document["text"][forged["start"]:forged["end"]])
    if choice == 2:
        field = rng.choice(["word_start", "word_end", "start", "end"])
        value = chunk[field]
        return dict(chunk, **{field: rng.choice([float(value), str(value), None, value == 1, bool(value)])})
    if choice == 3:
        return dict(chunk, id=rng.choice([f"{document['id']}:{chunk['word_start'] + 1}", f"{document['id']}:0{chunk['word_start']}",
                                          f"x{document['id']}:{chunk['word_start']}", chunk["word_start"], None]))
    if choice == 4:
        return dict(chunk, document_id=rng.choice(["x", document["id"] + "x", None]))
    if choice == 5:
        return dict(chunk, revision=rng.choice(["0" * 64, chunk["revision"].upper(), None]))
    if choice == 6:
        return dict(chunk, text=rng.choice([chunk["text"] + " ", " " + chunk["text"], chunk["text"].upper(), None, ""]))
    if choice == 7:
        broken = dict(chunk)
        del broken[rng.choice(sorted(broken))]
        return broken
    if choice == 8:
        return dict(chunk, **{rng.choice(["score", "Text", "extra"]): 1})
    if choice == 9:
        return rng.choice([sorted(chunk), list(chunk.values()), tuple(chunk), chunk["id"], None, 3])
    if choice == 10:  # the whole document, and a single word at either end
        return reference.make_chunk(document, spans, *rng.choice([(0, total), (0, 1), (total - 1, total)]))
    return chunk


def _coverage_call(rng):
    document = shared.random_document(rng, max_words=rng.choice([10, 40, 120]))
    chunks = shared.random_chunk_selection(rng, document)
    roll = rng.random()
    if roll < 0.15:
        return ([_document(rng), chunks], {})
    if roll < 0.6 and chunks:
        victim = rng.randrange(len(chunks))
        chunks[victim] = _forged_chunk(rng, document, chunks[victim])
    elif roll < 0.7 and chunks:
        chunks.append(dict(rng.choice(chunks)))  # the same chunk twice
    elif roll < 0.75:
        return ([document, rng.choice([tuple(chunks), None, {}, "d:0", chunks[0] if chunks else 5])], {})
    elif roll < 0.8:
        spans = reference.word_spans(document["text"])
        chunks = [reference.make_chunk(document, spans, *rng.choice([(0, len(spans)), (0, 1)]))]
        return ([document, chunks * rng.choice([1, 2])], {})
    return ([document, chunks], {})
