"""Tests for checkpoint 3, chunk_coverage(document, chunks).

`reference` and `shared` are injected by runner.core.bundle. Chunks are always made by the reference
solution here, never by the learner's word_chunks, so this checkpoint is graded on its own.
"""

import random

from runner.core.testkit import (
    CallShape,
    Opaque,
    expect_equal,
    expect_new_objects,
    expect_no_mutation,
    expect_value_error,
    fail,
    returns,
    signature,
    test,
)

SIGNATURE = signature("chunk_coverage(document, chunks)", CallShape(2))

CHECKPOINT = "chunk_coverage"
RESULT_KEYS = {"total_words", "covered_words", "coverage", "word_occurrences", "duplication_factor", "missing_word_indices"}


def coverage_of(learner, document, chunks, message=None):
    if message is None:
        result = learner.chunk_coverage(document, chunks)
    else:
        result = returns(lambda: learner.chunk_coverage(document, chunks), message)
    if type(result) is Opaque:
        fail(f"chunk_coverage moet een dict teruggeven, niet een {result.type_name}.")
    if type(result) is not dict:
        fail(f"chunk_coverage moet een dict teruggeven, niet een {type(result).__name__}.")
    if set(result) != RESULT_KEYS:
        fail("Het resultaat heeft precies de sleutels total_words, covered_words, coverage, word_occurrences, duplication_factor en missing_word_indices.")
    return result


def expect_coverage(learner, message, document, chunks):
    shared.expect_same_hidden(coverage_of(learner, document, chunks, message), reference.chunk_coverage(document, chunks), message)


def rejects(learner, message, document, chunks):
    with expect_value_error(message):
        learner.chunk_coverage(document, chunks)


def example():
    document = shared.example_document()
    return document, reference.word_chunks(document, 4, 1)


def chunk(document, word_start, word_end):
    return reference.make_chunk(document, reference.word_spans(document["text"]), word_start, word_end)


# --- the lesson's worked examples (visible) --------------------------------------------------


@test(CHECKPOINT, "voorbeeld: de drie passages van venster 4 en overlap 1", visible=True)
def example_full_coverage(learner):
    document, chunks = example()
    expect_equal(coverage_of(learner, document, chunks), reference.chunk_coverage(document, chunks), "De dekking van het voorbeeld klopt niet.")


@test(CHECKPOINT, "voorbeeld: zonder passages", visible=True)
def example_no_chunks(learner):
    document, _ = example()
    expect_equal(coverage_of(learner, document, []), reference.chunk_coverage(document, []), "Zonder passages is coverage 0.0, duplication_factor None en ontbreekt elk woord.")


@test(CHECKPOINT, "elke aanroep rekent met zijn eigen document")
def no_state_between_calls(learner):
    # Right after the examples: a cache keyed by the document id fails here with a message that
    # names it, instead of in a counting test. The first words of both texts have the same
    # positions, so chunks over them fit either text and only the word count tells them apart.
    earlier = shared.snapshot("geheugen-a", "Titel", shared.words_text(6))
    later = shared.snapshot("geheugen-a", "Titel", shared.words_text(9, "v"))
    alone = shared.snapshot("geheugen-b", "Titel", shared.words_text(9, "v"))
    if shared.answers_depend_on_history(
        lambda: learner.chunk_coverage(earlier, [chunk(earlier, 1, 3), chunk(earlier, 2, 5)]),
        lambda: learner.chunk_coverage(later, [chunk(later, 1, 3), chunk(later, 2, 5)]),
        lambda: learner.chunk_coverage(alone, [chunk(alone, 1, 3), chunk(alone, 2, 5)]),
    ):
        fail("Dezelfde tekst gaf een andere dekking na een eerdere aanroep met hetzelfde id: onthoud niets tussen aanroepen.")


# --- counting ---------------------------------------------------------------------------------


@test(CHECKPOINT, "gedeeltelijke dekking met dubbele woorden")
def partial_coverage(learner):
    document = shared.snapshot(text=shared.words_text(10))
    chunks = [chunk(document, 0, 4), chunk(document, 2, 6), chunk(document, 8, 9)]
    expect_coverage(learner, "Bij gedeeltelijke dekking met overlap kloppen U, S, de factoren of de ontbrekende woorden niet.", document, chunks)


