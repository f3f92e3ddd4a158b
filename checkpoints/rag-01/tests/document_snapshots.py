"""Tests for checkpoint 1, document_snapshots(records). `reference` and `shared` are injected."""

import hashlib
import random
import unicodedata

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

SIGNATURE = signature("document_snapshots(records)", CallShape(1))

CHECKPOINT = "document_snapshots"
record = shared.record


def rejects(learner, records, message):
    with expect_value_error(message):
        learner.document_snapshots(records)


def accepts(learner, records, message):
    result = returns(lambda: learner.document_snapshots(records), message)
    expect_list_of_dicts(result, CHECKPOINT)
    expect_equal(result, reference.document_snapshots(records), message, show=False)


# --- the lesson's worked examples (visible) ---------------------------------------------------


@test(CHECKPOINT, "voorbeeld: revision is de SHA-256 van de exacte tekst", visible=True)
def example_revision(learner):
    raw = [dict(shared.EXAMPLE_RECORD)]
    result = expect_list_of_dicts(learner.document_snapshots(raw), CHECKPOINT)
    expect_equal(result, reference.document_snapshots(raw), "De snapshot van het voorbeelddocument klopt niet.")


@test(CHECKPOINT, "voorbeeld: een andere tekst geeft een andere revision", visible=True)
def example_changed_text(learner):
    raw = [dict(shared.EXAMPLE_RECORD, text=shared.EXAMPLE_TEXT + "!")]
    result = expect_list_of_dicts(learner.document_snapshots(raw), CHECKPOINT)
    expect_equal(result, reference.document_snapshots(raw), "Met een uitroepteken erbij hoort een andere revision.")


# --- shape of the result --------------------------------------------------------------------


@test(CHECKPOINT, "meerdere documenten in dezelfde volgorde")
def keeps_order(learner):
    records = [record("b2", "Tweede", "Twee woorden"), record("a1", "Eerste", "Een"), record("c", "Derde", " drie ")]
    accepts(learner, records, "De snapshots moeten in de volgorde van de invoer staan, met alle vier de velden.")


@test(CHECKPOINT, "precies de sleutels id, title, text en revision")
def exact_output_keys(learner):
    result = expect_list_of_dicts(learner.document_snapshots([record()]), CHECKPOINT)
    if len(result) != 1 or set(result[0]) != {"id", "title", "text", "revision"}:
        fail("Elke snapshot heeft precies de sleutels id, title, text en revision.")


@test(CHECKPOINT, "nieuwe dicts, invoer niet veranderd")
def new_dicts_no_mutation(learner):
    records = [record("a", "A", "alpha"), record("b", "B", "beta")]
    learner.document_snapshots(records)
    expect_no_mutation(learner, "document_snapshots mag de invoerlijst en haar dicts niet veranderen.")
    expect_new_objects(learner, "document_snapshots moet nieuwe dicts teruggeven, niet de dicts uit de invoer.")
    # Not in id order: a function that sorts the input list in place changes it here.
    learner.document_snapshots([record("b", "B", "beta"), record("a", "A", "alpha")])
    expect_no_mutation(learner, "document_snapshots mag de invoerlijst niet veranderen, ook niet door haar te sorteren.")


# --- number of records ------------------------------------------------------------------------


@test(CHECKPOINT, "1 en 32 documenten mogen")
def record_count_bounds_ok(learner):
    accepts(learner, [record()], "Eén document is genoeg.")
    accepts(learner, [record(f"d{i}") for i in range(32)], "32 documenten moeten lukken.")


@test(CHECKPOINT, "33 documenten geven een ValueError")
def too_many_records(learner):
    rejects(learner, [record(f"d{i}") for i in range(33)], "33 documenten moeten een ValueError geven.")


@test(CHECKPOINT, "een lege lijst geeft een ValueError")
def no_records(learner):
    rejects(learner, [], "Een lege lijst (0 documenten) moet een ValueError geven.")


@test(CHECKPOINT, "records moet een list zijn")
def records_not_a_list(learner):
    rejects(learner, record(), "Eén dict in plaats van een list moet een ValueError geven.")
    rejects(learner, "d", "Een str in plaats van een list moet een ValueError geven.")
    rejects(learner, None, "None in plaats van een list moet een ValueError geven.")


@test(CHECKPOINT, "elk document moet een dict zijn")
def item_not_a_dict(learner):
    rejects(learner, [record(), ["d", "Titel", "tekst"]], "Een document dat een list is moet een ValueError geven.")
    rejects(learner, ["d"], "Een document dat een str is moet een ValueError geven.")
    rejects(learner, [None], "Een document dat None is moet een ValueError geven.")


# --- exact key set --------------------------------------------------------------------------


@test(CHECKPOINT, "een ontbrekende sleutel geeft een ValueError")
def missing_key(learner):
    for key in ("id", "title", "text"):
        broken = record()
        del broken[key]
        rejects(learner, [broken], f"Een document zonder {key} moet een ValueError geven.")


