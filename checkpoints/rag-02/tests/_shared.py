"""Inputs shared by the rag-02 tests: the lesson's manual and seeded Markdown generators.

Loaded by runner.core.bundle with `reference` (this lesson's solution.py) already defined. Everything
here runs in the trusted grading process; expected values come from `reference` or are fixed by hand.
"""

import hashlib

LAMP_TEXT = (
    "# Handleiding lamp\n## Installatie\n### Aansluiten\nSluit de lamp aan op 230 V.\n"
    "### Ophangen\nGebruik twee schroeven.\n## Storingen\n```python\n# knipperen = fout\n```\n"
    "### Resetten\nHoud de knop tien seconden vast. De lamp brandt groen na reset.\n"
)

# Characters Python's str.isspace() calls whitespace, beyond the ASCII ones.
UNICODE_SPACES = ["\xa0", "\u3000", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2003", "\u2028", "\u205f", "\v", "\f"]
WORD_PIECES = ["lamp", "Knop", "reset.", "één", "café", "x", "230", "a#b", "😀", "👩‍💻", "𝔘𝔫𝔦", "漢字", "`x`", "~"]


def sha256_of(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def snapshot(doc_id="d", title="Titel", text="# Kop\nEen korte tekst."):
    """A valid document as rag-01's document_snapshots makes it."""
    return {"id": doc_id, "title": title, "text": text, "revision": sha256_of(text)}


def lamp_document():
    return snapshot("lamp", "Handleiding lamp", LAMP_TEXT)


def document_with(**changes):
    """A document with fields changed, whose revision still fits its text, so that only the
    changed rule decides (a non-str text gets zeros)."""
    fields = dict(id="d", title="Titel", text="# Kop\neen twee drie")
    fields.update(changes)
    text = fields["text"]
    revision = sha256_of(text) if isinstance(text, str) else "0" * 64
    return dict(fields, revision=revision)


def document_rule_cases():
    """(message, document, valid): each rule of rag-01's snapshot on both sides of every limit."""
    return [
        ("Een id telt 1 tot en met 40 tekens: een leeg id moet een ValueError geven.", document_with(id=""), False),
        ("Een id telt 1 tot en met 40 tekens: een id van 40 tekens mag.", document_with(id="x" * 40), True),
        ("Een id telt 1 tot en met 40 tekens: een id van 41 tekens moet een ValueError geven.", document_with(id="x" * 41), False),
        ("Een id bestaat in zijn geheel uit letters, cijfers, _ en -: een spatie erin moet een ValueError geven.", document_with(id="d 1"), False),
        ("Een id bestaat in zijn geheel uit letters, cijfers, _ en -: een regeleinde erachter moet een ValueError geven.", document_with(id="d\n"), False),
        ("Een id bestaat alleen uit A-Z, a-z, 0-9, _ en -: een letter met accent moet een ValueError geven (\\w en isalnum() laten die wel toe).", document_with(id="café"), False),
        ("Een id is een str: een ander type moet een ValueError geven.", document_with(id=7), False),
        ("Een titel telt hoogstens 100 tekens: een titel van 100 tekens mag.", document_with(title="t" * 100), True),
        ("Een titel telt hoogstens 100 tekens: een titel van 101 tekens moet een ValueError geven.", document_with(title="t" * 101), False),
        ("Een titel telt hoogstens 100 tekens, gemeten vóór strip(): 100 tekens en een spatie moet een ValueError geven.", document_with(title="t" * 100 + " "), False),
        ("Een titel is na strip() niet leeg: een witte titel moet een ValueError geven.", document_with(title=" \u3000"), False),
        ("Een titel is een str: een ander type moet een ValueError geven.", document_with(title=5), False),
        ("Een tekst telt hoogstens 20000 tekens: een tekst van 20000 tekens mag.", document_with(text="x" * 20000), True),
        ("Een tekst telt hoogstens 20000 tekens: een tekst van 20001 tekens moet een ValueError geven.", document_with(text="x" * 20001), False),
        ("Een tekst telt hoogstens 20000 tekens, gemeten vóór strip(): 20000 tekens en een regeleinde moet een ValueError geven.", document_with(text="x" * 20000 + "\n"), False),
        ("Een tekst is na strip() niet leeg: een witte tekst moet een ValueError geven.", document_with(text=" \xa0\n"), False),
        ("Een tekst is een str: een ander type moet een ValueError geven.", document_with(text=["tekst"]), False),
        ("Een tekst die niet als UTF-8 te coderen is (een losse surrogaat) moet een ValueError geven, ook als revision de hash is van encode('utf-8', 'replace').",
         dict(document_with(), text="# Kop\n\ud800", revision=hashlib.sha256("# Kop\n\ud800".encode("utf-8", "replace")).hexdigest()), False),
        ("Een document is een dict: een list met zijn sleutels moet een ValueError geven.", sorted(document_with()), False),
        ("Een document zonder revision moet een ValueError geven.", {k: v for k, v in document_with().items() if k != "revision"}, False),
        ("Een document met een extra sleutel moet een ValueError geven.", dict(document_with(), extra=1), False),
        ("Een document waarvan de tekst na het hashen veranderde moet een ValueError geven.", dict(document_with(), text="# Kop\neen twee drie!"), False),
        ("revision is de hexdigest in kleine letters; een andere schrijfwijze moet een ValueError geven.", dict(document_with(), revision=document_with()["revision"].upper()), False),
    ]


# --- seeded Markdown ------------------------------------------------------------------------


def random_heading_line(rng, safe=False):
    indent = " " * rng.choice([0, 0, 0, 1, 3] + ([] if safe else [4]))
    hashes = "#" * rng.choice([1, 2, 3, 4, 5, 6, 6, 7])
    separator = rng.choice(["", " ", " ", "\t", "   "])
    title = " ".join(random_words(rng, rng.randint(0, 3), safe))
    closing = rng.choice(["", "", "", " #", " ###", "#", "\t##\t", " # x", "  ##  "])
    return indent + hashes + separator + title + closing


def random_fence_line(rng, closer=False):
    indent = " " * rng.choice([0, 0, 1, 3, 4])
    marker = rng.choice(["```", "````", "~~~", "~~~~", "``"])
    if closer:
        return indent + marker + rng.choice(["", " ", "\t ", " x"])
    return indent + marker + rng.choice(["", "python", " text", "a`b", " ~"])


def random_words(rng, count, safe=False):
    pieces = ["lamp", "Knop", "reset", "x", "een", "kop", "a#b", "##x"] if safe else WORD_PIECES
    return [rng.choice(pieces) for _ in range(count)]


def random_text_line(rng, safe=False):
    indent = rng.choice(["", "", " ", "    "])
    words = random_words(rng, rng.randint(1, 6), safe)
    if safe:
        return (indent + " ".join(words)).rstrip() or "x"
    separator = rng.choice([" ", " ", "\xa0", "\u3000", "\v", "\x1c", "\u2028", "\t"])
    return indent + separator.join(words)


def random_markdown(rng, line_count, safe=False):
    """A Markdown text mixing headings, fences, prose and blank lines. safe=True keeps to the
    subset on which markdown-it-py must agree (no Unicode whitespace, no \\r, no tabs in front)."""
    lines = []
    for _ in range(line_count):
        kind = rng.random()
        if kind < 0.35:
            lines.append(random_heading_line(rng, safe))
        elif kind < 0.47:
            lines.append(random_fence_line(rng, closer=rng.random() < 0.5))
        elif kind < 0.8:
            lines.append(random_text_line(rng, safe))
        else:
            lines.append(rng.choice(["", "", " ", "\t"] if safe else ["", " ", "\t", "\xa0", " \u3000 "]))
    if safe:
        return "\n".join(lines) + rng.choice(["", "\n"])
    newline = rng.choice(["\n", "\n", "\r\n"])
    return newline.join(lines) + rng.choice(["", newline, " "])


def random_document(rng, line_count=25):
    text = random_markdown(rng, rng.randint(1, line_count))
    if not text.strip():
        text += "tekst"
    doc_id = "".join(rng.choice("abcXYZ019_-") for _ in range(rng.randint(1, 12)))
    return snapshot(doc_id, rng.choice(["Handleiding", "Ωmega 😀"]), text)


def random_sizes(rng):
    max_words = rng.choice([1, 2, 3, 5, 8, 40, 256])
    return max_words, rng.randint(0, max_words - 1)


# Seeded inputs, and so the reference's answers to them, are the same for every submission:
# build them once per grading process.
_GENERATED_CASES = {}


def generated_cases(key, build):
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
    from runner.core.testkit import expect_equal, expect_value_error, returns

    kind, expected = outcome
    if kind == "ValueError":
        with expect_value_error(message):
            learner_call()
    else:
        expect_equal(returns(learner_call, message), expected, message, show=False)


# Every trap of checkpoint 1, each in a small document: section_chunks and sized_chunks find their
# headings the same way, so a mistake in the heading rules must fail them too.
TRAP_TEXTS = [
    "# a\n```python\n# geen kopje\n```\n# b\nb",
    "~~~\n# geen\n~~~\n# wel\nw",
    "````\n```\n# nog code\n````\n# wel\nw",
    "```\n~~~\n# nog code\n`````\n# wel\nw",
    "~~~~\n~~~\n# nog code\n~~~~~\n# wel\nw",
    "```\n``` x\n# nog code\n```\n# wel\nw",
    "```\n```x\n# nog code\n```\n# wel\nw",
    "```\n``` \t\n# wel\nw",
    "```\n```     \n# wel\nw",
    "```\n```\xa0\n# code\n```\f\n# code\n```\n# wel\nw",
    "   ```\n# code\n   ```\n# wel\nw",
    "    ```\n# wel\nw",
    "```\n    ```\n# code\n```\n# wel\nw",
    "```\n   ```\n# wel\nw",
    "\t```\n# wel\n\xa0~~~\n# ook\no", "```\n\t```\n# code\n\xa0```\n# code\n```\n# wel\nw",
    "# a\n~~~\n# b\n## c\nc",
    "``` a`b\n# wel\nw",
    "  ``` a`b\n# wel\nw",
    "~~~ a`b\n# code\n~~~\n# wel\nw",
    "``\n# wel\nw",
    "~~\n# wel\nw",
    "#5 geen kopje\n####### zeven\n######\n#\tmet tab\n#geen\n###### zes\nz",
    "   ### drie spaties\n    # vier spaties\n\t# tab ervoor\n # een\ne",
    "# a\r\n```\r\n# code\r\n```\r\n## b ##\r\nb\r\n",
    "# a\r\r\nb",
    "tekst\v# geen kopje\n# kop\nk", "tekst\x1c# geen\n# kop\nk", "tekst\u2028# geen\n# kop\nk",
    "# A\n  \n# B\nb\n## C\n \t \n### D\nd",
    "😀👩‍💻 tekst\n## 𝔘𝔫𝔦 kop\n漢字",
]
