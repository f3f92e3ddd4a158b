"""rag-02's structure view (widgets/heading-sections/), driven in Chromium like a learner drives it."""

from __future__ import annotations

import hashlib
import json

import pytest
from playwright.sync_api import expect

from tests.lesson_pages import lesson_file, load_solution, open_lesson_page

pytestmark = pytest.mark.browser

SOLUTION_PATH = lesson_file("rag-02")


def load_reference():
    return load_solution("rag-02")


def open_lesson(page, site_server):
    open_lesson_page(page, site_server, "rag-02", "hs-section", 4)  # the default state


def document_of(text):
    return {"id": "eigen-bron", "title": "Eigen bron", "text": text,
            "revision": hashlib.sha256(text.encode("utf-8")).hexdigest()}


def drawn(page, testid, names):
    return page.get_by_test_id(testid).evaluate_all(
        f"items => items.map(i => [{', '.join(f'i.dataset.{name}' for name in names)}])")


def test_default_manual_matches_the_reference_before_python_starts(first_visit_page, site_server):
    page = first_visit_page  # a first visit: Python has not started
    open_lesson(page, site_server)
    reference = load_reference()
    text = page.get_by_test_id("hs-source").input_value()
    document = document_of(text)
    root = page.locator("[data-widget=heading-sections]")
    expect(root).to_have_count(1)
    sections = reference.section_chunks(document)
    assert drawn(page, "hs-section", ["start", "end", "headings"]) == [
        [str(c["start"]), str(c["end"]), json.dumps(c["headings"], separators=(",", ":"))] for c in sections]
    sized = reference.sized_chunks(document, 5, 1)
    assert drawn(page, "hs-sized-chunk", ["start", "end", "section"]) == [
        [str(c["start"]), str(c["end"]), str(c["section"])] for c in sized]
    headings = reference.markdown_headings(text)
    assert drawn(page, "hs-heading", ["level", "line", "start", "end"]) == [
        [str(h["level"]), str(h["line"]), str(h["start"]), str(h["end"])] for h in headings]
    # The # line inside the fence is shaded and crossed out, not a heading.
    expect(page.locator(".sections-view__src--not-heading")).to_have_text("# knipperen = fout")
    # Choosing a sized chunk shows its exact span and its embed_text.
    page.get_by_test_id("hs-sized-chunk").last.click()
    expect(page.get_by_test_id("hs-source-selected")).to_have_text("brandt groen na reset.")
    expect(page.get_by_test_id("hs-embed-text")).to_have_text(sized[-1]["embed_text"])
    assert page.evaluate("window.werkplaats.python.state") == "idle"


def test_typing_keeps_pythons_offsets_and_sizes_are_checked(page, site_server):
    open_lesson(page, site_server)
    reference = load_reference()
    text = "😀 inleiding\r\n# Kop ##\r\n\u3000tekst\u2028# geen kopje\r\n#######\r\n```\r\n# code\r\n```\r\nmeer 👩‍💻 tekst\r\n"
    page.get_by_test_id("hs-source").fill(text)
    expect(page.get_by_test_id("hs-section")).to_have_count(2)
    # A textarea turns "\r\n" into "\n" (HTML's newline normalisation): compare with what it holds.
    text = page.get_by_test_id("hs-source").input_value()
    assert "\r" not in text and "\u2028" in text
    sections = reference.section_chunks(document_of(text))
    assert drawn(page, "hs-section", ["start", "end"]) == [[str(c["start"]), str(c["end"])] for c in sections]
    page.get_by_test_id("hs-max-words").fill("2")
    page.get_by_test_id("hs-overlap").fill("0")
    sized = reference.sized_chunks(document_of(text), 2, 0)
    expect(page.get_by_test_id("hs-sized-chunk")).to_have_count(len(sized))
    assert drawn(page, "hs-sized-chunk", ["start", "end"]) == [[str(c["start"]), str(c["end"])] for c in sized]
    page.get_by_test_id("hs-overlap").fill("2")
    expect(page.get_by_test_id("hs-problems")).to_contain_text("overlap is een geheel getal van 0 tot max_words.")
    expect(page.get_by_test_id("hs-sized-chunk")).to_have_count(0)


def rag01_word_chunks(document, window, overlap):
    return load_solution("rag-01").word_chunks(document, window, overlap)


def heading_paths(headings):
    """Each heading's path as the tree shows it: a new heading closes every open one at its level or deeper."""
    open_headings, paths = [], []
    for heading in headings:
        open_headings = [entry for entry in open_headings if entry["level"] < heading["level"]] + [heading]
        paths.append([entry["title"] for entry in open_headings])
    return paths


