"""axe-core on every built page (the index and every lesson, whatever lessons exist) at a desktop
and a phone width, in the page's fullest state: the practice panel and every widget drawn, a
program run, a checkpoint failed (its feedback on the page), its hint open, the widget that
lists it shown it, the solution's and the reset's questions open, "Terug naar de les" and the
solution shown (on the phone); and the index with that lesson's progress. No serious or critical
violation passes (issue 17).

One lesson page is brought into that state once (one Pyodide start) and checked at both widths.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import (
    WIDTHS,
    fail_a_checkpoint,
    phone_layout_problems,
    serious_violations,
    set_width,
    skipped_heading_levels,
    wait_for_widgets,
    wait_until_python_is_idle,
)
from tests.lessons.lesson_tests import LESSON_IDS

pytestmark = pytest.mark.browser


def test_every_built_page_is_one_of_the_pages_checked(built_site):
    built = sorted(path.relative_to(built_site).as_posix() for path in built_site.glob("**/index.html")
                   if path.parent.name not in ("pyodide", "assets"))
    assert built == sorted(["index.html", *(f"{lesson_id}/index.html" for lesson_id in LESSON_IDS)])


@pytest.mark.parametrize("width_name", WIDTHS)
def test_the_index_has_no_serious_violations(page, site_server, width_name):
    set_width(page, width_name)
    page.goto(site_server.url)
    page.wait_for_load_state("load")
    assert serious_violations(page) == []
    assert skipped_heading_levels(page) == []
    if width_name == "phone":
        assert phone_layout_problems(page) == []


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_a_lesson_page_in_use_has_no_serious_violations_at_either_width(restored_page, site_server, lesson_id):
    page = restored_page
    set_width(page, "desktop")
    page.goto(f"{site_server.url}{lesson_id}/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    wait_for_widgets(page)
    assert [("untouched", *violation) for violation in serious_violations(page)] == []
    # The outline of templates, lesson text and widgets together (the build warns about the text's own).
    assert skipped_heading_levels(page) == []

    checkpoint_id = fail_a_checkpoint(page, lesson_id)
    card = page.get_by_test_id(f"checkpoint-{checkpoint_id}")
    card.locator(".checkpoint__hint summary").click()
    show_in_widget = card.get_by_role("button", name="Bekijk in de visualisatie")
    if show_in_widget.count():
        show_in_widget.click()
        # A widget may call Python to show it (chunk-ranges runs the learner's code).
        wait_until_python_is_idle(page)
    # The questions the page asks before it acts: the solution's and the reset's.
    solution = page.get_by_test_id("solution")
    if solution.count():
        solution.locator("summary").click()
        page.get_by_test_id("solution-confirm").wait_for()
    page.get_by_test_id("reset").click()
    page.get_by_test_id("reset-confirm").wait_for()
    for width_name in WIDTHS:
        set_width(page, width_name)
        if width_name == "phone":
            # Stacked, a jump to the editor shows "Terug naar de les".
            page.get_by_test_id("to-editor").click()
            page.get_by_test_id("back-to-lesson").wait_for()
            if solution.count():  # and the solution itself, its long lines included
                page.get_by_test_id("solution-confirm").click()
                solution.locator("pre").wait_for()
            assert phone_layout_problems(page) == []
        assert [(width_name, *violation) for violation in serious_violations(page)] == []

    # The index with this lesson's progress drawn.
    page.goto(site_server.url)
    page.get_by_test_id(f"progress-{lesson_id}").wait_for()
    for width_name in WIDTHS:
        set_width(page, width_name)
        assert [("index", width_name, *violation) for violation in serious_violations(page)] == []


# A box overflows in a direction it scrolls in (a formula clips its height: overflow-y hidden).
SCROLL_BOXES = """() => [...document.querySelectorAll("[data-scroll-region]")].map((box, index) => {
    box.dataset.probeBox = String(index);
    const style = getComputedStyle(box);
    const scrolls = (overflow) => overflow === "auto" || overflow === "scroll";
    return {
        index,
        overflows: (scrolls(style.overflowX) && box.scrollWidth > box.clientWidth + 1)
            || (scrolls(style.overflowY) && box.scrollHeight > box.clientHeight + 1),
        tabStop: box.tabIndex === 0 && box.hasAttribute("tabindex"),
        visible: box.checkVisibility(),  // not the solution while its <details> is closed
        role: box.getAttribute("role"),
        name: box.getAttribute("aria-label") || "",
        html: box.outerHTML.slice(0, 80),
    };
})"""


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_every_scroll_box_is_a_named_tab_stop_exactly_while_it_scrolls(page, site_server, lesson_id):
    page.goto(f"{site_server.url}{lesson_id}/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    scrolled_by_keyboard = 0
    for width_name in ("phone", "desktop"):
        set_width(page, width_name)
        boxes = page.evaluate(SCROLL_BOXES)
        assert boxes, f"{lesson_id}: no code block, table or formula at all?"
        assert [box["html"] for box in boxes if not (box["role"] and box["name"])] == []
        assert [(width_name, box["html"]) for box in boxes if box["tabStop"] != box["overflows"]] == []
        for box in boxes:
            if not (box["overflows"] and box["visible"]):
                continue
            locator = page.locator(f"[data-probe-box='{box['index']}']")
            locator.focus()
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")  # reached from the keyboard, so :focus-visible applies
            expect(locator).to_be_focused()
            assert locator.evaluate("el => getComputedStyle(el).outlineStyle") == "solid", box["html"]
            if scrolled_by_keyboard == 0:
                axis = "scrollLeft" if locator.evaluate("el => el.scrollWidth > el.clientWidth + 1") else "scrollTop"
                page.keyboard.press("ArrowRight" if axis == "scrollLeft" else "ArrowDown")
                page.wait_for_function(f"el => el.{axis} > 0", arg=locator.element_handle())
                scrolled_by_keyboard += 1
        # The learner moves on: a focused box keeps its tab stop on purpose (scroll-regions.js), so
        # the last one focused here must not count at the next width, where it may fit.
        page.evaluate("() => document.activeElement?.blur()")
    assert scrolled_by_keyboard == 1, f"{lesson_id}: nothing scrolls even on a phone"
