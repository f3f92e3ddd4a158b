"""axe-core on every built page (the index and every lesson, whatever lessons exist) at a desktop
and a phone width, in the page's fullest state: the practice panel and every widget drawn, a
program run, a checkpoint failed (its feedback on the page), its hint open, the widget that
lists it shown it, the solution's and the reset's questions open, "Terug naar de les" shown; and
the index with that lesson's progress. No serious or critical violation passes (issue 17).

One lesson page is brought into that state once (one Pyodide start) and checked at both widths.
"""

from __future__ import annotations

import pytest

from tests.browser.accessibility import WIDTHS, fail_a_checkpoint, serious_violations, set_width, wait_for_widgets
from tests.browser.editor_page import COLD_START_MS
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


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_a_lesson_page_in_use_has_no_serious_violations_at_either_width(page, site_server, lesson_id):
    set_width(page, "desktop")
    page.goto(f"{site_server.url}{lesson_id}/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    wait_for_widgets(page)
    assert [("untouched", *violation) for violation in serious_violations(page)] == []

    checkpoint_id = fail_a_checkpoint(page, lesson_id)
    card = page.get_by_test_id(f"checkpoint-{checkpoint_id}")
    card.locator(".checkpoint__hint summary").click()
    show_in_widget = card.get_by_role("button", name="Bekijk in de visualisatie")
    if show_in_widget.count():
        show_in_widget.click()
        # A widget may call Python to show it (chunk-ranges runs the learner's code).
        page.wait_for_function("() => !document.querySelector('[data-widget] [aria-busy=true]')",
                               timeout=COLD_START_MS)
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
        assert [(width_name, *violation) for violation in serious_violations(page)] == []

    # The index with this lesson's progress drawn.
    page.goto(site_server.url)
    page.get_by_test_id(f"progress-{lesson_id}").wait_for()
    for width_name in WIDTHS:
        set_width(page, width_name)
        assert [("index", width_name, *violation) for violation in serious_violations(page)] == []
