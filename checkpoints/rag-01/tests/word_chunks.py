"""Tests for checkpoint 2, word_chunks(document, window=40, overlap=8).

`reference` and `shared` are injected by runner.core.bundle.
"""

import random

from runner.core.testkit import (
    CallShape,
    expect_equal,
    expect_list_of_dicts,
    expect_new_objects,
    expect_no_mutation,
    expect_value_error,
    fail,
    returns,
    signature,
    test,
)

SIGNATURE = signature(
    "word_chunks(document, window=40, overlap=8)",
    CallShape(1),
    CallShape(3),
    CallShape(1, ("window", "overlap")),
)

CHECKPOINT = "word_chunks"
CHUNK_KEYS = {"id", "document_id", "revision", "word_start", "word_end", "start", "end", "text"}


def chunks_of(learner, *args, **kwargs):
    return expect_list_of_dicts(learner.word_chunks(*args, **kwargs), CHECKPOINT)


def expect_chunks(learner, message, document, *args, **kwargs):
    """The learner's chunks must equal the reference's for the same call."""
    expected = reference.word_chunks(document, *args, **kwargs)
    got = returns(lambda: learner.word_chunks(document, *args, **kwargs), message)
    shared.expect_same_hidden(expect_list_of_dicts(got, CHECKPOINT), expected, message)


def rejects(learner, message, *args, **kwargs):
    with expect_value_error(message):
        learner.word_chunks(*args, **kwargs)


def intervals(chunks):
    return [(c.get("word_start"), c.get("word_end")) for c in chunks]


# --- the lesson's worked example (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: venster 4 en overlap 1", visible=True)
def example_window_4_overlap_1(learner):
    document = shared.example_document()
    expect_equal(
        chunks_of(learner, document, 4, 1),
        reference.word_chunks(document, 4, 1),
        "De passages van het voorbeeld (venster 4, overlap 1) kloppen niet.",
    )


@test(CHECKPOINT, "voorbeeld: de visualisatie met venster 6 en overlap 2", visible=True)
def example_visualizer(learner):
    document = shared.snapshot("eigen-lamp", "Lamp", shared.VISUALIZER_TEXT)
    expect_equal(
        chunks_of(learner, document, 6, 2),
        reference.word_chunks(document, 6, 2),
        "De drie passages van de visualisatie (venster 6, overlap 2) kloppen niet.",
    )


@test(CHECKPOINT, "elke aanroep knipt zijn eigen document")
def no_state_between_calls(learner):
    # Right after the examples: a cache keyed by the document id, or a list kept between calls,
    # fails here with a message that names it, instead of in a test that blames the windows.
    earlier = shared.snapshot("geheugen-a", "Titel", shared.words_text(9, "lamp"))
    later = shared.snapshot("geheugen-a", "Titel", shared.words_text(5))
    alone = shared.snapshot("geheugen-b", "Titel", shared.words_text(5))
    if shared.answers_depend_on_history(
        lambda: learner.word_chunks(earlier, 4, 1),
        lambda: learner.word_chunks(later, 4, 1),
        lambda: learner.word_chunks(alone, 4, 1),
    ):
        fail("Dezelfde tekst gaf andere passages na een eerdere aanroep met hetzelfde id: onthoud niets tussen aanroepen.")


# --- calling conventions and defaults -------------------------------------------------------


@test(CHECKPOINT, "venster en overlap als sleutelwoorden")
def keyword_arguments(learner):
    expect_chunks(learner, "word_chunks(document, window=4, overlap=1) moet hetzelfde geven als word_chunks(document, 4, 1).", shared.example_document(), window=4, overlap=1)


@test(CHECKPOINT, "standaardwaarden window=40 en overlap=8")
def defaults(learner):
    document = shared.snapshot(text=shared.words_text(100))
    expect_chunks(learner, "Zonder window en overlap gelden window=40 en overlap=8.", document)
    expect_chunks(learner, "Met alleen window=10 blijft overlap 8.", document, 10)
    expect_chunks(learner, "Met alleen overlap=0 blijft window 40.", document, overlap=0)