@test(CHECKPOINT, "passages in willekeurige volgorde")
def any_order(learner):
    document = shared.snapshot(text=shared.words_text(23))
    chunks = reference.word_chunks(document, 5, 2)
    expect_coverage(learner, "Passages in omgekeerde volgorde geven dezelfde dekking.", document, chunks[::-1])
    shuffled = list(chunks)
    random.Random(303).shuffle(shuffled)
    expect_coverage(learner, "Passages in door elkaar gehusselde volgorde geven dezelfde dekking.", document, shuffled)


@test(CHECKPOINT, "passages met verschillende venstergroottes")
def mixed_windows(learner):
    document = shared.snapshot(text=shared.words_text(12))
    chunks = [chunk(document, 0, 2), chunk(document, 1, 7), chunk(document, 5, 6), chunk(document, 9, 12)]
    expect_coverage(learner, "Passages hoeven niet even lang te zijn: tel elk woordinterval zoals het is.", document, chunks)


@test(CHECKPOINT, "hetzelfde woord op twee plekken telt twee keer")
def repeated_words_are_distinct_positions(learner):
    document = shared.snapshot(text="lamp lamp lamp knop lamp")
    chunks = [chunk(document, 0, 2), chunk(document, 4, 5)]
    expect_coverage(learner, "Tel woordposities, geen woorden: dezelfde tekst op twee plekken zijn twee posities.", document, chunks)


@test(CHECKPOINT, "coverage en duplication_factor zijn floats")
def float_results(learner):
    document, chunks = example()
    result = coverage_of(learner, document, chunks)
    if type(result["coverage"]) is not float or type(result["duplication_factor"]) is not float:
        fail("coverage en duplication_factor zijn floats, ook als de deling precies uitkomt.")
    for key in ("total_words", "covered_words", "word_occurrences"):
        if type(result[key]) is not int:
            fail(f"{key} is een int.")
    if type(result["missing_word_indices"]) is not list:
        fail("missing_word_indices is een list.")


@test(CHECKPOINT, "coverage is precies de deling U / N")
def coverage_is_exact_division(learner):
    document = shared.snapshot(text=shared.words_text(3))
    # 1/3 and 1 - 2/3 differ in the last bit of the float: the contract asks for U / N itself.
    result = coverage_of(learner, document, [chunk(document, 0, 1)])
    if result["coverage"] != 1 / 3:
        fail("coverage is precies U / N: met 1 van de 3 woorden gedekt is dat 1 / 3. Reken niet via 1 - ontbrekend / N, want die float rondt anders af.")


@test(CHECKPOINT, "ontbrekende woorden oplopend gesorteerd")
def missing_sorted(learner):
    document = shared.snapshot(text=shared.words_text(15))
    chunks = [chunk(document, 10, 12), chunk(document, 3, 5), chunk(document, 7, 8)]
    result = coverage_of(learner, document, chunks)
    expected = reference.chunk_coverage(document, chunks)["missing_word_indices"]
    if result["missing_word_indices"] != expected:
        fail("missing_word_indices bevat elke woordindex zonder passage, oplopend gesorteerd en zonder dubbele.")


@test(CHECKPOINT, "emoji en Unicode-witruimte in de bron")
def unicode_source(learner):
    document = shared.snapshot(text="😀\xa0lamp 👩‍💻\u3000aan\x85𝔘𝔫𝔦 knop\u200bx 😀😀 uit ")
    chunks = reference.word_chunks(document, 3, 1)[:2]
    expect_coverage(learner, "Met emoji en Unicode-witruimte in de bron kloppen de woordposities niet.", document, chunks)


@test(CHECKPOINT, "invoer niet veranderd")
def no_mutation(learner):
    document, chunks = example()
    learner.chunk_coverage(document, chunks)
    expect_no_mutation(learner, "chunk_coverage mag het document en de passages niet veranderen.")
    expect_new_objects(learner, "chunk_coverage geeft een nieuwe dict terug, met een nieuwe lijst ontbrekende woorden.")
    # Out of order: a function that sorts the chunks list in place changes it here.
    learner.chunk_coverage(document, chunks[::-1])
    expect_no_mutation(learner, "chunk_coverage mag de lijst passages niet veranderen, ook niet door haar te sorteren.")


# --- the chunks list ----------------------------------------------------------------------------


