"""input() in the editor, in Chromium: on a cross-origin isolated page the program's prompt shows
in the output area with a line to type in, the worker waits on a shared buffer while the page stays
responsive, the time limit pauses meanwhile, and Stop ends the wait; without isolation a Dutch
message says why it cannot work; a checked function that calls input() still fails at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.checkpoint_panel import CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, EditorPage

pytestmark = pytest.mark.browser

NO_INPUT_MESSAGE = (
    "input() werkt op deze pagina niet: de website staat niet toe dat Python wacht op wat je typt "
    "(de pagina is niet 'cross-origin isolated'). Zet de waarde zelf in je code, "
    'bijvoorbeeld naam = "Sam".'
)
GREETING = 'naam = input("Hoe heet je? ")\nprint("Hallo", naam)\njaar = int(input("Leeftijd: "))\nprint(jaar + 1)\n'


def input_line(page):
    return page.locator("[data-testid=input-line]")


def test_input_round_trip_with_isolation(restored_page, site_server):
    page = restored_page
    editor = EditorPage.open(page, site_server)
    editor.set_code(GREETING)
    editor.button("run").click()
    expect(input_line(page)).to_be_visible(timeout=COLD_START_MS)
    expect(editor.output).to_have_text("Hoe heet je? ")
    expect(page.locator("[data-editor-status]")).to_have_text(
        "Je programma wacht op invoer: typ je antwoord en druk op Enter.")
    # The worker is blocked; the page is not.
    assert page.evaluate("() => new Promise((resolve) => setTimeout(() => resolve(21 * 2), 10))") == 42
    expect(input_line(page)).to_be_focused()
    page.keyboard.type("<b>Sam</b>")
    page.keyboard.press("Enter")
    expect(input_line(page)).to_be_visible()
    expect(editor.output).to_have_text("Hoe heet je? <b>Sam</b>\nHallo <b>Sam</b>\nLeeftijd: ")
    page.keyboard.type("41")
    page.keyboard.press("Enter")
    editor.wait_until_idle()
    assert editor.output.inner_text() == "Hoe heet je? <b>Sam</b>\nHallo <b>Sam</b>\nLeeftijd: 41\n42\n"
    assert editor.output.locator("b").count() == 0  # the learner's text stays text
    expect(page.locator("[data-editor-status]")).to_have_text("Klaar.")
    expect(input_line(page)).to_have_count(0)


def test_waiting_for_input_does_not_count_against_the_time_limit(restored_page, site_server):
    page = restored_page
    editor = EditorPage.open(page, site_server, query="?timeLimit=1")
    editor.set_code('print(input("? ") * 2)\n')
    editor.button("run").click()
    expect(input_line(page)).to_be_visible(timeout=COLD_START_MS)
    page.wait_for_timeout(2000)
    page.keyboard.type("ja")
    page.keyboard.press("Enter")
    editor.wait_until_idle()
    assert editor.output.inner_text() == "? ja\njaja\n"


def test_stop_during_input_stops_the_program_without_a_new_worker(restored_page, site_server):
    page = restored_page
    editor = EditorPage.open(page, site_server)
    editor.set_code('input("Wacht: ")\nprint("niet bereikt")\n')
    editor.button("run").click()
    expect(input_line(page)).to_be_visible(timeout=COLD_START_MS)
    # Counted once Python runs: a page with a kept snapshot may ask for the wasm twice while it
    # starts (its preparation at load, then Pyodide's own fetch, which the worker cancels).
    wasm_fetches = len([url for url in page.request_log.urls if url.endswith("pyodide.asm.wasm")])
    editor.button("stop").click()
    editor.wait_until_idle(10_000)
    assert editor.output.inner_text() == "Wacht: \nGestopt.\n"
    expect(input_line(page)).to_have_count(0)
    assert "2" in editor.run("print(1 + 1)", timeout=10_000)
    # The interrupt ended the wait: the same interpreter goes on, no new worker fetched the wasm.
    assert len([url for url in page.request_log.urls if url.endswith("pyodide.asm.wasm")]) == wasm_fetches >= 1


def test_without_isolation_input_says_in_dutch_why_it_cannot_work(page, plain_site_server):
    editor = EditorPage.open(page, plain_site_server)
    assert page.evaluate("crossOriginIsolated") is False
    output = editor.run('naam = input("Hoe heet je? ")\n')
    stderr = editor.stream_text("stderr")
    assert stderr.endswith(f"RuntimeError: {NO_INPUT_MESSAGE}\n"), output
    assert 'File "main.py", line 1' in stderr
    assert "werkplaats-runtime" not in stderr
    expect(input_line(page)).to_have_count(0)


def test_a_checked_function_that_calls_input_still_fails_at_once(restored_page, site_server):
    page = restored_page
    panel = CheckpointPanel.open(page, site_server)
    panel.editor.set_code("def document_snapshots(records):\n    return input('?')\n")
    assert panel.check("document_snapshots") == "error"
    assert "OSError" in panel.message("document_snapshots") or "I/O" in panel.message("document_snapshots")
    expect(input_line(page)).to_have_count(0)
