"""The chunk-ranges widget by keyboard alone, in Chromium (issue 17): its passage list, its number
fields, its scrolling source view, and word marks that are said, not only coloured. Every widget's
generic keyboard checks are in tests/browser/test_widget_keyboard.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keyboard import check_choice_lists
from tests.lesson_pages import open_lesson_page

pytestmark = pytest.mark.browser


def open_chunk_ranges(page: Page, site_server) -> None:
    open_lesson_page(page, site_server, "rag-01", "viz-passage", 3)


def test_chunk_ranges_passage_list_is_one_stop_driven_by_keys(page, site_server):
    open_chunk_ranges(page, site_server)
    widget_id = page.locator("[data-widget=chunk-ranges]").first.get_attribute("id")
    assert check_choice_lists(page, widget_id) == 1
    passages = page.get_by_test_id("viz-passage")
    # Many passages: the Page keys skip ten, and the choice is said in the focused option.
    page.get_by_test_id("viz-window").fill("1")
    page.get_by_test_id("viz-overlap").fill("0")
    expect(passages).to_have_count(14)
    passages.first.focus()
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")
    expect(passages.nth(10)).to_be_focused()
    expect(passages.nth(10)).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("Passage 11")
    page.keyboard.press("PageUp")
    expect(passages.first).to_be_focused()


def test_chunk_ranges_fields_change_by_keyboard_and_the_figures_are_announced(page, site_server):
    open_chunk_ranges(page, site_server)
    figures = page.locator("[data-widget=chunk-ranges] .visualizer__figures")
    expect(figures).to_have_attribute("aria-live", "polite")
    window = page.get_by_test_id("viz-window")
    window.focus()
    for _ in range(8):
        page.keyboard.press("ArrowUp")  # a number field steps with the arrow keys
    expect(window).to_have_value("14")  # the 14 words of the default text in one passage
    expect(page.get_by_test_id("viz-passages-count")).to_have_text("1")
    # The problems appear in a live region too.
    page.keyboard.press("Control+A")
    page.keyboard.type("0")
    problems = page.get_by_test_id("viz-problems")
    expect(problems).to_be_visible()
    expect(problems).to_have_attribute("aria-live", "polite")


def test_chunk_ranges_long_source_view_is_a_named_scroll_box_the_keyboard_scrolls(page, site_server):
    open_chunk_ranges(page, site_server)
    page.get_by_test_id("viz-source").fill(" ".join(f"woord{index}" for index in range(600)))
    view = page.get_by_test_id("viz-source-view")
    expect(view).to_have_attribute("aria-label", "De gekozen passage in de bron")
    assert view.evaluate("el => el.scrollHeight > el.clientHeight")
    page.get_by_test_id("viz-passage").first.focus()
    page.keyboard.press("Tab")
    expect(view).to_be_focused()
    assert view.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    before = view.evaluate("el => el.scrollTop")
    page.keyboard.press("PageDown")
    page.wait_for_function("([el, before]) => el.scrollTop > before", arg=[view.element_handle(), before])


def test_chunk_ranges_word_marks_are_said_not_only_coloured(page, site_server):
    open_chunk_ranges(page, site_server)
    # The default: window 6, overlap 2 over 14 words; words 4-5 and 8-9 are stored twice.
    snapshot = page.get_by_test_id("viz-words").aria_snapshot()
    assert "3groen 4na (vaker bewaard) 5reset. (vaker bewaard) 6Houd" in snapshot
    assert snapshot.count("(vaker bewaard)") == 4
    page.get_by_test_id("viz-overlap").fill("0")
    page.get_by_test_id("viz-window").fill("20")
    expect(page.get_by_test_id("viz-passage")).to_have_count(1)
    assert "(vaker bewaard)" not in page.get_by_test_id("viz-words").aria_snapshot()
