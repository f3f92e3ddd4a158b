"""Inputs for the mutation gate's differential run (`python -m runner mutate --lesson rag-01`).

`inputs(checkpoint, rng)` returns (args, kwargs) pairs for one checkpoint function. The run calls
the reference and a mutant listed as equivalent with each of them; one different outcome makes
the listing invalid. So the inputs sit on the rules' edges: valid inputs at the limits and inputs
that break exactly one rule of the contract, with random texts in between. Never shipped.
`reference` and `shared` are injected as in the tests; the rng is seeded by the runner.
"""

CALLS_PER_CHECKPOINT = 300
BAD_VALUES = [None, 5, 4.0, True, False, "", " ", "x", [], {}, ["d"], ("d",)]


def inputs(checkpoint, rng):
    make = {"document_snapshots": _records_call, "word_chunks": _window_call, "chunk_coverage": _coverage_call}[checkpoint]
    return [make(rng) for _ in range(CALLS_PER_CHECKPOINT)]


# --- records and documents -----------------------------------------------------------------------


def _text(rng):
    return shared.random_text(rng, rng.randint(1, rng.choice([5, 20, 60])), unicode_spaces=rng.random() < 0.7)


def _bad_id(rng):
    return rng.choice(["", "x" * 40, "x" * 41, "a" * 39, "d 1", "d\n", " d", "café", "d:1", "d.1", "Az09_-", "0", 7, None, True, ["d"]])


def _bad_title(rng):
    return rng.choice(["", " ", "\u3000", "\n\t", "t" * 100, "t" * 101, " " + "t" * 99, " " + "t" * 100, "😀" * 100,
                       "😀" * 101, 5, None, True, ["T"]])


def _bad_text(rng):
    return rng.choice(["", " ", " \xa0\n", "\u3000", "x" * 20000, "x" * 20001, " " + "x" * 19999, "x " * 10000,
                       "a\ud800", "\ud800", 5, None, True, ["tekst"], " a ", "a"])


def _record(rng, index):
    return shared.record(f"d{index}", rng.choice(["Titel", " Lamp ", "Ωmega 😀", "t" * rng.randint(1, 100)]), _text(rng))


def _broken_item(rng, item):
    """item with one rule of checkpoint 1 broken (or bent to its limit)."""
    choice = rng.randrange(7)
    if choice == 0:
        return dict(item, id=_bad_id(rng))
    if choice == 1:
        return dict(item, title=_bad_title(rng))
    if choice == 2:
        return dict(item, text=_bad_text(rng))
    if choice == 3:
        broken = dict(item)
        del broken[rng.choice(sorted(broken))]
        return broken
    if choice == 4:
        return dict(item, **{rng.choice(["extra", "revision", "ID", "Id"]): "x"})
    if choice == 5:
        return rng.choice([sorted(item), list(item.values()), tuple(item), item["id"], None, 5])
    return item


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


def _forged_chunk(rng, document, chunk):
    spans = reference.word_spans(document["text"])
    total = len(spans)
    choice = rng.randrange(12)
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
