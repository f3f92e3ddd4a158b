"""Tests for checkpoint 3, sized_chunks(document, max_words=40, overlap=8). `reference` and `shared` are injected."""

import random

from runner.core.testkit import (
    CallShape, expect_equal, expect_list_of_dicts, expect_new_objects, expect_no_mutation, expect_no_shared_objects,
    expect_value_error, fail, returns, signature, test,
)

SIGNATURE = signature(
    "sized_chunks(document, max_words=40, overlap=8)",
    CallShape(1), CallShape(3), CallShape(1, ("max_words", "overlap")),
)
CHECKPOINT = "sized_chunks"
CHUNK_KEYS = {"id", "document_id", "revision", "chunk_number", "section", "headings", "start", "end", "text", "embed_text"}


def chunks_of(learner, message, *args, **kwargs):
    return expect_list_of_dicts(returns(lambda: learner.sized_chunks(*args, **kwargs), message), CHECKPOINT)


def expect_same(learner, message, *args, **kwargs):
    expect_equal(chunks_of(learner, message, *args, **kwargs), reference.sized_chunks(*args, **kwargs), message, show=False)


def rejects(learner, message, *args):
    with expect_value_error(message):
        learner.sized_chunks(*args)


def words(count, prefix="w"):
    return " ".join(f"{prefix}{index}" for index in range(count))


@test(CHECKPOINT, "voorbeeld: de handleiding met max_words 5 en overlap 1", visible=True)
def example_lamp(learner):
    document = shared.lamp_document()
    got = expect_list_of_dicts(learner.sized_chunks(document, 5, 1), CHECKPOINT)
    expect_equal([(c.get("id"), c.get("section"), c.get("start"), c.get("end")) for c in got[:2]],
                 [("lamp:c0", 0, 49, 69), ("lamp:c1", 0, 67, 76)],
                 "De eerste sectie (zeven woorden) geeft met max_words 5 en overlap 1 twee vensters, binnen die sectie; start en end zijn posities in het document.")
    expect_equal(got[-1:], [{
        "id": "lamp:c7", "document_id": "lamp", "revision": document["revision"], "chunk_number": 7, "section": 3,
        "headings": ["Handleiding lamp", "Storingen", "Resetten"], "start": 214, "end": 236,
        "text": "brandt groen na reset.",
        "embed_text": "Handleiding lamp > Storingen > Resetten\n\nbrandt groen na reset.",
    }], "De laatste chunk van de handleiding klopt niet; embed_text is het pad met ' > ' ertussen, twee regeleinden (\\n\\n) en dan de tekst.")
    expect_equal(got, reference.sized_chunks(document, 5, 1), "De acht chunks van de handleiding kloppen niet.")


@test(CHECKPOINT, "elke chunk heeft precies tien velden met de juiste types")
def fields_and_types(learner):
    for chunk in chunks_of(learner, "De handleiding geeft chunks.", shared.lamp_document(), 5, 1):
        if set(chunk) != CHUNK_KEYS:
            fail("Een chunk heeft precies de sleutels id, document_id, revision, chunk_number, section, headings, start, end, text en embed_text.")
        if any(type(chunk[key]) is not int for key in ("chunk_number", "section", "start", "end")):
            fail("chunk_number, section, start en end zijn ints.")


@test(CHECKPOINT, "elke aanroep begint opnieuw, met het id van dit document")
def calls_are_independent(learner):
    document = shared.snapshot("Doc_7-x", text="# A\na b c")
    for _ in range(2):
        got = chunks_of(learner, "Eén sectie met drie woorden.", document, 2, 0)
        expect_equal([(c.get("id"), c.get("chunk_number")) for c in got], [("Doc_7-x:c0", 0), ("Doc_7-x:c1", 1)],
                     "Het id is het id van dít document, ':c' en chunk_number, en chunk_number begint bij elke aanroep bij 0: houd geen teller buiten de functie bij.", show=False)


@test(CHECKPOINT, "stop na het venster dat bij het laatste woord eindigt")
def stop_rule(learner):
    got = chunks_of(learner, "Zeven woorden.", shared.snapshot(text=words(7)), 4, 3)
    expect_equal([c.get("text") for c in got], ["w0 w1 w2 w3", "w1 w2 w3 w4", "w2 w3 w4 w5", "w3 w4 w5 w6"],
                 "Stop na het venster dat bij het laatste woord eindigt: een venster met alleen overlap hoort er niet bij.", show=False)
    got = chunks_of(learner, "Tien woorden.", shared.snapshot(text="# K\n" + words(10)), 5, 0)
    expect_equal([c.get("text") for c in got], [words(5), "w5 w6 w7 w8 w9"],
                 "Tien woorden met max_words 5 en overlap 0 zijn precies twee vensters.", show=False)


