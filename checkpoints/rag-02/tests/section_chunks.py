"""Tests for checkpoint 2, section_chunks(document). `reference` and `shared` are injected."""

import random

from runner.core.testkit import (
    CallShape, expect_equal, expect_list_of_dicts, expect_new_objects, expect_no_mutation, expect_value_error,
    fail, returns, signature, test,
)

SIGNATURE = signature("section_chunks(document)", CallShape(1))
CHECKPOINT = "section_chunks"
CHUNK_KEYS = {"id", "document_id", "revision", "chunk_number", "level", "headings", "start", "end", "text"}


def chunks_of(learner, document, message):
    return expect_list_of_dicts(returns(lambda: learner.section_chunks(document), message), CHECKPOINT)


def expect_same(learner, document, message):
    expect_equal(chunks_of(learner, document, message), reference.section_chunks(document), message, show=False)


def summary(chunks):
    return [(c.get("level"), c.get("headings"), c.get("text")) for c in chunks]


PATHS_SHARED = ("Elke chunk houdt het pad van zijn eigen kopje: werk je later de stapel bij, dan mag een eerder "
                "pad niet mee veranderen.")


def expect_paths_not_shared(got_paths, expected_paths):
    """One heading list shared by every chunk shows as every chunk carrying the last path. That
    mistake breaks every path rule at once, so it is named first (the rule of "een nieuw pad per
    chunk"), before the rules for closing headings it only seems to break. Paths of chunks under
    a heading (level > 0); the text before the first heading has its own []."""
    got = [repr(path) for level, path in got_paths if level]
    expected = [repr(path) for level, path in expected_paths if level]
    if len(got) == len(expected) > 1 and len(set(got)) == 1 and len(set(expected)) > 1:
        fail(PATHS_SHARED)


def expect_summary(learner, text, expected, message):
    got = summary(chunks_of(learner, shared.snapshot(text=text), message))
    expect_paths_not_shared([(level, path) for level, path, _ in got], [(level, path) for level, path, _ in expected])
    expect_equal(got, expected, message, show=False)


@test(CHECKPOINT, "voorbeeld: de handleiding van de lamp", visible=True)
def example_lamp(learner):
    document = shared.lamp_document()
    got = expect_list_of_dicts(learner.section_chunks(document), CHECKPOINT)
    expect_equal([(c.get("id"), c.get("start"), c.get("end")) for c in got],
                 [("lamp:s0", 49, 76), ("lamp:s1", 90, 113), ("lamp:s2", 127, 159), ("lamp:s3", 173, 236)],
                 "De handleiding geeft vier chunks met deze ids en tekenposities; kopjes zonder eigen tekst maken geen chunk en krijgen geen nummer.")
    expect_paths_not_shared([(c.get("level"), c.get("headings")) for c in got],
                            [(c["level"], c["headings"]) for c in reference.section_chunks(document)])
    expect_equal(got[2:3], [{
        "id": "lamp:s2", "document_id": "lamp", "revision": document["revision"], "chunk_number": 2, "level": 2,
        "headings": ["Handleiding lamp", "Storingen"], "start": 127, "end": 159,
        "text": "```python\n# knipperen = fout\n```",
    }], "Chunk lamp:s2 klopt niet: zijn pad is ['Handleiding lamp', 'Storingen'] (## Storingen sluit ## Installatie en alles daaronder af) en zijn tekst is het hele codeblok.")
    expect_equal(got, reference.section_chunks(document), "De chunks van de handleiding kloppen niet.")


@test(CHECKPOINT, "elke chunk heeft precies negen velden met de juiste types")
def fields_and_types(learner):
    for chunk in chunks_of(learner, shared.lamp_document(), "De handleiding geeft vier chunks."):
        if set(chunk) != CHUNK_KEYS:
            fail("Een chunk heeft precies de sleutels id, document_id, revision, chunk_number, level, headings, start, end en text.")
        if any(type(chunk[key]) is not int for key in ("chunk_number", "level", "start", "end")):
            fail("chunk_number, level, start en end zijn ints.")
        if type(chunk["headings"]) is not list or any(type(title) is not str for title in chunk["headings"]):
            fail("headings is een list met str.")


@test(CHECKPOINT, "een kopje gooit alle kopjes van zijn niveau en dieper weg")
def path_drops_deeper_levels(learner):
    # #### H volgt op zijn broer #### G, na een nieuw kopje # F: H vervangt G, alleen F blijft staan.
    text = "# A\n## B\n### C\nc\n## D\nd\n### E\ne\n# F\nf\n#### G\ng\n#### H\nh"
    expect_summary(learner, text, [
        (3, ["A", "B", "C"], "c"), (2, ["A", "D"], "d"), (3, ["A", "D", "E"], "e"), (1, ["F"], "f"), (4, ["F", "G"], "g"),
        (4, ["F", "H"], "h"),
    ], "Bij een kopje van niveau L gaan alle open kopjes van niveau L en dieper weg; de rest blijft in het pad.")