@test(CHECKPOINT, "een extra sleutel geeft een ValueError")
def extra_key(learner):
    rejects(learner, [dict(record(), author="Sam")], "Een document met een extra sleutel moet een ValueError geven.")
    rejects(
        learner,
        [dict(record(), revision=reference.sha256_of("Een korte tekst."))],
        "Een document dat al een revision heeft, heeft een sleutel te veel en moet een ValueError geven.",
    )
    rejects(learner, [{"ID": "d", "title": "T", "text": "x"}], "Sleutels zijn hoofdlettergevoelig: ID is geen id.")


# --- id ---------------------------------------------------------------------------------------


@test(CHECKPOINT, "id van 40 tekens mag, 41 niet")
def id_length(learner):
    accepts(learner, [record("a" * 40)], "Een id van 40 tekens moet lukken.")
    rejects(learner, [record("a" * 41)], "Een id van 41 tekens moet een ValueError geven.")
    rejects(learner, [record("")], "Een leeg id moet een ValueError geven.")


@test(CHECKPOINT, "id bevat alleen letters, cijfers, _ en -")
def id_characters(learner):
    accepts(learner, [record("Az09_-")], "Een id met letters, cijfers, _ en - moet lukken.")
    # The pattern allows _ and - anywhere, also first and alone.
    accepts(learner, [record("-d"), record("_"), record("--")], "Een id mag met _ of - beginnen en mag alleen uit _ of - bestaan.")
    for bad, what in [
        ("a b", "een spatie"),
        ("doc.1", "een punt"),
        ("d:1", "een dubbele punt"),
        ("café", "een letter met accent"),
        ("doc\n", "een regeleinde aan het eind"),
        (" doc", "een spatie vooraan"),
        ("d/1", "een schuine streep"),
        # Between Z and a in ASCII: the range A-z lets these through.
        ("d[1]", "vierkante haken"),
        ("a^b", "een dakje"),
        ("a`b", "een backtick"),
        ("a\\b", "een backslash"),
    ]:
        rejects(learner, [record(bad)], f"Een id met {what} moet een ValueError geven.")


@test(CHECKPOINT, "id moet een str zijn")
def id_type(learner):
    for bad, what in [(7, "een int"), (None, "None"), (True, "een bool"), (["d"], "een list")]:
        rejects(learner, [record(bad)], f"Een id dat {what} is moet een ValueError geven.")


@test(CHECKPOINT, "dubbele ids geven een ValueError")
def duplicate_ids(learner):
    rejects(learner, [record("d", "A", "x"), record("e"), record("d", "B", "y")], "Twee documenten met hetzelfde id moeten een ValueError geven.")
    accepts(learner, [record("d"), record("D")], "Ids zijn hoofdlettergevoelig: d en D zijn verschillend.")


# --- title ----------------------------------------------------------------------------------


@test(CHECKPOINT, "titel van 100 tekens mag, 101 niet")
def title_length(learner):
    accepts(learner, [record(title="t" * 100)], "Een titel van 100 tekens moet lukken.")
    rejects(learner, [record(title="t" * 101)], "Een titel van 101 tekens moet een ValueError geven.")


@test(CHECKPOINT, "de lengte van de titel telt met witruimte eromheen")
def title_length_is_raw(learner):
    accepts(learner, [record(title=" " * 50 + "titel" + " " * 45)], "Een titel van 100 tekens inclusief spaties moet lukken.")
    rejects(
        learner,
        [record(title=" " * 50 + "titel" + " " * 46)],
        "Een titel van 101 tekens, waarvan de meeste spaties, moet een ValueError geven: tel de lengte vóór strip().",
    )


@test(CHECKPOINT, "titellengte telt tekens, geen bytes")
def title_counts_code_points(learner):
    accepts(learner, [record(title="😀" * 100)], "Een titel van 100 emoji (100 tekens) moet lukken.")
    accepts(learner, [record(title="é" * 100)], "Een titel van 100 tekens met accenten moet lukken.")


@test(CHECKPOINT, "lege of witte titel geeft een ValueError")
def blank_title(learner):
    for bad, what in [("", "lege titel"), ("   ", "titel met alleen spaties"), ("\t\n", "titel met alleen tab en regeleinde"), ("\u3000\xa0", "titel met alleen Unicode-witruimte")]:
        rejects(learner, [record(title=bad)], f"Een {what} moet een ValueError geven.")


@test(CHECKPOINT, "titel moet een str zijn")
def title_type(learner):
    for bad, what in [(None, "None"), (12, "een int"), (["Titel"], "een list")]:
        rejects(learner, [record(title=bad)], f"Een titel die {what} is moet een ValueError geven.")


# --- text -----------------------------------------------------------------------------------


@test(CHECKPOINT, "tekst van 20000 tekens mag, 20001 niet")
def text_length(learner):
    accepts(learner, [record(text="x" * 20000)], "Een tekst van 20000 tekens moet lukken.")
    rejects(learner, [record(text="x" * 20001)], "Een tekst van 20001 tekens moet een ValueError geven.")