@test(CHECKPOINT, "chunks moet een list zijn")
def chunks_not_a_list(learner):
    document, chunks = example()
    rejects(learner, "Eén passage (een dict) in plaats van een list moet een ValueError geven.", document, chunks[0])
    rejects(learner, "None in plaats van een list passages moet een ValueError geven.", document, None)


@test(CHECKPOINT, "hoogstens 20000 passages")
def too_many_chunks(learner):
    document, chunks = example()
    # A text of at most 20000 characters has at most 10000 words, so 20001 chunks can never all
    # be valid. The filler is a str, which `chunk_keys` already requires to be refused: strings
    # cross the channel as cheap scalars, 20000 dicts would cost more than all other tests.
    rejects(learner, "Meer dan 20000 passages moet een ValueError geven.", document, chunks + ["d:0"] * 19998)


@test(CHECKPOINT, "elke passage is een dict met precies de acht sleutels")
def chunk_keys(learner):
    document, chunks = example()
    without = dict(chunks[1])
    del without["text"]
    rejects(learner, "Een passage zonder text moet een ValueError geven.", document, [chunks[0], without])
    rejects(learner, "Een passage met een extra sleutel moet een ValueError geven.", document, [dict(chunks[0], score=1.0)])
    renamed = dict(chunks[1])
    renamed["tekst"] = renamed.pop("text")
    # Eight keys, one of them the wrong one: a count of the keys alone does not see it.
    rejects(learner, "Een passage met acht sleutels waarvan één verkeerd (tekst in plaats van text) moet een ValueError geven.", document, [chunks[0], renamed])
    rejects(learner, "Een passage die een list is moet een ValueError geven.", document, [list(chunks[0].values())])
    rejects(learner, "Een passage die een str is moet een ValueError geven.", document, ["d:0"])


@test(CHECKPOINT, "dubbele passage-ids geven een ValueError")
def duplicate_chunk_ids(learner):
    document, chunks = example()
    rejects(learner, "Dezelfde passage twee keer moet een ValueError geven (dubbel id).", document, chunks + [chunks[1]])



@test(CHECKPOINT, "een passage is een dict, en elke sleutel is nodig")
def chunk_shape(learner):
    document, chunks = example()
    rejects(learner, "Een passage is een dict: een list met de acht sleutelnamen moet een ValueError geven.", document, [sorted(chunks[0])])
    for key in ("word_start", "word_end"):
        without = dict(chunks[0])
        del without[key]
        rejects(learner, f"Een passage heeft precies de acht sleutels: zonder {key} moet een ValueError geven.", document, [without])


@test(CHECKPOINT, "passage-ids zijn uniek, ook bij een ander einde")
def duplicate_ids_different_end(learner):
    document, _ = example()
    # Both chunks are valid on their own; only their shared id "d:0" breaks the rule. A check on
    # (word_start, word_end) pairs or on whole chunks lets this through.
    rejects(learner, "Het id van een passage is uniek: twee passages die bij hetzelfde woord beginnen moeten een ValueError geven.", document, [chunk(document, 0, 2), chunk(document, 0, 3)])


# --- forged chunks: every field ---------------------------------------------------------------


@test(CHECKPOINT, "vervalst id")
def forged_id(learner):
    document, chunks = example()
    second = chunks[1]
    rejects(learner, "Een passage-id dat niet bij word_start past moet een ValueError geven.", document, [dict(second, id="d:4")])
    rejects(learner, "Een passage-id met een voorloopnul moet een ValueError geven.", document, [dict(second, id="d:03")])
    rejects(learner, "Een passage-id met een ander document-id moet een ValueError geven.", document, [dict(second, id="e:3")])
    rejects(learner, "Een passage-id dat geen str is moet een ValueError geven.", document, [dict(second, id=3)])
    # A list cannot go in a set: a duplicate check before the id check raises a TypeError here.
    rejects(learner, "Een passage-id dat een list is moet een ValueError geven, geen TypeError.", document, [chunks[0], dict(second, id=["d:3"])])