@test(CHECKPOINT, "overgeslagen niveaus mogen")
def skipped_levels(learner):
    expect_summary(learner, "# A\n### C\nc\n## B\nb\n###### F\nf", [
        (3, ["A", "C"], "c"), (2, ["A", "B"], "b"), (6, ["A", "B", "F"], "f"),
    ], "Een overgeslagen niveau laat geen gat in het pad: # A en dan ### C geven ['A', 'C'].")


@test(CHECKPOINT, "een nieuw pad per chunk")
def paths_are_not_shared(learner):
    expect_summary(learner, "# A\na\n## B\nb\n### C\nc\n## D\nd", [
        (1, ["A"], "a"), (2, ["A", "B"], "b"), (3, ["A", "B", "C"], "c"), (2, ["A", "D"], "d"),
    ], PATHS_SHARED)


@test(CHECKPOINT, "de tekst voor het eerste kopje")
def preamble(learner):
    expect_summary(learner, "  Inleiding\n\n# A\na", [(0, [], "Inleiding"), (1, ["A"], "a")],
                   "De tekst voor het eerste kopje is een chunk met niveau 0 en pad [].")
    expect_summary(learner, " \n\t\n# A\na", [(1, ["A"], "a")],
                   "Alleen witruimte voor het eerste kopje maakt geen chunk.")
    expect_summary(learner, "\u3000alleen tekst, geen kopjes\n", [(0, [], "alleen tekst, geen kopjes")],
                   "Een tekst zonder kopjes is één chunk met niveau 0 en pad [], zonder de witruimte aan de randen (ook U+3000 is witruimte).")


@test(CHECKPOINT, "elke aanroep begint opnieuw")
def calls_are_independent(learner):
    first = shared.snapshot("een", text="# A\n## B\nb")
    expected_first = chunks_of(learner, first, "Eén sectie met tekst.")
    got = chunks_of(learner, shared.snapshot("twee", text="## C\nc"), "Eén sectie met tekst.")
    expect_equal([(c.get("id"), c.get("chunk_number"), c.get("headings")) for c in got], [("twee:s0", 0, ["C"])],
                 "Elke aanroep begint opnieuw: na een document met # A geeft een document dat met ## C begint chunk twee:s0 met pad ['C']. Bewaar geen kopjesstapel, teller of cache buiten de functie (ook niet in een standaardwaarde als stapel=[]).", show=False)
    expect_equal(chunks_of(learner, shared.snapshot("een", text="# A\n## B\nb"), "Eén sectie met tekst."), expected_first,
                 "Hetzelfde document twee keer geeft twee keer hetzelfde: het resultaat hangt alleen af van het document van deze aanroep.", show=False)


@test(CHECKPOINT, "secties zonder tekst maken geen chunk, hun kopje telt wel")
def empty_sections(learner):
    document = shared.snapshot("kb", text="# Titel\n## Leeg\n  \n## Vol\ntekst\n### Ook leeg\n")
    got = chunks_of(learner, document, "Deze tekst heeft één sectie met tekst.")
    expect_equal(summary(got), [(2, ["Titel", "Vol"], "tekst")],
                 "Een sectie met alleen witruimte maakt geen chunk, maar het kopje telt mee in latere paden.", show=False)
    expect_equal([(c.get("id"), c.get("chunk_number")) for c in got], [("kb:s0", 0)],
                 "chunk_number telt de teruggegeven chunks: 0, 1, 2, ... zonder gaten, en het id eindigt op s plus dat nummer.", show=False)


@test(CHECKPOINT, "ids en nummers lopen door over de teruggegeven chunks")
def ids_and_numbers(learner):
    document = shared.snapshot("Doc_7-x", text="voor\n# A\n## B\nb\n# C\nc")
    got = chunks_of(learner, document, "Deze tekst heeft drie secties met tekst.")
    expect_equal([(c.get("id"), c.get("chunk_number")) for c in got], [("Doc_7-x:s0", 0), ("Doc_7-x:s1", 1), ("Doc_7-x:s2", 2)],
                 "Het id is document-id, ':s' en chunk_number; chunk_number telt alleen de teruggegeven chunks.", show=False)


