"""Finding the way around the rag-01 page: from the text to the practice area and back, with the
keyboard, a screen reader's names and a touch screen. None of this needs Python to start."""

from __future__ import annotations

import pytest

from tests.browser.editor_page import EditorPage

pytestmark = pytest.mark.browser

# The jumps to the practice area and back are for the stacked layout (below 1200 px), where the
# practice area sits below the whole text; side by side, see test_module_view.py.
STACKED_VIEWPORT = {"width": 1024, "height": 768}


@pytest.fixture
def stacked_page(page):
    page.set_viewport_size(STACKED_VIEWPORT)
    return page


def scroll_y(page) -> float:
    return page.evaluate("() => window.scrollY")


def is_focused(locator) -> bool:
    return locator.evaluate("element => element === document.activeElement")


def test_load_example_jumps_to_the_editor_and_back_to_the_same_place(stacked_page, site_server):
    page = stacked_page
    editor = EditorPage.open(page, site_server)
    load = page.locator("figure.example[data-source] [data-load-example]").nth(4)
    load.scroll_into_view_if_needed()
    reading_at = scroll_y(page)
    back = page.get_by_test_id("back-to-lesson")
    assert not back.is_visible()
    load.click()
    assert abs(scroll_y(page) - reading_at) > 2000, "the editor should be far below the text"
    assert back.is_visible()
    back.click()
    assert scroll_y(page) == pytest.approx(reading_at, abs=2)
    assert is_focused(load)
    assert not back.is_visible()
    assert "# --- Voorbeeld uit de les" in editor.editor_text()


def test_a_checkpoint_marker_focuses_its_card_and_leads_back(stacked_page, site_server):
    page = stacked_page
    EditorPage.open(page, site_server)
    link = page.locator("[data-checkpoint-marker=word_chunks] a")
    link.scroll_into_view_if_needed()
    reading_at = scroll_y(page)
    link.click()
    card = page.get_by_test_id("checkpoint-word_chunks")
    assert is_focused(card)
    page.keyboard.press("Tab")  # the next Tab continues inside the card, not at the top
    assert page.evaluate("() => document.activeElement.closest('[data-checkpoint=word_chunks]') !== null")
    page.get_by_test_id("back-to-lesson").click()
    assert scroll_y(page) == pytest.approx(reading_at, abs=2)
    assert is_focused(link)


def test_a_visible_link_near_the_top_leads_to_the_editor(stacked_page, site_server):
    page = stacked_page
    editor = EditorPage.open(page, site_server)
    to_editor = page.get_by_test_id("to-editor")
    assert to_editor.is_visible() and to_editor.bounding_box()["y"] < page.viewport_size["height"]
    to_editor.click()
    assert is_focused(page.locator("[data-testid=editor] .cm-content"))
    assert editor.button("run").bounding_box()["y"] >= 0
    page.get_by_test_id("back-to-lesson").click()
    assert scroll_y(page) == 0 and is_focused(to_editor)
    # The visualizer no longer says the editor is "hieronder": it is below the whole lesson.
    assert "hieronder" not in page.locator("[data-viz-learner]").inner_text()


def test_the_keyboard_path_skips_formulas_and_names_every_example(page, site_server):
    EditorPage.open(page, site_server)
    assert page.locator("div.math").count() == 2
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.className")
        assert "math" not in focused, "a display formula is a tab stop with nothing to do"
        if "cm-content" in focused:
            break
    else:
        pytest.fail("the editor was not reached with Tab")
    names = page.locator("figure.example[data-source] [data-load-example]").evaluate_all(
        "buttons => buttons.map(button => button.getAttribute('aria-label'))")
    assert names == [f"Laad in editor: voorbeeld {number}" for number in range(1, len(names) + 1)]


def test_a_touch_screen_is_not_told_about_ctrl_enter(browser, site_server):
    context = browser.new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        EditorPage.open(page, site_server)
        note = page.locator(".editor-note")
        assert note.inner_text() == "Python start zodra je hier aan de slag gaat."
    finally:
        context.close()


def test_the_page_says_what_is_not_there_yet_and_what_the_teacher_checks_too(page, site_server):
    EditorPage.open(page, site_server)
    prerequisites = page.locator(".prerequisites li")
    assert prerequisites.count() == 2
    # rag-00a is planned: named, not linked. rag-00b is written: linked, without the remark.
    planned, written = prerequisites.all()
    assert planned.inner_text().endswith("(nog niet beschikbaar)")
    assert planned.locator("a").count() == 0
    assert "(nog niet beschikbaar)" not in written.inner_text()
    assert written.locator("a").get_attribute("href") == "../rag-00b/"
    assert "(nog niet beschikbaar)" in page.locator(".callout--related").inner_text()
    assert "dezelfde tests plus een paar extra" in page.locator(".checkpoints__intro").inner_text()
