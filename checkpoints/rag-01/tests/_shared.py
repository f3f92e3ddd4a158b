"""Inputs shared by the rag-01 tests: the lesson's worked example and seeded text generators.

Loaded by runner.core.bundle with `reference` (this lesson's solution.py) already defined. Everything
here runs in the trusted grading process; expected values always come from `reference`.
"""

EXAMPLE_TEXT = "  A  B\nC D E F G H  "
EXAMPLE_RECORD = {"id": "d", "title": "Demo", "text": EXAMPLE_TEXT}
VISUALIZER_TEXT = "De lamp brandt groen na reset. Houd de knop tien seconden vast voor herstel."

# Characters Python's str.isspace() calls whitespace, beyond the ASCII ones.
UNICODE_SPACES = ["\xa0", "\u3000", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2003", "\u2028", "\u205f"]
ASCII_SPACES = [" ", "  ", "\t", "\n", "\r\n", " \n "]
WORD_PIECES = [
    "lamp", "Knop", "reset.", "één", "café", "naïef", "x", "42", "a-b", "😀", "👩‍💻", "𝔘𝔫𝔦",
    "漢字", "Ωmega", "tab\u200bbed", "\ufeffbom",
]


def record(doc_id="d", title="Titel", text="Een korte tekst."):
    return {"id": doc_id, "title": title, "text": text}


def snapshot(doc_id="d", title="Titel", text="Een korte tekst."):
    """A valid document as document_snapshots makes it, computed by the reference solution."""
    return reference.document_snapshots([record(doc_id, title, text)])[0]


def example_document():
    return snapshot("d", "Demo", EXAMPLE_TEXT)


def words_text(count, word="w"):
    """count words separated by single spaces: 'w0 w1 w2 ...'."""
    return " ".join(f"{word}{index}" for index in range(count))


def random_text(rng, word_count, unicode_spaces=True):
    """A text of word_count words with mixed separators and leading/trailing whitespace."""
    separators = ASCII_SPACES + (UNICODE_SPACES if unicode_spaces else [])
    parts = [rng.choice(["", " ", "\n", "\xa0 "]) if unicode_spaces else rng.choice(["", " "])]
    for index in range(word_count):
        word = rng.choice(WORD_PIECES)
        if rng.random() < 0.3:
            word += rng.choice(WORD_PIECES)
        parts.append(word)
        parts.append(rng.choice(separators) if index < word_count - 1 else rng.choice(["", " ", "\n"]))
    return "".join(parts)


def random_document(rng, max_words=60):
    doc_id = "".join(rng.choice("abcXYZ019_-") for _ in range(rng.randint(1, 12)))
    title = rng.choice(["Handleiding", " Lamp ", "Ωmega 😀", "x" * rng.randint(1, 100)])
    return snapshot(doc_id, title, random_text(rng, rng.randint(1, max_words)))


def random_window(rng):
    window = rng.choice([1, 2, 3, 4, 5, 7, 10, 40, 256])
    return window, rng.randint(0, window - 1)


def random_chunk_selection(rng, document):
    """A mixed bag of valid chunks: several windows, some dropped, unique ids, shuffled."""
    spans = reference.word_spans(document["text"])
    total = len(spans)
    chosen = {}
    for _ in range(rng.randint(0, 4)):
        window, overlap = random_window(rng)
        for chunk in reference.word_chunks(document, window, overlap):
            if rng.random() < 0.7:
                chosen.setdefault(chunk["id"], chunk)
    for _ in range(rng.randint(0, 3)):
        start = rng.randrange(total)
        chunk = reference.make_chunk(document, spans, start, rng.randint(start + 1, total))
        chosen.setdefault(chunk["id"], chunk)
    chunks = list(chosen.values())
    rng.shuffle(chunks)
    return chunks


# Seeded inputs, and so the reference's answers to them, are the same for every submission:
# build them once per grading process (a batch worker grades many submissions with one bundle).
_GENERATED_CASES = {}


def generated_cases(key, build):
    """build() -> a list of cases, run once per process for each key. Nothing may change the
    cases afterwards; learner code only ever gets copies (the hosts send values, not objects)."""
    if key not in _GENERATED_CASES:
        _GENERATED_CASES[key] = build()
    return _GENERATED_CASES[key]


def outcome_of(call):
    """('value', result) or ('ValueError', None) for a call of the reference solution."""
    try:
        return "value", call()
    except ValueError:
        return "ValueError", None


def expect_outcome(learner_call, outcome, message):
    """The learner's call must give outcome (from `outcome_of`): that value, or a ValueError."""
    from runner.core.testkit import expect_equal, expect_value_error, returns

    kind, expected = outcome
    if kind == "ValueError":
        with expect_value_error(message):
            learner_call()
    else:
        expect_equal(returns(learner_call, message), expected, message, show=False)


def document_with(**changes):
    """A document (checkpoint 2 and 3 input) with fields changed, whose revision still fits its
    text, so that only the changed rule of checkpoint 1 decides (a non-str text gets zeros)."""
    fields = dict(id="d", title="Titel", text="een twee drie")
    fields.update(changes)
    text = fields["text"]
    revision = reference.sha256_of(text) if isinstance(text, str) else "0" * 64
    return dict(fields, revision=revision)


def document_rule_cases():
    """(message, document, valid): each rule of checkpoint 1 as checkpoints 2 and 3 must apply it
    to their document, on both sides of every limit. Found missing by the mutation gate."""
    return [
        ("Een id telt 1 tot en met 40 tekens: een leeg id moet een ValueError geven.", document_with(id=""), False),
        ("Een id telt 1 tot en met 40 tekens: een id van 40 tekens mag.", document_with(id="x" * 40), True),
        ("Een id telt 1 tot en met 40 tekens: een id van 41 tekens moet een ValueError geven.", document_with(id="x" * 41), False),
        ("Een id bestaat in zijn geheel uit letters, cijfers, _ en -: een spatie erin moet een ValueError geven.", document_with(id="d 1"), False),
        ("Een id is een str: een ander type moet een ValueError geven.", document_with(id=7), False),
        ("Een id bestaat alleen uit A-Z, a-z, 0-9, _ en -: een dakje (tussen Z en a in ASCII) moet een ValueError geven.", document_with(id="a^b"), False),
        ("Een id mag met _ of - beginnen: het id -d mag.", document_with(id="-d"), True),
        ("Een titel telt hoogstens 100 tekens: een titel van 100 tekens mag.", document_with(title="t" * 100), True),
        ("Een titel telt hoogstens 100 tekens: een titel van 101 tekens moet een ValueError geven.", document_with(title="t" * 101), False),
        ("Een titel is na strip() niet leeg: een witte titel moet een ValueError geven.", document_with(title=" \u3000"), False),
        ("Een titel is een str: een ander type moet een ValueError geven.", document_with(title=5), False),
        ("Een tekst telt hoogstens 20000 tekens: een tekst van 20000 tekens mag.", document_with(text="x" * 20000), True),
        ("Een tekst telt hoogstens 20000 tekens: een tekst van 20001 tekens moet een ValueError geven.", document_with(text="x" * 20001), False),
        ("Een tekst is na strip() niet leeg: een witte tekst moet een ValueError geven.", document_with(text=" \xa0\n"), False),
        ("Een tekst is een str: een ander type moet een ValueError geven.", document_with(text=["tekst"]), False),
        # No revision fits a text that UTF-8 cannot encode: the check must refuse it, not crash.
        ("Een tekst die niet als UTF-8 te coderen is (een losse surrogaat) moet een ValueError geven.",
         dict(document_with(), text="een \ud800 twee", revision="0" * 64), False),
        ("Een document is een dict: een list met zijn sleutels moet een ValueError geven.", sorted(document_with()), False),
    ]


def learner_outcome(call):
    """('value', result) or ('raised', exception type name) for a learner's call, to compare two
    calls with each other rather than with the reference."""
    from runner.core.testkit import LearnerRaised

    try:
        return "value", call()
    except LearnerRaised as raised:
        return "raised", raised.info.type_name


def without_ids(outcome):
    """outcome with every dict's id and document_id left out: two documents that differ only in
    their id must then give the same outcome. None when it holds a value that is not plain data."""
    from runner.core.testkit import contains_opaque

    kind, value = outcome
    if contains_opaque(value):
        return None

    def strip(item):
        if type(item) is dict:
            return {key: strip(inner) for key, inner in item.items() if key not in ("id", "document_id")}
        if type(item) is list:
            return [strip(inner) for inner in item]
        return item

    return kind, strip(value)


def answers_depend_on_history(earlier_call, call_after, call_alone):
    """After earlier_call (a document with the same id as call_after's, but another text),
    call_after and call_alone (the same text under a new id) must agree apart from the ids. Only
    a function that keeps something between calls can make them differ, so a test on this never
    blames another mistake."""
    learner_outcome(earlier_call)
    after = without_ids(learner_outcome(call_after))
    alone = without_ids(learner_outcome(call_alone))
    return after is not None and alone is not None and after != alone


def expect_same_hidden(got, expected, message, items="passages"):
    """expect_equal for a hidden test, with one sentence added that names the field (or the
    number of items) where got first differs: it points at the mistake without showing a value."""
    from runner.core.testkit import expect_equal, same

    if not same(got, expected):
        message += first_difference_note(got, expected, items)
    expect_equal(got, expected, message, show=False)


def first_difference_note(got, expected, items):
    from runner.core.testkit import same

    if type(got) is dict and type(expected) is dict:
        for key in expected:
            if key not in got or not same(got[key], expected[key]):
                return f" Het eerste verschil zit in {key}."
        return ""
    if type(got) is list and type(expected) is list:
        for got_item, expected_item in zip(got, expected):
            if not same(got_item, expected_item):
                return first_difference_note(got_item, expected_item, items)
        if len(got) != len(expected):
            return f" Het aantal {items} klopt niet."
    return ""