@test(CHECKPOINT, "tekstlengte telt met witruimte en in tekens, niet in bytes")
def text_length_is_raw(learner):
    rejects(learner, [record(text="x" + " " * 20000)], "Een tekst van 20001 tekens, vooral spaties, moet een ValueError geven: tel vóór strip().")
    accepts(learner, [record(text="😀" * 20000)], "Een tekst van 20000 emoji (20000 tekens) moet lukken.")


@test(CHECKPOINT, "lege of witte tekst geeft een ValueError")
def blank_text(learner):
    for bad, what in [("", "lege tekst"), (" \n\t ", "tekst met alleen witruimte"), ("\xa0\u2003\u3000\x85", "tekst met alleen Unicode-witruimte")]:
        rejects(learner, [record(text=bad)], f"Een {what} moet een ValueError geven.")


@test(CHECKPOINT, "tekst moet een str zijn")
def text_type(learner):
    for bad, what in [(None, "None"), (3.5, "een float"), ({"t": "x"}, "een dict")]:
        rejects(learner, [record(text=bad)], f"Een tekst die {what} is moet een ValueError geven.")


@test(CHECKPOINT, "tekst met een losse surrogaat geeft een ValueError")
def lone_surrogate(learner):
    rejects(learner, [record(text="tekst \ud800 kapot")], "Tekst die niet als UTF-8 te coderen is (een losse surrogaat) moet een ValueError geven.")


@test(CHECKPOINT, "fout in het tweede document wordt ook gevonden")
def later_record_checked(learner):
    rejects(learner, [record("a"), record("b", title="")], "Een ongeldig tweede document moet ook een ValueError geven.")


# --- revision exactness ---------------------------------------------------------------------


@test(CHECKPOINT, "revision over de tekst zonder strip")
def revision_keeps_whitespace(learner):
    text = "  Lamp aan.\n\n"
    result = expect_list_of_dicts(learner.document_snapshots([record(text=text)]), CHECKPOINT)
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if len(result) != 1 or result[0].get("revision") != expected:
        fail("revision moet de SHA-256 zijn van de tekst met alle witruimte erin, niet van de gestripte tekst.")
    if result[0].get("text") != text:
        fail("text moet ongewijzigd blijven, ook de witruimte aan het begin en eind.")


@test(CHECKPOINT, "\\r\\n en \\n geven verschillende revisions")
def revision_keeps_newlines(learner):
    records = [record("win", text="regel een\r\nregel twee"), record("unix", text="regel een\nregel twee")]
    accepts(learner, records, "Regeleinden horen bij de tekst: \\r\\n mag niet omgezet worden naar \\n.")


@test(CHECKPOINT, "Unicode wordt niet genormaliseerd")
def revision_keeps_unicode_form(learner):
    composed = unicodedata.normalize("NFC", "café naïef")
    decomposed = unicodedata.normalize("NFD", "café naïef")
    accepts(learner, [record("nfc", text=composed), record("nfd", text=decomposed)], "NFC- en NFD-tekst blijven zoals ze zijn en krijgen elk hun eigen revision.")


@test(CHECKPOINT, "hoofdletters en titel tellen niet mee in de revision")
def revision_depends_on_text_only(learner):
    accepts(learner, [record("a", "Titel A", "Lamp aan"), record("b", "Titel B", "Lamp aan"), record("c", "Titel C", "lamp aan")], "revision hangt alleen af van de exacte tekst.")


# --- generated documents compared with the reference ----------------------------------------


def _random_records(rng):
    records = [shared.record(f"doc{i}", rng.choice(["T", " Titel ", "Ω"]), shared.random_text(rng, rng.randint(1, 30))) for i in range(rng.randint(1, 5))]
    mutation = rng.randrange(8)
    if mutation == 0:
        records[-1]["id"] = records[0]["id"]
    elif mutation == 1:
        records[-1]["title"] = rng.choice(shared.UNICODE_SPACES) * rng.randint(1, 3)
    elif mutation == 2:
        records[-1]["text"] = "".join(rng.choice(shared.UNICODE_SPACES + [" ", "\n"]) for _ in range(5))
    return records


def _record_cases():
    rng = random.Random(101)
    cases = []
    for _ in range(12):
        records = _random_records(rng)
        cases.append((records, shared.outcome_of(lambda: reference.document_snapshots(records))))
    return cases


@test(CHECKPOINT, "willekeurige documenten, vergeleken met de voorbeeldoplossing")
def property_random_records(learner):
    for records, outcome in shared.generated_cases("document_snapshots/101", _record_cases):
        shared.expect_outcome(
            lambda: learner.document_snapshots(records),
            outcome,
            "Voor een gegenereerde lijst documenten (met Unicode-witruimte en emoji) wijkt je uitkomst af van de regels.",
        )