@test(CHECKPOINT, "witruimte in Python-zin gaat eraf, binnenin blijft alles")
def trimming(learner):
    text = "# A\n\u3000\x85 eerste  regel\n\n\ttweede\x1c\u2028\n\xa0\n## B\n\x1d\x1e\x1f"
    document = shared.snapshot(text=text)
    got = chunks_of(learner, document, "Deze tekst heeft één sectie met tekst.")
    expect_equal([(c.get("start"), c.get("end"), c.get("text")) for c in got], [(7, 29, "eerste  regel\n\n\ttweede")],
                 "Haal aan beide kanten alle witruimte weg die str.isspace() zo noemt (ook U+3000, \\x85, \\x1c, U+2028); binnenin blijft de tekst precies staan.", show=False)


@test(CHECKPOINT, "een kopje op de laatste regel zonder regeleinde")
def last_line_heading(learner):
    expect_summary(learner, "# A\na\n## B", [(1, ["A"], "a")], "Een kopje op de laatste regel heeft een lege sectie: geen chunk.")
    expect_summary(learner, "# A\r\naa\r\n## B\r\nbb\r\n", [(1, ["A"], "aa"), (2, ["A", "B"], "bb")],
                   "Met Windows-regeleinden vallen de \\r\\n buiten de tekst van een chunk.")


@test(CHECKPOINT, "een # in een codeblok begint geen sectie")
def fence_keeps_section(learner):
    expect_summary(learner, "# A\n~~~\n# geen kopje\n~~~\nna", [(1, ["A"], "~~~\n# geen kopje\n~~~\nna")],
                   "Een regel met # in een codeblok is geen kopje, dus de sectie loopt door tot na het codeblok.")
    expect_summary(learner, "# A\nx\u2028# geen kopje\ny", [(1, ["A"], "x\u2028# geen kopje\ny")],
                   "Alleen \\n beëindigt een regel: een # na U+2028 begint geen sectie.")


@test(CHECKPOINT, "een kopje zonder titel staat als '' in het pad")
def empty_titles(learner):
    expect_summary(learner, "#\n## #\ntekst", [(2, ["", ""], "tekst")], "Een kopje zonder titel staat als lege str in het pad.")


@test(CHECKPOINT, "posities in codepunten, ook na emoji")
def astral_offsets(learner):
    document = shared.snapshot(text="😀 intro 👩‍💻\n# 𝔘𝔫𝔦\n\n 漢字 😀 \n")
    expect_equal([(c.get("start"), c.get("end")) for c in chunks_of(learner, document, "Twee chunks.")], [(0, 11), (20, 24)],
                 "start en end tellen Python-codepunten: een emoji is één teken.", show=False)
    expect_same(learner, document, "De chunks van een tekst met emoji kloppen niet.")


@test(CHECKPOINT, "document niet veranderd, nieuwe lijsten")
def no_mutation(learner):
    document = shared.lamp_document()
    learner.section_chunks(document)
    expect_no_mutation(learner, "section_chunks mag het document niet veranderen.")
    expect_new_objects(learner, "section_chunks moet nieuwe dicts teruggeven, niet het document zelf.")
    learner.section_chunks(shared.snapshot(text="# a\r\n```\r\n# code\r\n```\r\n## b\r\nb\r\n"))
    expect_no_mutation(learner, "section_chunks mag het document niet veranderen, ook niet om \\r\\n door \\n te vervangen: start en end wijzen in de tekst zoals je hem kreeg.")


@test(CHECKPOINT, "het document volgt de regels van rag-01")
def document_rules(learner):
    for message, document, valid in shared.document_rule_cases():
        if valid:
            returns(lambda: learner.section_chunks(document), message)
        else:
            with expect_value_error(message):
                learner.section_chunks(document)


@test(CHECKPOINT, "de valkuilen van de kopjes: fences, hekjes, \\r en splitlines")
def heading_traps(learner):
    for text in shared.TRAP_TEXTS:
        expect_same(learner, shared.snapshot(text=text),
                    "De secties volgen de kopjes van checkpoint 1: een # in een fence, zeven hekjes, vier spaties, \\r\\n en \\v tellen daar precies zo.")


def _random_cases():
    rng = random.Random(2025)
    return [(document, reference.section_chunks(document)) for document in (shared.random_document(rng) for _ in range(20))]


@test(CHECKPOINT, "willekeurige documenten, vergeleken met de voorbeeldoplossing")
def property_random_documents(learner):
    message = "Voor een gegenereerd Markdown-document kloppen je chunks niet."
    for document, expected in shared.generated_cases("section_chunks/2025", _random_cases):
        expect_equal(chunks_of(learner, document, message), expected, message, show=False)
