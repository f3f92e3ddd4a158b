"""Learners see the module (issue 9, part 5), in Chromium: the index shows each lesson's progress
from this browser's storage, lessons link to their neighbours in the module, and on a wide screen
the lesson text and the practice panel sit side by side (stacked on a phone).

The index and the previous/next links use a module of several lessons (tests/builder/module_project.py);
the layout uses rag-01."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.lesson_progress import code_fingerprint
from builder.serve import start_server
from tests.browser.editor_page import COLD_START_MS, EditorPage
from tests.builder.module_project import module_project

pytestmark = pytest.mark.browser

AXE_PATH = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SOLUTION = "def count_words(text):\n    return len(text.split())\n"
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def module_site(tmp_path_factory):
    project = module_project(tmp_path_factory.mktemp("module"))
    run = project.build()
    assert run.returncode == 0, run.stderr
    return project


@pytest.fixture(scope="module")
def module_server(module_site):
    server = start_server(module_site.site, isolated=True)
    yield server
    server.close()


def bundle_sha256(project, lesson_id: str) -> str:
    meta = project.site / "checkpoints" / lesson_id / "meta.json"
    return json.loads(meta.read_text(encoding="utf-8"))["bundle_sha256"]


def stored_result(code: str, status: str = "pass", stale: bool = False) -> dict:
    """A result as checkpoint-panel.js stores it (checkpoint-results.js)."""
    return {"status": status, "passed": 2, "total": 2, "before_tests": False, "message": "", "visible": False,
            "expected": None, "actual": None, "code": code_fingerprint(code), "stale": stale}


def results_entry(bundle: str, results: dict) -> str:
    return json.dumps({"version": 1, "bundle_sha256": bundle, "results": results})


def code_entry(code: str) -> str:
    return json.dumps({"version": 1, "code": code})


def open_index_with(page, server, storage: dict[str, str]):
    """The index after `storage` (key -> raw value) was put into this browser's localStorage."""
    page.goto(server.url)
    page.evaluate("items => { for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value); }",
                  storage)
    page.reload()


def progress_text(page, lesson_id: str) -> str:
    """What a screen reader reads (the visible text after a visually hidden "Jouw voortgang:")."""
    progress = page.get_by_test_id(f"progress-{lesson_id}")
    progress.wait_for()
    return " ".join(progress.text_content().split())


def test_the_index_counts_a_pass_made_on_the_lesson_page_and_drops_it_after_an_edit(page, module_server):
    page.goto(module_server.url)
    assert progress_text(page, "tekst-01") == "Jouw voortgang: 0 van 1 checkpoint gehaald"
    page.get_by_role("link", name="Tel de woorden in een zin").click()
    editor = EditorPage(page)
    page.locator("[data-testid=editor] .cm-content").wait_for()
    editor.type_code(SOLUTION)
    page.get_by_test_id("check-count_words").click()
    page.locator("[data-testid=checkpoint-count_words][data-status=pass]").wait_for(timeout=COLD_START_MS)

    page.goto(module_server.url)
    card = page.get_by_test_id("progress-tekst-01")
    assert progress_text(page, "tekst-01") == "Jouw voortgang: 1 van 1 checkpoint gehaald"
    assert card.get_attribute("data-complete") == ""
    assert card.locator("[data-progress-bar]").evaluate("bar => bar.style.width") == "100%"
    assert progress_text(page, "tekst-03") == "Jouw voortgang: 0 van 1 checkpoint gehaald"

    # Code below the function: the pass holds on the lesson page, so on the index too.
    page.goto(f"{module_server.url}tekst-01/")
    editor.type_code(SOLUTION + "\nprint(count_words('een twee'))  # nog iets\n")
    page.locator("[data-checkpoint-panel][data-fingerprints-current]").wait_for(timeout=COLD_START_MS)
    page.goto(module_server.url)
    assert progress_text(page, "tekst-01") == "Jouw voortgang: 1 van 1 checkpoint gehaald"

    # The function itself changed: the lesson page says "controleer opnieuw", so the index does
    # not count it either.
    page.goto(f"{module_server.url}tekst-01/")
    editor.type_code(SOLUTION.replace("text.split()", "text.split(None)"))
    page.locator("[data-checkpoint-panel][data-fingerprints-current]").wait_for(timeout=COLD_START_MS)
    page.goto(module_server.url)
    assert progress_text(page, "tekst-01") == (
        "Jouw voortgang: 0 van 1 checkpoint gehaald · 1 eerder gehaald, controleer opnieuw")
    assert page.get_by_test_id("progress-tekst-01").get_attribute("data-complete") is None