# --- the windows ------------------------------------------------------------------------------


@test(CHECKPOINT, "geen extra passage met alleen overlap")
def no_overlap_only_tail(learner):
    document = shared.snapshot(text=shared.words_text(7))
    got = chunks_of(learner, document, 4, 3)
    if intervals(got) != [(0, 4), (1, 5), (2, 6), (3, 7)]:
        fail("Stop na de passage die bij het laatste woord eindigt: een passage met alleen overlap hoort er niet bij.")
    document = shared.snapshot(text=shared.words_text(10))
    got = chunks_of(learner, document, 5, 0)
    if intervals(got) != [(0, 5), (5, 10)]:
        fail("Tien woorden met venster 5 en overlap 0 zijn precies twee passages.")


@test(CHECKPOINT, "minder woorden dan het venster: één passage")
def fewer_words_than_window(learner):
    expect_chunks(learner, "Met minder woorden dan het venster is er precies één passage met alle woorden.", shared.snapshot(text=" één  twee\tdrie "), 40, 8)


@test(CHECKPOINT, "venster 1 zonder overlap: één passage per woord")
def window_one(learner):
    expect_chunks(learner, "Met venster 1 en overlap 0 is elk woord een eigen passage.", shared.snapshot(text="a bb  ccc\n dddd"), 1, 0)


@test(CHECKPOINT, "venster 256 en overlap 255")
def largest_window(learner):
    document = shared.snapshot(text=shared.words_text(300))
    expect_chunks(learner, "Venster 256 met overlap 255 moet lukken en schuift steeds één woord op.", document, 256, 255)


@test(CHECKPOINT, "laatste passage kan korter zijn")
def short_last_chunk(learner):
    expect_chunks(learner, "De laatste passage eindigt bij het laatste woord, ook als hij korter is dan het venster.", shared.snapshot(text=shared.words_text(11)), 4, 1)


# --- window and overlap validation ----------------------------------------------------------


@test(CHECKPOINT, "window van 1 tot en met 256")
def window_bounds(learner):
    document = shared.example_document()
    rejects(learner, "window=0 moet een ValueError geven.", document, 0, 0)
    rejects(learner, "Een negatief window moet een ValueError geven.", document, -4, 0)
    rejects(learner, "window=257 moet een ValueError geven.", document, 257, 0)
    expect_chunks(learner, "window=1 met overlap=0 moet lukken.", document, 1, 0)


@test(CHECKPOINT, "window moet een exacte int zijn")
def window_type(learner):
    document = shared.example_document()
    rejects(learner, "window=True moet een ValueError geven: een bool is geen venster.", document, True, 0)
    rejects(learner, "window=4.0 moet een ValueError geven: een float is geen venster.", document, 4.0, 1)
    rejects(learner, "window als tekst moet een ValueError geven.", document, "4", 1)
    rejects(learner, "window=None moet een ValueError geven.", document, None, 1)


@test(CHECKPOINT, "overlap van 0 tot window")
def overlap_bounds(learner):
    document = shared.example_document()
    # First with all 8 words in one window: without the check a learner's function then returns
    # at once instead of looping on the same spot until its memory runs out (which costs a
    # second per submission and gives a vaguer message).
    rejects(learner, "overlap gelijk aan window moet een ValueError geven.", document, 8, 8)
    rejects(learner, "overlap gelijk aan window moet een ValueError geven.", document, 4, 4)
    rejects(learner, "overlap groter dan window moet een ValueError geven.", document, 4, 5)
    rejects(learner, "Een negatieve overlap moet een ValueError geven.", document, 4, -1)
    expect_chunks(learner, "overlap = window - 1 moet lukken.", document, 4, 3)
    expect_chunks(learner, "overlap 0 moet lukken.", document, 3, 0)


@test(CHECKPOINT, "overlap moet een exacte int zijn")
def overlap_type(learner):
    document = shared.example_document()
    rejects(learner, "overlap=False moet een ValueError geven: een bool is geen int.", document, 4, False)
    rejects(learner, "overlap=True moet een ValueError geven: een bool is geen int.", document, 4, True)
    rejects(learner, "overlap=1.0 moet een ValueError geven: een float is geen int.", document, 4, 1.0)
    rejects(learner, "overlap=None moet een ValueError geven.", document, 4, None)


