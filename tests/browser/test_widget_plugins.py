"""Widgets as plug-ins, in Chromium: the test project tests/fixtures/widget-project/ brings its own
`counter` widget, a `broken` one whose mount throws, and an `echo` widget its lesson does not use;
nothing in shared code names them. The lesson uses the counter twice: both mount, work apart from
each other, call the learner's function through the shared runner; the broken widget takes
nothing else down, and the page loads no widget it does not use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.editor_page import COLD_START_MS, count_evaluations

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "tests" / "fixtures" / "widget-project"


@pytest.fixture(scope="module")
def widget_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("widget-site") / "_site"
    completed = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--root", str(PROJECT), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    from builder.serve import start_server

    server = start_server(out, isolated=True)
    yield server, out
    server.close()


def open_lesson(page, widget_site):
    server, _ = widget_site
    page.goto(server.url + "teller-01/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    counters = page.locator("[data-widget=counter]")
    expect(counters).to_have_count(2)
    expect(page.locator("[data-widget=counter][data-widget-state=mounted]")).to_have_count(2)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", "def double(n):\n    return n + n\n")
    return counters.nth(0), counters.nth(1)


def step(counter):
    counter.get_by_test_id("counter-step").click()
    expect(counter.get_by_test_id("counter-step")).to_be_enabled(timeout=COLD_START_MS)


def test_two_instances_mount_and_count_apart(page, widget_site):
    first, second = open_lesson(page, widget_site)
    # Ids carry the instance's prefix: no id appears twice on the page.
    assert first.get_attribute("id") == "counter-1" and second.get_attribute("id") == "counter-2"
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    expect(first.get_by_role("button")).to_have_text("Verdubbel")
    expect(second.get_by_role("button")).to_have_text("Tel")

    step(first)
    expect(first.get_by_test_id("counter-result")).to_have_text("double(0) = 0")
    expect(first.get_by_test_id("counter-expected")).to_have_text("verwacht: 0")
    expect(first.get_by_test_id("counter-count")).to_have_text("1")
    expect(second.get_by_test_id("counter-count")).to_have_text("10")
    expect(second.get_by_test_id("counter-result")).to_have_text("")

    step(second)
    expect(second.get_by_test_id("counter-result")).to_have_text("double(10) = 20")
    expect(second.get_by_test_id("counter-count")).to_have_text("15")
    step(first)
    expect(first.get_by_test_id("counter-result")).to_have_text("double(1) = 2")
    expect(first.get_by_test_id("counter-count")).to_have_text("2")
    expect(second.get_by_test_id("counter-count")).to_have_text("15")


def test_the_learners_function_runs_with_grading_values_and_messages(page, widget_site):
    first, _ = open_lesson(page, widget_site)
    page.evaluate("code => window.werkplaats.editor.setCode(code)",
                  "def double(n):\n    return (n, n)\n")
    step(first)
    # A tuple is no plain value: it comes back as what it is, never as a list.
    expect(first.get_by_test_id("counter-result")).to_have_text("double(0) = <tuple>")
    expect(first.get_by_test_id("counter-expected")).to_have_text("verwacht: 0")
    page.evaluate("code => window.werkplaats.editor.setCode(code)",
                  "def double(n):\n    return 1 / (n - 1)\n")
    step(first)
    # The same Dutch message grading gives, with the line in main.py.
    expect(first.get_by_test_id("counter-result")).to_have_text(
        "double gaf een onverwachte fout: ZeroDivisionError: division by zero (regel 2).")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", "print('nog niets')\n")
    step(first)
    expect(first.get_by_test_id("counter-result")).to_have_text(
        "De functie double ontbreekt: definieer def double(...) bovenaan in main.py.")

    # A call that does not end, stopped by the editor's Stop (a Run queued behind it): the widget
    # hears "stopped", not its time limit, and Python is interrupted in place, not replaced.
    page.evaluate("code => window.werkplaats.editor.setCode(code)", "def double(n):\n    while True:\n        pass\n")
    count_evaluations(page, "call_for_page", "callsSent")
    page.evaluate("() => { window.workerBeforeStop = window.werkplaats.python.worker; }")
    first.get_by_test_id("counter-step").click()
    page.wait_for_function("() => window.callsSent === 1")
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("stop")).to_be_enabled()
    page.wait_for_timeout(300)  # well inside the endless double
    page.get_by_test_id("stop").click()
    expect(first.get_by_test_id("counter-result")).to_have_text("Gestopt.")
    expect(first).to_have_attribute("data-last-status", "stopped")
    expect(first.get_by_test_id("counter-step")).to_be_enabled(timeout=COLD_START_MS)
    assert page.evaluate("() => window.workerBeforeStop === window.werkplaats.python.worker")


def test_the_page_loads_only_the_widgets_it_uses(page, widget_site):
    open_lesson(page, widget_site)
    _, out = widget_site
    # The unused widget is not even built; the page asks for the counter's files only.
    assert sorted(path.name for path in (out / "assets" / "widgets").iterdir()) == ["broken", "counter"]
    widget_urls = sorted({url.split("/assets/widgets/", 1)[1]
                          for url in page.request_log.urls if "/assets/widgets/" in url})
    assert widget_urls == ["broken/widget.js", "counter/widget.css", "counter/widget.js"]
    expect(page.get_by_test_id("echo")).to_have_count(0)


def test_the_lesson_links_a_checkpoint_to_its_widget(page, widget_site):
    first, second = open_lesson(page, widget_site)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", "def double(n):\n    return n * 3\n")
    card = page.locator("[data-testid=checkpoint-double]")
    card.locator("[data-testid=check-double]").click()
    expect(card).to_have_attribute("data-status", "fail", timeout=COLD_START_MS)
    button = card.get_by_role("button", name="Bekijk in de visualisatie")
    expect(button).to_have_count(1)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    button.click()
    expect(first).to_be_in_viewport()


def test_a_broken_widget_explains_itself_and_takes_nothing_down(page, widget_site):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    first, _ = open_lesson(page, widget_site)  # both counters mounted
    broken = page.locator("[data-widget=broken]")
    expect(broken).to_have_attribute("data-widget-state", "failed")
    expect(broken.get_by_role("status")).to_have_text(
        "Dit onderdeel van de les kon niet geladen worden. De rest van de pagina werkt gewoon.")
    assert any("this widget is broken on purpose" in text for text in errors)
    page.locator("[data-testid=run]").click()
    page.locator("[data-testid=run]:not([disabled])").wait_for(timeout=COLD_START_MS)
    step(first)
    expect(first.get_by_test_id("counter-result")).to_have_text("double(0) = 0")