def test_a_result_of_other_tests_is_not_counted(page, module_server, module_site):
    open_index_with(page, module_server, {
        "werkplaats:tekst-01:checkpoints": results_entry("0" * 64, {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-01:code": code_entry(SOLUTION),
        "werkplaats:tekst-03:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-03"), {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-03:code": code_entry(SOLUTION),
        # Marked stale by the lesson page (kept from older tests under the new hash): not counted.
        "werkplaats:tekst-02:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-02"), {"count_words": stored_result(SOLUTION, stale=True)}),
        "werkplaats:tekst-02:code": code_entry(SOLUTION),
    })
    stale = "Jouw voortgang: 0 van 1 checkpoint gehaald · 1 eerder gehaald, controleer opnieuw"
    assert progress_text(page, "tekst-01") == stale
    assert progress_text(page, "tekst-02") == stale
    assert progress_text(page, "tekst-03") == "Jouw voortgang: 1 van 1 checkpoint gehaald"


def test_without_stored_code_a_pass_counts_only_for_the_starter_code(page, module_server, module_site):
    starter = (module_site.root / "checkpoints" / "tekst-01" / "starter.py").read_text(encoding="utf-8")
    open_index_with(page, module_server, {
        # After "Startcode terugzetten" no code is stored: the editor opens with the starter code.
        "werkplaats:tekst-01:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-01"), {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-03:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-03"), {"count_words": stored_result(starter)}),
        # A failed check is no pass, whatever the code.
        "werkplaats:tekst-02:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-02"), {"count_words": stored_result(starter, status="fail")}),
    })
    assert progress_text(page, "tekst-01") == (
        "Jouw voortgang: 0 van 1 checkpoint gehaald · 1 eerder gehaald, controleer opnieuw")
    assert progress_text(page, "tekst-03") == "Jouw voortgang: 1 van 1 checkpoint gehaald"
    assert progress_text(page, "tekst-02") == "Jouw voortgang: 0 van 1 checkpoint gehaald"


def test_corrupted_storage_is_ignored_per_lesson(page, module_server, module_site):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_index_with(page, module_server, {
        "werkplaats:tekst-01:checkpoints": "{not json",
        "werkplaats:tekst-03:checkpoints": json.dumps({"version": 1, "bundle_sha256": "x",
                                                       "results": {"count_words": {"status": "pass"}}}),
        "werkplaats:tekst-02:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-02"), {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-02:code": code_entry(SOLUTION),
        "werkplaats:beeld-01:code": "[1, 2",  # unreadable code: the editor would open the starter code
        "werkplaats:beeld-01:checkpoints": results_entry(
            bundle_sha256(module_site, "beeld-01"), {"count_words": stored_result(SOLUTION)}),
    })
    assert progress_text(page, "tekst-01") == "Jouw voortgang: 0 van 1 checkpoint gehaald"
    assert progress_text(page, "tekst-03") == "Jouw voortgang: 0 van 1 checkpoint gehaald"
    assert progress_text(page, "tekst-02") == "Jouw voortgang: 1 van 1 checkpoint gehaald"
    assert progress_text(page, "beeld-01") == (
        "Jouw voortgang: 0 van 1 checkpoint gehaald · 1 eerder gehaald, controleer opnieuw")
    assert errors == []


