"""The text-units widget on rag-00b's page, in Chromium: the table follows what is typed, astral
characters, combining marks and flags included; a byte span chosen by clicking (or by keyboard, or
typed) says which code points it covers or which one it cuts; the learner's own functions appear
beside the right answers with the first difference marked in words; and a redraw at the widget's
size limit stays fast."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.editor_page import COLD_START_MS

pytestmark = pytest.mark.browser

LESSON = Path(__file__).resolve().parents[3] / "checkpoints" / "rag-00b"


def open_widget(page: Page, server) -> None:
    page.goto(server.url + "rag-00b/")
    expect(page.get_by_test_id("tu-row")).to_have_count(6)


def rows(page: Page) -> list[dict]:
    return page.get_by_test_id("tu-rows").evaluate("""body => [...body.querySelectorAll("tr")].map(tr =>
        ({ index: Number(tr.dataset.index), cells: [...tr.cells].map(td => td.textContent.trim()) }))""")


def test_the_lesson_example_row_by_row(page, site_server):
    open_widget(page, site_server)
    expect(page.get_by_test_id("tu-summary")).to_have_text("6 codepunten · 10 UTF-8-bytes · 7 UTF-16-eenheden")
    table = rows(page)
    assert [row["cells"][2:7] for row in table[:6]] == [
        ["U+0063", "63", "[0, 1)", "0063", "0"],
        ["U+0061", "61", "[1, 2)", "0061", "1"],
        ["U+0066", "66", "[2, 3)", "0066", "2"],
        ["U+00E9", "C3 A9", "[3, 5)", "00E9", "3"],
        ["U+0020", "20", "[5, 6)", "0020", "4"],
        ["U+1F642", "F0 9F 99 82", "[6, 10)", "D83D DE42", "5"],
    ]
    assert table[6]["cells"][1:] == ["(einde)", "", "", "[10]", "", "7"]
    # The lesson presets the span of the é.
    expect(page.get_by_test_id("tu-span-result")).to_have_text(
        "Bytes [3, 5) zijn codepunten [3, 4): é. byte_span_to_chars geeft [3, 4].")
    assert table[3]["cells"][0].startswith("▶")


def test_typing_combining_marks_and_a_flag(page, site_server):
    open_widget(page, site_server)
    page.get_by_test_id("tu-source").fill("e\u0301 \U0001F1F3\U0001F1F1")
    expect(page.get_by_test_id("tu-summary")).to_have_text("5 codepunten · 12 UTF-8-bytes · 7 UTF-16-eenheden")
    table = rows(page)
    assert [row["cells"][1] for row in table] == ["e", "\u25cc\u0301", "(spatie)", "\U0001F1F3", "\U0001F1F1", "(einde)"]
    assert [row["cells"][4] for row in table] == ["[0, 1)", "[1, 3)", "[3, 4)", "[4, 8)", "[8, 12)", "[12]"]
    assert [row["cells"][6] for row in table] == ["0", "1", "2", "3", "5", "7"]


def test_clicking_two_boundaries_and_a_cut(page, site_server):
    open_widget(page, site_server)
    boundaries = page.get_by_test_id("tu-boundary")
    expect(boundaries).to_have_count(11)
    expect(boundaries.nth(4)).to_have_attribute("data-inner", "true")
    boundaries.nth(6).click()
    boundaries.nth(10).click()
    result = page.get_by_test_id("tu-span-result")
    expect(result).to_have_text("Bytes [6, 10) zijn codepunten [5, 6): \U0001F642. byte_span_to_chars geeft [5, 6].")
    expect(boundaries.nth(6)).to_have_attribute("aria-label", "grens 6, gekozen als begin")
    # A boundary inside the emoji: the span cuts it, said in words and with ✂ in its row.
    boundaries.nth(6).click()
    boundaries.nth(8).click()
    expect(result).to_contain_text("knippen codepunt 5")
    expect(result).to_contain_text("byte_span_to_chars geeft een ValueError")
    assert rows(page)[5]["cells"][0].startswith("✂")
    # Reversed and outside, typed.
    page.get_by_test_id("tu-byte-start").fill("5")
    page.get_by_test_id("tu-byte-end").fill("3")
    expect(result).to_contain_text("het begin ligt na het eind")
    page.get_by_test_id("tu-byte-start").fill("0")
    page.get_by_test_id("tu-byte-end").fill("11")
    expect(result).to_contain_text("grens 11 ligt buiten de 10 bytes")


def test_the_byte_strip_is_one_tab_stop_driven_by_arrows(page, site_server):
    open_widget(page, site_server)
    boundaries = page.get_by_test_id("tu-boundary")
    assert boundaries.evaluate_all("buttons => buttons.filter(b => b.tabIndex === 0).length") == 1
    boundaries.first.focus()
    page.keyboard.press("End")
    expect(boundaries.nth(10)).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(boundaries.nth(1)).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("tu-span-result")).to_have_text(
        "Bytes [10, 1): het begin ligt na het eind; byte_span_to_chars geeft een ValueError.")
    assert boundaries.evaluate_all("buttons => buttons.filter(b => b.tabIndex === 0).length") == 1


def test_a_lone_surrogate_and_the_size_limit_are_said(page, site_server):
    open_widget(page, site_server)
    page.get_by_test_id("tu-source").evaluate("(area) => { area.value = 'a\\ud800'; area.dispatchEvent(new Event('input')); }")
    problem = page.get_by_test_id("tu-problem")
    expect(problem).to_be_visible()
    expect(problem).to_contain_text("losse surrogaat")
    assert rows(page)[1]["cells"][3] == "geen (losse surrogaat)"
    page.get_by_test_id("tu-source").fill("x" * 101)
    expect(problem).to_contain_text("101 codepunten; de tabel toont er hoogstens 100")
    expect(page.get_by_test_id("tu-row")).to_have_count(0)


def learner_code(change: tuple[str, str] | None = None) -> str:
    source = (LESSON / "correct" / "class_based.py").read_text(encoding="utf-8")
    if change:
        assert change[0] in source
        source = source.replace(*change)
    return source


def compare(page: Page, source: str) -> None:
    page.locator("[data-testid=editor] .cm-content").wait_for()
    page.evaluate("code => window.werkplaats.editor.setCode(code)", source)
    button = page.get_by_test_id("tu-learner-run")
    expect(button).to_be_enabled()
    button.click()
    page.wait_for_function(
        "() => ['matching', 'different'].includes(document.querySelector('[data-text-units]').dataset.learnerState)",
        timeout=COLD_START_MS)


def test_a_correct_learner_matches_every_row(page, site_server):
    open_widget(page, site_server)
    compare(page, learner_code())
    expect(page.get_by_test_id("tu-learner-status")).to_have_text(
        "utf8_offsets klopt voor elke rij. char_to_utf16 klopt voor elke index. byte_span_to_chars klopt voor dit bereik.")
    cells = page.get_by_test_id("tu-learner-cell")
    expect(cells).to_have_count(6 + 7)
    assert set(cells.evaluate_all("cs => cs.map(c => c.dataset.verdict)")) == {"same"}


def test_the_first_difference_is_marked_in_words(page, site_server):
    open_widget(page, site_server)
    # A learner who counts code points, not UTF-16 units: the first difference is at index 6.
    compare(page, learner_code(("return table.utf16_starts[index]", "return index")))
    expect(page.get_by_test_id("tu-learner-status")).to_contain_text("char_to_utf16 verschilt eerst bij index 6.")
    first = page.locator("[data-testid=tu-learner-cell][data-first-difference=true]")
    expect(first).to_have_count(1)
    expect(first).to_contain_text("eerste verschil")
    expect(first).to_contain_text("6")
    assert page.locator("[data-text-units]").get_attribute("data-learner-state") == "different"


def test_a_learner_that_raises_is_shown_as_text(page, site_server):
    open_widget(page, site_server)
    compare(page, learner_code(("    return UnitTable(text).rows()", "    return 1 / 0")))
    expect(page.get_by_test_id("tu-learner-status")).to_contain_text("ZeroDivisionError")


def test_the_size_limit_is_drawn_whole_and_a_span_change_redraws_no_row(page, site_server):
    # The redraw time at this size is a benchmark (bench/text_units.py, BENCHMARKS.md), not a test:
    # wall time on a shared machine is noise. What is tested: the whole table at the limit, and
    # that choosing a span touches only the rows it marks (the rows are not rebuilt).
    open_widget(page, site_server)
    page.get_by_test_id("tu-source").fill("\U0001F642" * 100)
    expect(page.get_by_test_id("tu-row")).to_have_count(100)
    expect(page.get_by_test_id("tu-boundary")).to_have_count(401)
    page.evaluate("() => { window.firstRow = document.querySelector('[data-testid=tu-row]'); }")
    page.get_by_test_id("tu-byte-start").fill("0")
    page.get_by_test_id("tu-byte-end").fill("8")
    expect(page.get_by_test_id("tu-span-result")).to_contain_text("zijn codepunten [0, 2)")
    assert page.evaluate("() => window.firstRow === document.querySelector('[data-testid=tu-row]')")


def test_an_edit_redraws_only_the_rows_it_changes_and_the_table_stays_exact(page, site_server):
    # A redraw keeps the rows and strip elements whose HTML did not change: the head of the table
    # stays the same element, and what is drawn is exactly what a fresh count gives.
    open_widget(page, site_server)
    source = page.get_by_test_id("tu-source")
    source.fill("ab\U0001F642cd")
    expect(page.get_by_test_id("tu-summary")).to_have_text("5 codepunten · 8 UTF-8-bytes · 6 UTF-16-eenheden")
    page.evaluate("() => { window.firstRow = document.querySelector('[data-testid=tu-row]'); }")
    source.fill("ab\u00e9cd")  # the middle code point narrower: every row after it shifts
    expect(page.get_by_test_id("tu-summary")).to_have_text("5 codepunten · 6 UTF-8-bytes · 5 UTF-16-eenheden")
    assert page.evaluate("() => window.firstRow === document.querySelector('[data-testid=tu-row]')")
    table = rows(page)
    assert [row["index"] for row in table] == [0, 1, 2, 3, 4, 5]
    assert [row["cells"][4] for row in table] == ["[0, 1)", "[1, 2)", "[2, 4)", "[4, 5)", "[5, 6)", "[6]"]
    assert [row["cells"][6] for row in table] == ["0", "1", "2", "3", "4", "5"]
    boundaries = page.get_by_test_id("tu-boundary")
    expect(boundaries).to_have_count(7)
    assert boundaries.evaluate_all("bs => bs.map(b => b.dataset.boundary)") == [str(i) for i in range(7)]
    assert boundaries.evaluate_all("buttons => buttons.filter(b => b.tabIndex === 0).length") == 1
    # The lesson's span [3, 5) now cuts the é, marked on its row only.
    expect(page.get_by_test_id("tu-span-result")).to_contain_text("knippen codepunt 2")
    assert [row["cells"][0][:1] for row in table[:5]] == ["0", "1", "✂", "3", "4"]
    source.fill("ab\u00e9cde")  # typing at the end: the rows before stay, one is added
    expect(page.get_by_test_id("tu-row")).to_have_count(6)
    assert page.evaluate("() => window.firstRow === document.querySelector('[data-testid=tu-row]')")
    assert [row["cells"][4] for row in rows(page)] == ["[0, 1)", "[1, 2)", "[2, 4)", "[4, 5)", "[5, 6)", "[6, 7)", "[7]"]