def test_edits_in_the_middle_of_many_headings_redraw_exactly_what_python_gives(page, site_server):
    """Items are reused by key at both ends of each list: what is drawn after each edit (a heading
    turned into text, a word merged, then both undone) must still be the reference's, in order,
    with one tab stop per list."""
    open_lesson(page, site_server)
    reference = load_reference()
    page.get_by_test_id("hs-max-words").fill("3")
    page.get_by_test_id("hs-overlap").fill("1")
    base = "".join(f"# Kop {n}\ntekst {n} hier\n## Sub {n}\nmeer\n" for n in range(40))
    middle = base.index("# Kop 20")
    edits = [base, base[:middle] + "x" + base[middle + 1:], base[:middle + 1] + "Q" + base[middle + 2:], base,
             base[:middle] + base[middle + 9:]]
    for text in edits:
        page.get_by_test_id("hs-source").fill(text)
        document = document_of(text)
        headings = reference.markdown_headings(text)
        expect(page.get_by_test_id("hs-heading")).to_have_count(len(headings))
        assert drawn(page, "hs-heading", ["level", "line", "start", "end", "path"]) == [
            [str(h["level"]), str(h["line"]), str(h["start"]), str(h["end"]),
             json.dumps(path, separators=(",", ":"), ensure_ascii=False)] for h, path in zip(headings, heading_paths(headings))]
        assert drawn(page, "hs-section", ["start", "end", "headings"]) == [
            [str(c["start"]), str(c["end"]), json.dumps(c["headings"], separators=(",", ":"), ensure_ascii=False)]
            for c in reference.section_chunks(document)]
        assert drawn(page, "hs-sized-chunk", ["start", "end", "section"]) == [
            [str(c["start"]), str(c["end"]), str(c["section"])] for c in reference.sized_chunks(document, 3, 1)]
        windows = rag01_word_chunks(document, 3, 1)
        assert drawn(page, "hs-window", ["start", "end"]) == [[str(w["start"]), str(w["end"])] for w in windows]
        assert page.get_by_test_id("hs-window").evaluate_all("items => items.map(i => i.textContent)") == [
            f"woorden [{w['word_start']}, {w['word_end']}) · [{w['start']}, {w['end']}) · {w['text']}" for w in windows]
        for testid in ("hs-sections", "hs-sized", "hs-windows"):
            assert page.get_by_test_id(testid).evaluate("list => [...list.children].filter(i => i.tabIndex === 0).length") == 1
    # A click still chooses the item clicked, wherever the reuse put it. Dispatched on the item
    # itself: under load, a click by coordinates in a list of content-visibility items (whose
    # heights settle as they are drawn) can land beside it.
    page.get_by_test_id("hs-window").nth(2).dispatch_event("click")
    expect(page.get_by_test_id("hs-window").nth(2)).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("hs-embed-text")).to_have_text(windows[2]["text"])


@pytest.mark.slow
def test_my_chunks_matching_then_the_first_difference_in_dutch(page, site_server):
    open_lesson(page, site_server)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", SOLUTION_PATH.read_text(encoding="utf-8"))
    page.get_by_test_id("hs-learner-sized_chunks").click()
    status = page.get_by_test_id("hs-learner-status")
    expect(status).to_have_text("Je sized_chunks geeft precies wat de referentie geeft voor deze bron.", timeout=120_000)
    learner = page.get_by_test_id("hs-learner-chunk")
    expect(learner).to_have_count(8)
    assert learner.evaluate_all("items => items.map(i => i.dataset.status)") == ["matching"] * 8

    wrong = lesson_file("rag-02", "wrong/section_chunks__keeps_deeper_levels.py").read_text(encoding="utf-8")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", SOLUTION_PATH.read_text(encoding="utf-8") + "\n" + wrong)
    # The checkpoint panel's "Bekijk in de visualisatie" sends this event.
    page.evaluate("document.dispatchEvent(new CustomEvent('werkplaats:show-in-widget', {detail: {checkpoint: 'section_chunks'}}))")
    # Ophangen (level 3) stays open under Storingen: the path of s2 has one title too many.
    expect(status).to_have_text(
        "Eerste verschil: In [2]['headings'] staan 3 elementen; de referentie heeft er 2.", timeout=60_000)
    assert "different" in learner.evaluate_all("items => items.map(i => i.dataset.status)")
    # A changed source makes the answer stale rather than wrong.
    page.get_by_test_id("hs-max-words").fill("6")
    expect(status).to_contain_text("De invoer is veranderd")
    expect(learner).to_have_count(0)