def test_without_storage_the_index_shows_no_progress_and_still_works(browser, module_server):
    context = browser.new_context()
    # As with storage blocked in the browser's settings: every access to localStorage throws.
    context.add_init_script("""Object.defineProperty(window, "localStorage", {
        get() { throw new DOMException("blocked", "SecurityError"); } });""")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(module_server.url)
        page.wait_for_load_state("load")
        assert page.locator("[data-lesson-progress]").count() == 4
        assert page.locator("[data-lesson-progress]:visible").count() == 0
        assert page.get_by_role("link", name="Tel de woorden in een zin").is_visible()
        assert errors == []
    finally:
        context.close()


def test_the_index_with_progress_has_no_serious_accessibility_violations(page, module_server, module_site):
    open_index_with(page, module_server, {
        "werkplaats:tekst-01:checkpoints": results_entry(
            bundle_sha256(module_site, "tekst-01"), {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-01:code": code_entry(SOLUTION),
    })
    page.get_by_test_id("progress-tekst-01").wait_for()
    page.add_script_tag(path=str(AXE_PATH))
    results = page.evaluate("async () => await axe.run(document)")
    serious = [(violation["id"], [node["target"] for node in violation["nodes"]][:3])
               for violation in results["violations"] if violation["impact"] in ("serious", "critical")]
    assert serious == []


def test_lessons_link_to_the_previous_and_next_lesson_of_their_module(page, module_server):
    page.goto(f"{module_server.url}tekst-01/")
    assert page.get_by_test_id("previous-lesson").count() == 0
    pager = page.get_by_role("navigation", name="Lessen in deze module")
    next_link = pager.get_by_role("link", name="Volgende les Tel de zinnen in een tekst")
    next_link.click()
    page.wait_for_url(f"{module_server.url}tekst-03/")
    assert page.locator("h1").inner_text() == "Tel de zinnen in een tekst"
    page.get_by_test_id("next-lesson").click()
    page.wait_for_url(f"{module_server.url}tekst-02/")
    assert page.get_by_test_id("next-lesson").count() == 0
    page.get_by_role("link", name="Vorige les Tel de zinnen in een tekst").click()
    page.wait_for_url(f"{module_server.url}tekst-03/")
    page.get_by_test_id("previous-lesson").click()
    page.wait_for_url(f"{module_server.url}tekst-01/")
    # A module of one lesson has nothing to link.
    page.goto(f"{module_server.url}beeld-01/")
    assert page.locator(".lesson-pager").count() == 0


# The layout, on rag-01.

def boxes(page) -> dict:
    return page.evaluate("""() => {
        const box = (selector) => {
            const rect = document.querySelector(selector).getBoundingClientRect();
            return {left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom};
        };
        return {article: box("main.lesson > .lesson__article"), practice: box("main.lesson > .practice"),
                run: box("[data-testid=run]"), scrollY: window.scrollY, height: window.innerHeight};
    }""")


def open_rag_01(browser, site_server, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    EditorPage.open(page, site_server)
    return context, page


def test_on_a_wide_screen_the_practice_panel_sits_beside_the_text_and_stays_in_view(browser, site_server):
    context, page = open_rag_01(browser, site_server, WIDE)
    try:
        layout = boxes(page)
        assert layout["practice"]["left"] >= layout["article"]["right"]
        assert layout["practice"]["right"] <= WIDE["width"]
        page.mouse.move(300, 400)  # over the text
        page.mouse.wheel(0, 4000)
        page.wait_for_function("() => window.scrollY >= 3000")
        layout = boxes(page)
        assert layout["article"]["top"] < -3000, "the text has scrolled"
        assert layout["practice"]["top"] == pytest.approx(0, abs=1), "the panel stays at the top"
        assert layout["practice"]["bottom"] <= layout["height"] + 1
        assert 0 <= layout["run"]["top"] < layout["height"], "the editor's Run button is in view"
        # Taller than the window, the panel scrolls on its own and leaves the text where it was.
        panel = page.locator("main.lesson > .practice")
        assert panel.evaluate("panel => panel.scrollHeight > panel.clientHeight + 500")
        page.mouse.move(1000, 780)  # over the panel, below the editor's own scroll box
        page.mouse.wheel(0, 600)
        page.wait_for_function("() => document.querySelector('main.lesson > .practice').scrollTop > 0")
        assert boxes(page)["scrollY"] == layout["scrollY"]
    finally:
        context.close()


def test_on_a_wide_screen_jumps_to_the_practice_panel_leave_the_text_in_place(browser, site_server):
    context, page = open_rag_01(browser, site_server, WIDE)
    try:
        editor = EditorPage(page)
        load = page.locator("figure.example[data-source] [data-load-example]").nth(4)
        load.scroll_into_view_if_needed()
        reading_at = page.evaluate("() => window.scrollY")
        load.click()
        assert "# --- Voorbeeld uit de les" in editor.editor_text()
        assert page.evaluate("() => window.scrollY") == pytest.approx(reading_at, abs=2)
        assert load.is_visible() and 0 <= boxes(page)["run"]["top"] < WIDE["height"]
        assert not page.get_by_test_id("back-to-lesson").is_visible(), "nothing to go back to"

        marker = page.locator("[data-checkpoint-marker=chunk_coverage] a")
        marker.scroll_into_view_if_needed()
        reading_at = page.evaluate("() => window.scrollY")
        marker.click()
        card = page.get_by_test_id("checkpoint-chunk_coverage")
        assert card.evaluate("card => card === document.activeElement")
        top = card.evaluate("card => card.getBoundingClientRect().top")
        assert 0 <= top < WIDE["height"] / 2, "the card is at the top of the panel"
        assert page.evaluate("() => window.scrollY") == pytest.approx(reading_at, abs=2)
        assert not page.get_by_test_id("back-to-lesson").is_visible()

        page.evaluate("() => window.scrollTo(0, 0)")
        to_editor = page.get_by_test_id("to-editor")
        assert to_editor.inner_text().strip() == "Naar de editor →"
        to_editor.click()
        assert page.locator("[data-testid=editor] .cm-content").evaluate("e => e === document.activeElement")
        assert page.evaluate("() => window.scrollY") == 0
        assert 0 <= boxes(page)["run"]["top"] < WIDE["height"]
    finally:
        context.close()


def test_on_a_phone_the_practice_area_stays_below_the_text(browser, site_server):
    context, page = open_rag_01(browser, site_server, PHONE)
    try:
        layout = boxes(page)
        assert layout["practice"]["top"] >= layout["article"]["bottom"]
        assert layout["article"]["right"] <= PHONE["width"] and layout["practice"]["right"] <= PHONE["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
        page.evaluate("() => window.scrollTo(0, 3000)")
        assert boxes(page)["practice"]["top"] > PHONE["height"], "the panel does not follow the text"
        to_editor = page.get_by_test_id("to-editor")
        page.evaluate("() => window.scrollTo(0, 0)")
        assert to_editor.inner_text().strip() == "Naar de editor ↓"
        to_editor.click()
        assert page.evaluate("() => window.scrollY") > 3000
        page.get_by_test_id("back-to-lesson").click()
        assert page.evaluate("() => window.scrollY") == 0
    finally:
        context.close()


def test_widening_the_window_after_a_jump_drops_the_way_back(browser, site_server):
    context, page = open_rag_01(browser, site_server, {"width": 1024, "height": 768})
    try:
        page.get_by_test_id("to-editor").click()
        back = page.get_by_test_id("back-to-lesson")
        assert back.is_visible()
        page.set_viewport_size(WIDE)
        back.wait_for(state="hidden")
    finally:
        context.close()