@test(CHECKPOINT, "vensters gaan nooit over de grens van een sectie")
def windows_stay_in_sections(learner):
    document = shared.snapshot(text="# A\na0 a1 a2\n# B\nb0 b1 b2 b3 b4")
    got = chunks_of(learner, "Twee secties.", document, 3, 1)
    expect_equal([(c.get("section"), c.get("text")) for c in got], [(0, "a0 a1 a2"), (1, "b0 b1 b2"), (1, "b2 b3 b4")],
                 "Elke sectie krijgt haar eigen vensters: een sectie van hoogstens max_words woorden blijft één chunk, en geen venster loopt door in de volgende sectie.", show=False)


@test(CHECKPOINT, "posities in het document, niet in de sectie")
def document_offsets(learner):
    document = shared.snapshot(text="# Kop\n\n  een twee drie vier")
    got = chunks_of(learner, "Eén sectie met vier woorden.", document, 2, 0)
    expect_equal([(c.get("start"), c.get("end"), c.get("text")) for c in got], [(9, 17, "een twee"), (18, 27, "drie vier")],
                 "start en end zijn posities in document['text']: tel de start van de sectie bij de posities van de woorden op.", show=False)


@test(CHECKPOINT, "section is het chunk_number van de sectie")
def section_numbers(learner):
    document = shared.snapshot(text="# Leeg\n# A\na b c\n## Leeg\n# B\nd")
    got = chunks_of(learner, "Twee secties met tekst.", document, 2, 0)
    expect_equal([(c.get("id"), c.get("chunk_number"), c.get("section")) for c in got], [("d:c0", 0, 0), ("d:c1", 1, 0), ("d:c2", 2, 1)],
                 "section is het chunk_number uit section_chunks (lege secties tellen niet); chunk_number en het id ':c' tellen alle vensters.", show=False)


@test(CHECKPOINT, "embed_text: het pad, een lege regel, dan de tekst")
def embed_texts(learner):
    got = chunks_of(learner, "Drie chunks.", shared.snapshot(text="inleiding\n# A\n## B\nb"), 40, 8)
    expect_equal([c.get("embed_text") for c in got], ["inleiding", "A > B\n\nb"],
                 "embed_text is ' > '.join(headings), twee regeleinden en de tekst; zonder kopjes alleen de tekst.", show=False)
    got = chunks_of(learner, "Eén chunk.", shared.snapshot(text="#\nx"), 40, 8)
    expect_equal([(c.get("headings"), c.get("embed_text")) for c in got], [([""], "\n\nx")],
                 "Een pad met één kopje zonder titel ([\"\"]) is niet leeg: embed_text begint dan met twee regeleinden.", show=False)


@test(CHECKPOINT, "max_words en overlap als sleutelwoorden, en hun standaardwaarden")
def defaults(learner):
    document = shared.snapshot(text="# Lang\n" + words(100))
    expect_same(learner, "Zonder max_words en overlap gelden max_words=40 en overlap=8.", document)
    expect_same(learner, "Met alleen max_words=10 blijft overlap 8.", document, 10)
    expect_same(learner, "Met alleen overlap=0 blijft max_words 40.", document, overlap=0)
    expect_same(learner, "sized_chunks(document, max_words=7, overlap=2) moet hetzelfde geven als sized_chunks(document, 7, 2).", document, max_words=7, overlap=2)


@test(CHECKPOINT, "max_words van 1 tot en met 256")
def max_words_bounds(learner):
    document = shared.snapshot(text="# K\n" + words(300))
    rejects(learner, "max_words=0 moet een ValueError geven.", document, 0, 0)
    rejects(learner, "Een negatieve max_words moet een ValueError geven.", document, -3, 0)
    rejects(learner, "max_words=257 moet een ValueError geven.", document, 257, 0)
    expect_same(learner, "max_words=1 met overlap=0 moet lukken: elk woord een eigen chunk.", shared.snapshot(text="# K\na bb  ccc"), 1, 0)
    expect_same(learner, "max_words=256 met overlap=255 moet lukken.", document, 256, 255)


@test(CHECKPOINT, "max_words en overlap zijn exacte ints")
def exact_ints(learner):
    document = shared.lamp_document()
    for bad in (True, 4.0, "4", None):
        rejects(learner, "max_words moet een int zijn: True, 4.0, '4' en None geven een ValueError.", document, bad, 1)
    rejects(learner, "max_words=True met overlap 0 moet een ValueError geven: True is geen int, ook al is 0 < True.", document, True, 0)
    for bad in (False, True, 1.0, None):
        rejects(learner, "overlap moet een int zijn: False, True, 1.0 en None geven een ValueError.", document, 4, bad)