# --- words and offsets ------------------------------------------------------------------------


@test(CHECKPOINT, "Unicode-witruimte scheidt woorden")
def unicode_whitespace_separates(learner):
    text = "een\xa0twee\u3000drie\x1cvier\x1dvijf\x1ezes\x1fzeven\x85acht\u2003negen\u2028tien"
    document = shared.snapshot(text=text)
    got = chunks_of(learner, document, 1, 0)
    if len(got) != 10:
        fail("NBSP, U+3000, \\x1c-\\x1f, \\x85 en andere Unicode-witruimte scheiden woorden (gebruik \\S+).")
    expect_chunks(learner, "Met Unicode-witruimte tussen de woorden kloppen de posities niet.", document, 3, 1)


@test(CHECKPOINT, "U+FEFF en U+200B horen bij het woord")
def invisible_characters_are_not_spaces(learner):
    document = shared.snapshot(text="\ufeffeen twee\u200bdrie vier\u200dvijf")
    got = chunks_of(learner, document, 1, 0)
    if len(got) != 3:
        fail("U+FEFF, U+200B en U+200D zijn geen witruimte: ze horen bij het woord waarin ze staan.")
    expect_chunks(learner, "Met onzichtbare tekens in woorden kloppen de posities niet.", document, 2, 1)


@test(CHECKPOINT, "emoji en andere astrale tekens in de posities")
def astral_offsets(learner):
    document = shared.snapshot(text="😀 lamp 👩‍💻 aan\n𝔘𝔫𝔦 knop 😀😀 uit")
    expect_chunks(learner, "start en end zijn Python-tekenposities: elk codepunt telt als één teken, ook in een emoji.", document, 3, 1)


@test(CHECKPOINT, "een woord dat vaker voorkomt heeft elke keer zijn eigen plek")
def repeated_word_positions(learner):
    # text.index(word) finds the first lamp each time, and "en" inside "indrukken".
    document = shared.snapshot(text="lamp indrukken en lamp aan")
    expect_chunks(learner, "start en end horen bij de plek van het woord zelf, ook als dezelfde letters eerder in de tekst staan.", document, 1, 0)


@test(CHECKPOINT, "witruimte binnen een passage blijft, eromheen niet")
def slice_is_exact(learner):
    document = shared.snapshot(text="\n\t Lamp  aan,\t\tknop\r\nindrukken   en \n\n wachten.  \n")
    got = chunks_of(learner, document, 3, 1)
    for chunk in got:
        text = chunk.get("text")
        if type(text) is str and text != text.strip():
            fail("De tekst van een passage begint bij het eerste woord en eindigt bij het laatste: geen witruimte eromheen.")
    expect_chunks(learner, "De tekst van een passage is precies document['text'][start:end], met tabs, dubbele spaties en regeleinden erin.", document, 3, 1)


@test(CHECKPOINT, "elke passage heeft precies de acht velden")
def chunk_fields(learner):
    got = chunks_of(learner, shared.example_document(), 4, 1)
    for chunk in got:
        if set(chunk) != CHUNK_KEYS:
            fail("Een passage heeft precies de sleutels id, document_id, revision, word_start, word_end, start, end en text.")
        if any(type(chunk[key]) is not int for key in ("word_start", "word_end", "start", "end")):
            fail("word_start, word_end, start en end zijn ints.")


@test(CHECKPOINT, "id is document-id:woordstart")
def chunk_ids(learner):
    document = shared.snapshot("Doc_7-x", text=shared.words_text(12))
    got = chunks_of(learner, document, 5, 2)
    if [c.get("id") for c in got] != ["Doc_7-x:0", "Doc_7-x:3", "Doc_7-x:6", "Doc_7-x:9"]:
        fail("Het id van een passage is het document-id, een dubbele punt en de index van het eerste woord.")


