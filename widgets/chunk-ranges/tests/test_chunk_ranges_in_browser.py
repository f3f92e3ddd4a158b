"""The chunk-range visualizer on the rag-01 page, driven like a learner drives it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.lesson_pages import lesson_file, load_solution, open_lesson_page

pytestmark = pytest.mark.browser

SOLUTION_PATH = lesson_file("rag-01")


def load_reference():
    return load_solution("rag-01")


def open_lesson(page, site_server):
    open_lesson_page(page, site_server, "rag-01", "viz-passage", 3)  # the default state


def passage_attributes(page) -> list[tuple[int, int, int, int]]:
    return [
        tuple(int(item.get_attribute(name)) for name in ("data-word-start", "data-word-end", "data-start", "data-end"))
        for item in page.get_by_test_id("viz-passage").all()
    ]


def test_default_state_matches_the_reference_numbers_before_python_starts(first_visit_page, site_server):
    page = first_visit_page  # a first visit: Python has not started
    open_lesson(page, site_server)
    expect(page.get_by_test_id("viz-passages-count")).to_have_text("3")
    expect(page.get_by_test_id("viz-coverage")).to_have_text("14 / 14")
    expect(page.get_by_test_id("viz-duplication")).to_have_text("1,29×")
    assert passage_attributes(page) == [(0, 6, 0, 30), (4, 10, 21, 48), (8, 14, 39, 76)]
    first = page.get_by_test_id("viz-passage").first
    expect(first).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("tekenbereik [0, 30)")
    expect(page.get_by_test_id("viz-selected-text")).to_have_text("De lamp brandt groen na reset.")
    expect(page.get_by_test_id("viz-source-view").locator("mark")).to_have_text(
        "De lamp brandt groen na reset.")
    words = page.get_by_test_id("viz-words").locator("[data-index]")
    expect(words).to_have_count(14)
    # Words 4, 5, 8 and 9 sit in two passages: the only ones stored twice.
    repeated = page.locator("[data-testid=viz-words] .is-repeated")
    assert [int(index) for index in repeated.evaluate_all("items => items.map(i => i.dataset.index)")] == [4, 5, 8, 9]
    # All of this is JavaScript: Python has not been asked for.
    assert page.evaluate("window.werkplaats.python.state") == "idle"
    assert not [url for url in page.request_log.urls if "pyodide.asm" in url]


def test_keyboard_chooses_a_passage_and_highlights_its_exact_range(page, site_server):
    open_lesson(page, site_server)
    page.get_by_test_id("viz-overlap").focus()
    # Tab order: the fields, the (scrollable, so focusable) word list, then the chosen passage.
    for _ in range(3):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.testid") == "viz-passage":
            break
    focused = page.locator("[data-testid=viz-passage]:focus")
    expect(focused).to_have_attribute("data-word-start", "0")
    # The focus ring is visible, not only the browser default on some platforms.
    assert focused.evaluate("element => getComputedStyle(element).outlineStyle") == "solid"

    page.keyboard.press("ArrowDown")
    second = page.get_by_test_id("viz-passage").nth(1)
    expect(second).to_be_focused()
    expect(second).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("viz-passage").first).to_have_attribute("aria-selected", "false")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("tekenbereik [21, 48)")
    expect(page.get_by_test_id("viz-source-view").locator("mark")).to_have_text("na reset. Houd de knop tien")
    selected_words = page.locator("[data-testid=viz-words] .is-selected")
    expect(selected_words).to_have_text(["na", "reset.", "Houd", "de", "knop", "tien"])

    page.keyboard.press("End")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("tekenbereik [39, 76)")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("tekenbereik [0, 30)")
    page.get_by_test_id("viz-passage").nth(2).click()
    expect(page.get_by_test_id("viz-selected-text")).to_have_text("knop tien seconden vast voor herstel.")


@pytest.mark.parametrize(
    ("field", "value", "explanation"),
    [
        ("viz-overlap", "6", "De overlap (6) moet kleiner zijn dan het venster (6): anders schuift de "
                             "volgende passage niet verder en komt er nooit een einde."),
        ("viz-window", "0", "Het venster is 0 woorden, maar moet van 1 tot en met 256 lopen."),
        ("viz-window", "2.5", "Het venster moet een geheel getal zijn; „2.5” is dat niet "
                              "(word_chunks eist een exacte int)."),
        ("viz-source", " \n\t ", "De brontekst is leeg of bevat alleen witruimte. word_chunks weigert "
                                 "zo'n document: er is geen woord om in passages te knippen."),
    ],
)
def test_invalid_input_explains_itself_instead_of_drawing(page, site_server, field, value, explanation):
    open_lesson(page, site_server)
    page.get_by_test_id(field).fill(value)
    problems = page.get_by_test_id("viz-problems")
    expect(problems).to_be_visible()
    expect(problems.locator("li")).to_have_text([explanation])
    expect(page.get_by_test_id("viz-passage")).to_have_count(0)
    expect(page.get_by_test_id("viz-passages-count")).to_have_text("–")
    expect(page.get_by_test_id("viz-coverage")).to_have_text("–")


def test_text_over_the_limit_explains_itself_and_a_fix_redraws(page, site_server):
    open_lesson(page, site_server)
    source = page.get_by_test_id("viz-source")
    source.fill("ab " * 6667)
    expect(page.get_by_test_id("viz-problems").locator("li")).to_have_text([
        "De brontekst telt 20001 tekens; word_chunks accepteert hoogstens 20000 tekens "
        "(Python telt met len() Unicode-tekens, geen bytes).",
    ])
    source.fill("ab " * 6666)
    expect(page.get_by_test_id("viz-problems")).to_be_hidden()
    expect(page.get_by_test_id("viz-coverage")).to_have_text("6666 / 6666")


def test_emoji_and_non_breaking_spaces_give_pythons_offsets(page, site_server):
    # U+00A0 and U+0085 split words in Python, U+FEFF does not; emoji are one character there.
    text = "\U0001f600 Lamp\u00a0aan\ufeff!  \U0001f44d\U0001f3fd klaar\x85nu \U0001d400x"
    open_lesson(page, site_server)
    page.get_by_test_id("viz-source").fill(text)
    page.get_by_test_id("viz-window").fill("2")
    page.get_by_test_id("viz-overlap").fill("1")
    reference = load_reference()
    document = reference.document_snapshots([{"id": "d", "title": "t", "text": text}])[0]
    chunks = reference.word_chunks(document, 2, 1)
    expect(page.get_by_test_id("viz-passage")).to_have_count(len(chunks))
    assert passage_attributes(page) == [
        (chunk["word_start"], chunk["word_end"], chunk["start"], chunk["end"]) for chunk in chunks
    ]
    words = [match.group() for match in re.finditer(r"\S+", text)]
    expect(page.get_by_test_id("viz-words").locator("[data-index]")).to_have_text(words)
    page.get_by_test_id("viz-passage").nth(2).click()
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text(
        f"tekenbereik [{chunks[2]['start']}, {chunks[2]['end']})")
    expect(page.get_by_test_id("viz-source-view").locator("mark")).to_have_text(chunks[2]["text"])


def test_typing_in_the_source_keeps_every_drawn_range_exact(page, site_server):
    open_lesson(page, site_server)
    source = page.get_by_test_id("viz-source")
    source.click()
    page.keyboard.press("End")
    page.keyboard.type(" Daarna knippert hij\u00a0twee keer.", delay=5)
    text = source.input_value()
    assert text.endswith("herstel. Daarna knippert hij\u00a0twee keer.")
    reference = load_reference()
    document = reference.document_snapshots([{"id": "d", "title": "t", "text": text}])[0]
    chunks = reference.word_chunks(document, 6, 2)
    coverage = reference.chunk_coverage(document, chunks)
    expect(page.get_by_test_id("viz-passage")).to_have_count(len(chunks))
    assert passage_attributes(page) == [
        (chunk["word_start"], chunk["word_end"], chunk["start"], chunk["end"]) for chunk in chunks
    ]
    expect(page.get_by_test_id("viz-words").locator("[data-index]")).to_have_text(text.split())
    expect(page.get_by_test_id("viz-coverage")).to_have_text(
        f"{coverage['covered_words']} / {coverage['total_words']}")
    expect(page.get_by_test_id("viz-duplication")).to_have_text(
        f"{coverage['duplication_factor']:.2f}×".replace(".", ","))
    # Deleting back to fewer words drops the surplus passages and words again.
    source.fill("een twee drie")
    expect(page.get_by_test_id("viz-passage")).to_have_count(1)
    expect(page.get_by_test_id("viz-words").locator("[data-index]")).to_have_text(["een", "twee", "drie"])
    expect(page.get_by_test_id("viz-duplication")).to_have_text("1,00×")


def type_into_editor(page, code: str) -> None:
    page.locator("[data-testid=editor] .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)


WRONG_STEP = '''
import re

def word_chunks(document, window=40, overlap=8):
    spans = [m.span() for m in re.finditer(r"\\S+", document["text"])]
    chunks = []
    # Mistake: steps a whole window, so the overlap never happens.
    for word_start in range(0, len(spans), window):
        word_end = min(word_start + window, len(spans))
        start, end = spans[word_start][0], spans[word_end - 1][1]
        chunks.append({"id": f"{document['id']}:{word_start}", "document_id": document["id"],
                       "revision": document["revision"], "word_start": word_start,
                       "word_end": word_end, "start": start, "end": end,
                       "text": document["text"][start:end]})
    return chunks
'''


@pytest.mark.slow
def test_my_passages_with_a_correct_word_chunks(page, site_server):
    open_lesson(page, site_server)
    button = page.get_by_test_id("viz-learner-run")
    type_into_editor(page, "print('nog geen functie')\n")
    expect(button).to_be_disabled()
    type_into_editor(page, SOLUTION_PATH.read_text(encoding="utf-8"))
    expect(button).to_be_enabled()
    button.click()
    status = page.get_by_test_id("viz-learner-status")
    expect(status).to_have_text(
        "Je passages zijn gelijk aan de referentie: 3 passages, dezelfde woorden, tekenbereiken en tekst.",
        timeout=60_000,
    )
    learner = page.get_by_test_id("viz-learner-passage")
    expect(learner).to_have_count(3)
    assert learner.evaluate_all("items => items.map(i => i.dataset.status)") == ["matching"] * 3
    expect(page.get_by_test_id("viz-passage").first).to_contain_text("klopt")


@pytest.mark.slow
def test_my_passages_with_a_wrong_word_chunks_names_the_first_difference(page, site_server):
    open_lesson(page, site_server)
    type_into_editor(page, WRONG_STEP)
    # The checkpoint panel's "Bekijk in de visualisatie" sends this event.
    page.evaluate("document.dispatchEvent(new CustomEvent('werkplaats:show-in-widget', {detail: {checkpoint: 'word_chunks'}}))")
    status = page.get_by_test_id("viz-learner-status")
    expect(status).to_have_text("Passage 2: word_start is 6, verwacht 4.", timeout=60_000)
    learner = page.get_by_test_id("viz-learner-passage")
    assert learner.evaluate_all("items => items.map(i => i.dataset.status)") == [
        "matching", "misplaced", "misplaced"]
    reference_marks = page.get_by_test_id("viz-passage").evaluate_all(
        "items => items.map(i => i.dataset.learnerStatus)")
    assert reference_marks == ["matching", "misplaced", "misplaced"]
    expect(learner.nth(1)).to_contain_text("woorden [6, 12)")
    expect(learner.nth(1)).to_contain_text("verkeerd geplaatst")
    expect(learner.nth(1)).to_contain_text("word_start is 6, verwacht 4")
    # The learner's passages store word 6 to 11 once: nothing repeated, nothing missing.
    expect(page.locator("[data-testid=viz-words] .is-learner-repeated")).to_have_count(0)
    # Whose passages each part shows: the word row the learner's, the list and figures the reference.
    note = page.get_by_test_id("viz-overlay-note")
    expect(note).to_have_text(
        "Je eigen passages: Passage 2: word_start is 6, verwacht 4. De kleuren in de woordenrij tonen "
        "nu je passages; de lijst Passages en de cijfers horen bij de referentie.")
    visualizer = page.locator("[data-visualizer]")
    expect(visualizer.get_by_role("heading", name="Woorden met hun woordindex: kleuren van je eigen passages")).to_be_visible()
    expect(visualizer.get_by_role("heading", name="Passages van de referentie")).to_be_visible()
    expect(visualizer.get_by_text("Cijfers van de referentie")).to_be_visible()

    # Changing the input makes the overlay stale rather than wrong.
    page.get_by_test_id("viz-overlap").fill("0")
    expect(status).to_contain_text("De invoer is veranderd")
    expect(learner).to_have_count(0)
    expect(note).to_be_hidden()
    expect(visualizer.get_by_role("heading", name="Passages", exact=True)).to_be_visible()
    expect(visualizer.get_by_text("Cijfers van de referentie")).to_be_hidden()

    # Learner output stays text: an HTML-looking message is shown literally.
    type_into_editor(page, "def word_chunks(document, window=40, overlap=8):\n"
                           "    raise KeyError('<img src=x onerror=alert(1)>')\n")
    page.get_by_test_id("viz-learner-run").click()
    expect(status).to_have_text(
        "Je word_chunks gaf een KeyError ('<img src=x onerror=alert(1)>'), maar de referentie "
        "maakt hier 3 passages.", timeout=30_000)
    expect(page.locator("[data-visualizer] img")).to_have_count(0)