@test(CHECKPOINT, "overlap van 0 tot max_words")
def overlap_bounds(learner):
    document = shared.lamp_document()
    rejects(learner, "overlap gelijk aan max_words moet een ValueError geven.", document, 40, 40)
    rejects(learner, "overlap gelijk aan max_words moet een ValueError geven.", document, 4, 4)
    rejects(learner, "overlap groter dan max_words moet een ValueError geven.", document, 4, 5)
    rejects(learner, "Een negatieve overlap moet een ValueError geven.", document, 4, -1)
    expect_same(learner, "overlap = max_words - 1 moet lukken.", document, 4, 3)
    expect_same(learner, "overlap 0 moet lukken.", document, 3, 0)


@test(CHECKPOINT, "ook zonder secties met tekst worden max_words en overlap gecontroleerd")
def sizes_checked_without_sections(learner):
    document = shared.snapshot(text="# Alleen een kopje\n## En nog een\n")
    expect_same(learner, "Een document met alleen kopjes heeft geen secties met tekst: geen vensters.", document, 2, 0)
    for max_words, overlap in ((0, 0), (257, 0), (4, 4), (4, -1), (True, 0), (4.0, 1)):
        rejects(learner, "Ook als geen enkele sectie tekst heeft, moeten een ongeldige max_words of overlap een ValueError geven: controleer ze vóór je gaat knippen.",
                document, max_words, overlap)


@test(CHECKPOINT, "Unicode-witruimte scheidt woorden, emoji tellen als één teken")
def unicode_words(learner):
    document = shared.snapshot(text="# 😀\neen\xa0twee\u3000drie\x1cvier\u2028vijf 👩‍💻 zes\u200bzeven")
    got = chunks_of(learner, "Eén sectie.", document, 1, 0)
    if len(got) != 7:
        fail("Woorden zijn de treffers van \\S+: NBSP, U+3000, \\x1c en U+2028 scheiden woorden, U+200B niet.")
    expect_same(learner, "start en end tellen Python-codepunten, ook na een emoji.", document, 3, 1)


@test(CHECKPOINT, "document niet veranderd, nieuwe lijsten")
def no_mutation(learner):
    document = shared.lamp_document()
    learner.sized_chunks(document, 5, 1)
    expect_no_mutation(learner, "sized_chunks mag het document niet veranderen.")
    expect_new_objects(learner, "sized_chunks moet nieuwe dicts en lijsten teruggeven, niet het document zelf.")


@test(CHECKPOINT, "elk venster een eigen headings-lijst")
def headings_not_shared(learner):
    # De eerste sectie van de handleiding krijgt met max_words 5 twee vensters met hetzelfde pad.
    learner.sized_chunks(shared.lamp_document(), 5, 1)
    expect_no_shared_objects(learner, "Elk venster krijgt een nieuwe headings-lijst, ook vensters uit dezelfde sectie: delen ze één lijst, dan verandert het pad van allemaal zodra iemand er één aanpast.")


@test(CHECKPOINT, "het document volgt de regels van rag-01")
def document_rules(learner):
    for message, document, valid in shared.document_rule_cases():
        if valid:
            returns(lambda: learner.sized_chunks(document, 2, 0), message)
        else:
            rejects(learner, message, document, 2, 0)


@test(CHECKPOINT, "de valkuilen van de kopjes: fences, hekjes, \\r en splitlines")
def heading_traps(learner):
    for text in shared.TRAP_TEXTS:
        expect_same(learner, "De vensters volgen de secties van checkpoint 2: een # in een fence, zeven hekjes, vier spaties, \\r\\n en \\v tellen daar precies zo.",
                    shared.snapshot(text=text), 2, 1)


def _random_cases():
    rng = random.Random(2026)
    cases = []
    for _ in range(20):
        document = shared.random_document(rng)
        max_words, overlap = shared.random_sizes(rng)
        cases.append((document, max_words, overlap, reference.sized_chunks(document, max_words, overlap)))
    return cases


@test(CHECKPOINT, "willekeurige documenten, vergeleken met de voorbeeldoplossing")
def property_random_documents(learner):
    message = "Voor een gegenereerd Markdown-document kloppen je vensters niet."
    for document, max_words, overlap, expected in shared.generated_cases("sized_chunks/2026", _random_cases):
        expect_equal(chunks_of(learner, message, document, max_words, overlap), expected, message, show=False)