@test(CHECKPOINT, "document niet veranderd")
def no_mutation(learner):
    document = shared.example_document()
    learner.word_chunks(document, 4, 1)
    expect_no_mutation(learner, "word_chunks mag het document niet veranderen.")
    expect_new_objects(learner, "word_chunks moet nieuwe dicts teruggeven, niet het document zelf.")


# --- document validation ----------------------------------------------------------------------


@test(CHECKPOINT, "aangepaste tekst of revision geeft een ValueError")
def tampered_document(learner):
    document = shared.example_document()
    rejects(learner, "Een document waarvan de tekst na het hashen is veranderd moet een ValueError geven.", dict(document, text=document["text"] + "!"), 4, 1)
    rejects(learner, "Een document met een verzonnen revision moet een ValueError geven.", dict(document, revision="0" * 64), 4, 1)
    rejects(learner, "revision is de hexdigest in kleine letters; een andere schrijfwijze moet een ValueError geven.", dict(document, revision=document["revision"].upper()), 4, 1)
    rejects(learner, "Een revision die geen str is moet een ValueError geven.", dict(document, revision=None), 4, 1)


@test(CHECKPOINT, "document met precies de vier sleutels")
def document_keys(learner):
    document = shared.example_document()
    without = dict(document)
    del without["revision"]
    rejects(learner, "Een document zonder revision moet een ValueError geven.", without, 4, 1)
    rejects(learner, "Een document met een extra sleutel moet een ValueError geven.", dict(document, extra=1), 4, 1)
    rejects(learner, "Een document dat geen dict is moet een ValueError geven.", [document], 4, 1)


@test(CHECKPOINT, "document volgt de regels van checkpoint 1")
def document_fields(learner):
    def doc(**changes):
        fields = dict(id="d", title="Titel", text="een twee drie")
        fields.update(changes)
        text = fields["text"]
        revision = reference.sha256_of(text) if isinstance(text, str) else "0" * 64
        return dict(fields, revision=revision)

    rejects(learner, "Een document met een ongeldig id moet een ValueError geven.", doc(id="d 1"), 2, 0)
    rejects(learner, "Een document met een id van 41 tekens moet een ValueError geven.", doc(id="x" * 41), 2, 0)
    rejects(learner, "Een document met een titel van 101 tekens moet een ValueError geven.", doc(title="t" * 101), 2, 0)
    rejects(learner, "Een document met een witte titel moet een ValueError geven.", doc(title=" \u3000"), 2, 0)
    rejects(learner, "Een document met een witte tekst moet een ValueError geven.", doc(text=" \xa0\n"), 2, 0)
    rejects(learner, "Een document met een tekst van 20001 tekens moet een ValueError geven.", doc(text="x" * 20001), 2, 0)
    rejects(learner, "Een document waarvan de titel geen str is moet een ValueError geven.", doc(title=5), 2, 0)



@test(CHECKPOINT, "document aan de grenzen van de regels van checkpoint 1")
def document_rules_at_the_limits(learner):
    # A valid document only has to be accepted here; what comes back is checked by the other tests.
    for message, document, valid in shared.document_rule_cases():
        if valid:
            returns(lambda: learner.word_chunks(document, 2, 0), message)
        else:
            rejects(learner, message, document, 2, 0)


# --- generated documents compared with the reference ----------------------------------------


def _document_cases():
    rng = random.Random(202)
    cases = []
    for _ in range(15):
        document = shared.random_document(rng)
        window, overlap = shared.random_window(rng)
        cases.append((document, window, overlap, reference.word_chunks(document, window, overlap)))
    return cases


@test(CHECKPOINT, "willekeurige documenten, vergeleken met de voorbeeldoplossing")
def property_random_documents(learner):
    message = "Voor een gegenereerd document (met Unicode-witruimte en emoji) kloppen de passages niet."
    for document, window, overlap, expected in shared.generated_cases("word_chunks/202", _document_cases):
        got = returns(lambda: learner.word_chunks(document, window, overlap), message)
        shared.expect_same_hidden(expect_list_of_dicts(got, CHECKPOINT), expected, message)
