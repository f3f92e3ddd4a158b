"""Every widget on every lesson page can be used without a mouse (issue 17).

Generic, for whatever widgets the lessons use (found on the built pages), at both widths:
- Tab visits every control of the widget once, in the order of the markup, and leaves it again
  (no trap, either direction); no positive tabindex.
- Every element Tab reaches has an accessible name and a visible focus ring.
- A pane that scrolls can be reached by Tab itself or through a control inside it.
- A list to choose from (listbox, tablist, radiogroup) is driven by the arrow keys and Home/End:
  focus (or aria-activedescendant) moves, the item becomes the selected one (at once, or on Enter
  for a list with manual activation), and it is announced (the focused item has a name, or a live
  region says it); a list without aria-activedescendant has one tab stop.
The checks themselves are in tests/browser/keyboard.py; a widget's own keyboard tests are in its
folder (widgets/<name>/tests/).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import WIDTHS, set_width
from tests.browser.keyboard import check_choice_lists, check_tab_order, lesson_widgets
from tests.lessons.lesson_tests import LESSON_IDS

pytestmark = pytest.mark.browser

@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_every_widget_works_by_keyboard_alone(page, site_server, lesson_id):
    widget_ids = lesson_widgets(page, site_server, lesson_id)
    if not widget_ids:
        pytest.skip(f"{lesson_id} has no widget")
    for width_name in WIDTHS:
        set_width(page, width_name)
        for widget_id in widget_ids:
            check_tab_order(page, widget_id)
            check_choice_lists(page, widget_id)


def test_the_editor_indents_with_tab_and_esc_then_tab_leaves_it(page, site_server):
    # Not a widget, but the one place where Tab does something else: it must not trap a keyboard.
    page.goto(site_server.url + LESSON_IDS[0] + "/")
    content = page.locator("[data-testid=editor] .cm-content")
    content.wait_for()
    expect(page.locator(".editor-note")).to_contain_text("met Esc en daarna Tab verlaat je de editor")
    content.focus()
    page.keyboard.press("Tab")
    expect(content).to_be_focused()  # Tab indented
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('[data-testid=editor]')")
