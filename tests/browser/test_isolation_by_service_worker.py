"""Cross-origin isolation on any static host (site/src/service-worker.js, offline.js), in Chromium:
on a server that sends no isolation headers, the site's service worker adds them, after one reload
that the page announces in Dutch; then input() and Stop without a restart work as on a server that
sends them. A server that sends them gets no reload and no notice."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.editor_page import COLD_START_MS, WASM_SERVED, EditorPage

pytestmark = pytest.mark.browser

NOTICE = "[data-testid=isolation-notice]"
NOTICE_TEXT = ("De pagina wordt één keer opnieuw geladen, zodat de Stop-knop en input() hier volledig werken. "
               "Je code blijft bewaard.")
INFINITE_LOOP = "while True:\n    pass\n"


@pytest.fixture
def context(browser):
    context = browser.new_context()  # service workers allowed, as in any browser
    yield context
    context.close()


def test_without_isolation_headers_one_reload_makes_input_and_stop_work(context, plain_site_server):
    page = context.new_page()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    page.goto(f"{plain_site_server.url}rag-01/")
    assert page.evaluate("crossOriginIsolated") is False
    expect(page.locator(NOTICE)).to_have_text(NOTICE_TEXT)
    for _ in range(COLD_START_MS // 250):  # the reload, once the service worker is installed
        if len(navigations) > 1:
            break
        page.wait_for_timeout(250)
    assert len(navigations) == 2
    editor = EditorPage(page)
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert page.evaluate("crossOriginIsolated") is True
    assert page.evaluate("navigator.serviceWorker.controller !== null") is True
    expect(page.locator(NOTICE)).to_have_count(0)

    # input(): the prompt, the learner's line, the answer.
    editor.set_code('naam = input("Hoe heet je? ")\nprint("Hallo", naam)\n')
    editor.button("run").click()
    line = page.locator("[data-testid=input-line]")
    expect(line).to_be_visible(timeout=COLD_START_MS)
    page.keyboard.type("Sam")
    page.keyboard.press("Enter")
    editor.wait_until_idle()
    assert editor.output.inner_text() == "Hoe heet je? Sam\nHallo Sam\n"

    # Stop interrupts Python in place: the same worker goes on.
    editor.start_run(INFINITE_LOOP)
    page.evaluate("() => { window.workerBeforeStop = window.werkplaats.python.worker; }")
    editor.button("stop").click()
    editor.wait_until_idle(timeout=15_000)
    assert "Gestopt." in editor.output.inner_text()
    assert page.evaluate("() => window.workerBeforeStop === window.werkplaats.python.worker") is True
    assert editor.run("print('verder')") == "verder\n"

    # Once isolated, later page loads are served with the headers at once: no second reload.
    count = len(navigations)
    page.goto(f"{plain_site_server.url}rag-02/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert page.evaluate("crossOriginIsolated") is True
    page.wait_for_timeout(2500)
    assert len(navigations) == count + 1
    expect(page.locator(NOTICE)).to_have_count(0)

    # The page got the headers from the service worker, the wasm did not need them: it is served as
    # the cache keeps it (not a copy), so Chromium's code cache for it works on such a host too.
    assert EditorPage(page).run("print('rag-02')") == "rag-02\n"
    page.wait_for_function(f"({WASM_SERVED})() !== null")
    assert page.evaluate(WASM_SERVED) == "cache"


def test_a_server_that_sends_the_headers_gets_no_reload(context, site_server):
    page = context.new_page()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    EditorPage.open(page, site_server)
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_timeout(2500)
    assert navigations == [f"{site_server.url}rag-01/"]
    expect(page.locator(NOTICE)).to_have_count(0)
    assert page.evaluate("crossOriginIsolated") is True
