"""A pass belongs to the function it graded (issue 25, item 1), in Chromium: editing another
function, stray whitespace elsewhere and an example loaded below keep it; a change to the function
itself or to a helper it uses asks for a re-check. The panel, the index page, the lesson's
download and the module's download all say the same (site/src/code-fingerprints.js)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.checkpoint_panel import LESSON_DIR, CheckpointPanel

pytestmark = pytest.mark.browser

SOLUTION = (LESSON_DIR / "solution.py").read_text(encoding="utf-8")
# word_chunks, another checkpoint's function that document_snapshots does not use, written differently.
OTHER_FUNCTION_EDITED = SOLUTION.replace("def word_chunks(document, window=40, overlap=8):\n",
                                         "def word_chunks(document, window=40, overlap=8):\n    # nog bezig\n    x = 1\n")
# sha256_of: a helper document_snapshots uses.
HELPER_EDITED = SOLUTION.replace('return hashlib.sha256(text.encode("utf-8")).hexdigest()',
                                 'return hashlib.sha256(text.encode("utf-8")).hexdigest()[:64]')
OWN_FUNCTION_EDITED = SOLUTION.replace('"geef een lijst met 1 tot', '"Geef een lijst met 1 tot')


def wait_for_fingerprints(page) -> None:
    page.locator("[data-checkpoint-panel][data-fingerprints-current]").wait_for(timeout=60_000)


def lesson_download_verdicts(page, tmp_path) -> dict:
    page.locator("[data-testid=learner-name]").fill("Anna")
    with page.expect_download() as download_info:
        page.locator("[data-testid=export]").click()
    saved = tmp_path / "lesson.json"
    download_info.value.save_as(saved)
    return json.loads(saved.read_text(encoding="utf-8"))["browser_verdicts"]


def index_progress(page, server) -> str:
    page.goto(server.url)
    progress = page.get_by_test_id("progress-rag-01")
    progress.wait_for()
    return " ".join(progress.text_content().split())


def module_download_verdicts(page, tmp_path) -> dict:
    section = page.locator("[data-module]").filter(has=page.get_by_test_id("progress-rag-01"))
    form = section.locator("[data-module-export]")
    form.get_by_label("Je naam").fill("Anna")
    with page.expect_download() as download_info:
        form.get_by_role("button", name="Download al je werk van deze module").click()
    saved = tmp_path / "module.json"
    download_info.value.save_as(saved)
    lessons = json.loads(saved.read_text(encoding="utf-8"))["lessons"]
    return next(lesson for lesson in lessons if lesson["lesson"] == "rag-01")["browser_verdicts"]


def test_a_pass_survives_other_edits_and_is_lost_when_its_code_changes(restored_page, site_server, tmp_path):
    page = restored_page  # the start is not what is tested (tests/shared_fixtures.py)
    panel = CheckpointPanel.open(page, site_server)
    progress = page.locator("[data-testid=progress]")
    card = panel.card("document_snapshots")
    panel.editor.set_code(SOLUTION)
    assert panel.check("document_snapshots") == "pass"

    # Another function, typed in from the keyboard; then a stray Tab and blank lines between functions.
    panel.editor.type_code(OTHER_FUNCTION_EDITED)
    wait_for_fingerprints(page)
    assert panel.status("document_snapshots") == "pass" and card.get_attribute("data-outdated") is None
    panel.editor.set_code(OTHER_FUNCTION_EDITED.replace("\n\ndef word_spans", "\n\t\n\n\ndef word_spans"))
    wait_for_fingerprints(page)
    expect(progress).to_have_text("1 / 3")

    # An example of the lesson loaded below the learner's code.
    page.locator("figure.example[data-source] [data-load-example]").first.click()
    assert "# --- Voorbeeld uit de les" in panel.editor.editor_text()
    wait_for_fingerprints(page)
    assert panel.status("document_snapshots") == "pass"
    expect(progress).to_have_text("1 / 3")
    assert lesson_download_verdicts(page, tmp_path) == {"document_snapshots": "pass"}
    # The index page and the module's download count it too, after a reload of nothing but storage.
    assert index_progress(page, site_server) == "Jouw voortgang: 1 van 3 checkpoints gehaald"
    assert module_download_verdicts(page, tmp_path) == {"document_snapshots": "pass"}

    # A helper it uses, then the function itself: a re-check, everywhere.
    for changed in (HELPER_EDITED, OWN_FUNCTION_EDITED):
        assert changed != SOLUTION
        panel = CheckpointPanel.open(page, site_server)
        panel.editor.set_code(changed)
        wait_for_fingerprints(page)
        assert card.get_attribute("data-outdated") is not None
        assert panel.state_text("document_snapshots") == "Geslaagd met een eerdere versie van je code — controleer opnieuw."
        expect(page.locator("[data-testid=progress]")).to_have_text("0 / 3 · 1 met eerdere code")
        assert lesson_download_verdicts(page, tmp_path) == {}
        assert index_progress(page, site_server) == (
            "Jouw voortgang: 0 van 3 checkpoints gehaald · 1 eerder gehaald, controleer opnieuw")
        assert module_download_verdicts(page, tmp_path) == {}
        # Back to the checked code: the pass counts again.
        panel = CheckpointPanel.open(page, site_server)
        panel.editor.set_code(SOLUTION)
        wait_for_fingerprints(page)
        expect(page.locator("[data-testid=progress]")).to_have_text("1 / 3")


def test_an_edit_made_while_the_lesson_data_loads_is_followed_like_any_later_edit(page, plain_site_server):
    """The learner edits before the panel has the lesson's meta.json (a slow school network): once
    it arrives, that edit gets what any edit with results to keep gets, the fingerprints of the new
    code. Here the edit brings back the checked code, so nothing else would ask for them."""
    panel = CheckpointPanel.open(page, plain_site_server)  # no service worker: the route sees meta.json
    panel.editor.set_code(SOLUTION)
    assert panel.check("document_snapshots") == "pass"
    panel.editor.set_code(HELPER_EDITED)
    wait_for_fingerprints(page)
    held = []
    page.route("**/meta.json", lambda route: held.append(route))
    page.reload()
    while not held:
        page.wait_for_timeout(20)
    panel.editor.set_code(SOLUTION)
    held[0].continue_()
    wait_for_fingerprints(page)
    assert panel.status("document_snapshots") == "pass" and panel.card("document_snapshots").get_attribute("data-outdated") is None