@test(CHECKPOINT, "vervalst document_id of revision")
def forged_source(learner):
    document, chunks = example()
    other = shared.snapshot("e", "Ander", shared.EXAMPLE_TEXT + " extra")
    rejects(learner, "Een passage met het document_id van een ander document moet een ValueError geven.", document, [dict(chunks[0], document_id="e", id="e:0")])
    rejects(learner, "Een passage met een revision van een andere versie moet een ValueError geven.", document, [dict(chunks[0], revision=other["revision"])])
    rejects(learner, "Een passage met een revision in hoofdletters moet een ValueError geven.", document, [dict(chunks[0], revision=chunks[0]["revision"].upper())])
    # The id still names the right document: only a check of the document_id field itself catches this.
    rejects(learner, "Een passage waarvan document_id niet bij het document past moet een ValueError geven, ook als het id klopt.", document, [dict(chunks[0], document_id="e")])
    # Same first 63 characters: a check on the short revision of the lesson (its first 12) lets this through.
    last = "0" if chunks[0]["revision"][-1] != "0" else "1"
    rejects(learner, "Een passage waarvan alleen het laatste teken van revision anders is moet een ValueError geven: vergelijk de hele revision.", document, [dict(chunks[0], revision=chunks[0]["revision"][:-1] + last)])


@test(CHECKPOINT, "vervalste woordgrenzen")
def forged_word_bounds(learner):
    document, chunks = example()
    first = chunks[0]
    rejects(learner, "word_end voorbij het laatste woord moet een ValueError geven.", document, [dict(chunks[2], word_end=9)])
    rejects(learner, "word_end gelijk aan word_start (een lege passage) moet een ValueError geven.", document, [dict(first, word_end=0, end=first["start"], text="")])
    rejects(learner, "Een negatieve word_start moet een ValueError geven.", document, [dict(first, word_start=-1, id="d:-1")])
    rejects(learner, "word_end met een andere start en end erbij moet een ValueError geven.", document, [dict(first, word_end=3)])


@test(CHECKPOINT, "woordgrenzen binnen het document, ook als de andere velden erbij passen")
def consistent_forged_bounds(learner):
    document, _ = example()
    # Made by the reference's make_chunk, so id, start, end and text fit the bounds exactly:
    # only the rule 0 <= word_start < word_end decides.
    rejects(learner, "word_start is minstens 0: een passage die bij woord -1 begint moet een ValueError geven.", document, [chunk(document, -1, 2)])
    rejects(learner, "word_start ligt voor word_end: een passage zonder woorden moet een ValueError geven.", document, [chunk(document, 3, 3)])


@test(CHECKPOINT, "woordgrenzen zijn exacte ints")
def word_bounds_types(learner):
    document, chunks = example()
    first, second = chunks[0], chunks[1]
    rejects(learner, "word_start=False in plaats van 0 moet een ValueError geven: een bool is geen int.", document, [dict(first, word_start=False)])
    rejects(learner, "word_end=4.0 in plaats van 4 moet een ValueError geven.", document, [dict(first, word_end=4.0)])
    rejects(learner, "word_start=3.0 in plaats van 3 moet een ValueError geven.", document, [dict(second, word_start=3.0)])
    rejects(learner, "word_start als tekst moet een ValueError geven.", document, [dict(second, word_start="3")])
    # True == 1, so only a type check catches a bool here: the id and the slice still match.
    rejects(learner, "word_end=True in plaats van 1 moet een ValueError geven: een bool is geen int.", document, [dict(chunk(document, 0, 1), word_end=True)])


@test(CHECKPOINT, "vervalste tekengrenzen")
def forged_offsets(learner):
    document, chunks = example()
    second = chunks[1]
    for field, shift in (("start", -1), ("start", 1), ("end", -1), ("end", 1)):
        forged = dict(second, **{field: second[field] + shift})
        forged["text"] = document["text"][forged["start"]:forged["end"]]
        direction = "te vroeg" if shift < 0 else "te laat"
        rejects(learner, f"Een {field} die één teken {direction} ligt moet een ValueError geven, ook als text bij die grenzen past.", document, [forged])


@test(CHECKPOINT, "tekengrenzen zijn exacte ints")
def offsets_types(learner):
    document, chunks = example()
    second = chunks[1]
    rejects(learner, "start als float (9.0) moet een ValueError geven.", document, [dict(second, start=float(second["start"]))])
    rejects(learner, "end als float moet een ValueError geven.", document, [dict(second, end=float(second["end"]))])
    document = shared.snapshot(text="a bc")
    rejects(learner, "end=True in plaats van 1 moet een ValueError geven: een bool is geen int.", document, [dict(chunk(document, 0, 1), end=True)])


@test(CHECKPOINT, "elke grens apart: geen bool of float die gelijk is aan de int")
def each_bound_exact(learner):
    # One field at a time, with a value that compares equal to the valid int (False == 0,
    # True == 1, 2.0 == 2) while every other field stays valid: a check that is exact for the
    # other fields but uses isinstance (or ==) for this one lets it through.
    for text in ("a bc d", " a bc d"):  # word 0 starts at character 0, and at character 1
        document = shared.snapshot(text=text)
        for word_start, word_end in ((0, 1), (1, 2), (0, 2)):
            valid = chunk(document, word_start, word_end)
            for field in ("word_start", "word_end", "start", "end"):
                value = valid[field]
                for lookalike in [bool(value)] * (value in (0, 1)) + [float(value)]:
                    forged = dict(valid, **{field: lookalike})
                    rejects(learner, f"{field}={lookalike!r} in plaats van {value} moet een ValueError geven: "
                            f"elke grens is een exacte int, ook als de andere grenzen kloppen.", document, [forged])


@test(CHECKPOINT, "vervalste tekst")
def forged_text(learner):
    document, chunks = example()
    second = chunks[1]
    rejects(learner, "Een passage waarvan text niet de uitsnede van de bron is moet een ValueError geven.", document, [dict(second, text="D E F X")])
    rejects(learner, "Een passage met witruimte om text heen moet een ValueError geven.", document, [dict(second, text=" " + second["text"])])
    rejects(learner, "Een passage met genormaliseerde witruimte in text moet een ValueError geven.", document, [dict(chunks[0], text="A B C D")])
    rejects(learner, "Een passage waarvan text geen str is moet een ValueError geven.", document, [dict(second, text=None)])


@test(CHECKPOINT, "één vervalste passage tussen echte")
def one_bad_among_good(learner):
    document = shared.snapshot(text=shared.words_text(30))
    chunks = reference.word_chunks(document, 4, 1)
    chunks[5] = dict(chunks[5], text=chunks[5]["text"].upper())
    rejects(learner, "Eén vervalste passage tussen echte moet een ValueError geven.", document, chunks)


@test(CHECKPOINT, "passage over het hele document mag")
def whole_document_chunk(learner):
    document, _ = example()
    expect_coverage(learner, "Een passage van woord 0 tot en met het laatste woord is geldig.", document, [chunk(document, 0, 8)])


# --- document validation ----------------------------------------------------------------------


@test(CHECKPOINT, "aangepast document geeft een ValueError")
def tampered_document(learner):
    document, chunks = example()
    rejects(learner, "Een document waarvan de tekst na het hashen is veranderd moet een ValueError geven.", dict(document, text=document["text"] + "I"), chunks)
    rejects(learner, "Een document met een verzonnen revision moet een ValueError geven.", dict(document, revision="f" * 64), [])
    without = dict(document)
    del without["title"]
    rejects(learner, "Een document zonder title moet een ValueError geven.", without, [])
    rejects(learner, "Een document met een titel van 101 tekens moet een ValueError geven.", dict(document, title="t" * 101), [])



@test(CHECKPOINT, "document volgt de regels van checkpoint 1")
def document_rules(learner):
    # A valid document only has to be accepted here; what comes back is checked by the other tests.
    for message, document, valid in shared.document_rule_cases():
        if valid:
            returns(lambda: learner.chunk_coverage(document, []), message)
        else:
            rejects(learner, message, document, [])


# --- generated documents compared with the reference ----------------------------------------


def _chunk_cases():
    rng = random.Random(404)
    cases = []
    for _ in range(12):
        document = shared.random_document(rng)
        chunks = shared.random_chunk_selection(rng, document)
        cases.append((document, chunks, reference.chunk_coverage(document, chunks)))
    return cases


@test(CHECKPOINT, "willekeurige passages, vergeleken met de voorbeeldoplossing")
def property_random_chunks(learner):
    message = "Voor een gegenereerde set passages (met Unicode-witruimte en emoji) klopt de dekking niet."
    for document, chunks, expected in shared.generated_cases("chunk_coverage/404", _chunk_cases):
        shared.expect_same_hidden(coverage_of(learner, document, chunks, message), expected, message)
