"""The retrieval-run viewer on the rag-03 page, driven like a learner drives it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import wait_until_python_is_idle

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SOLUTION = (ROOT / "checkpoints" / "rag-03" / "solution.py").read_text(encoding="utf-8")
FLOOR_DIVISION = (ROOT / "checkpoints" / "rag-03" / "wrong" / "evaluate__floor_division.py").read_text(encoding="utf-8")


def open_lesson(page, site_server):
    page.goto(site_server.url + "rag-03/")
    expect(page.locator("[data-widget=retrieval-runs]")).to_have_attribute("data-widget-state", "mounted")
    return page.locator("[data-widget=retrieval-runs]")


def figures(widget) -> tuple[str, str, str, str]:
    return tuple(widget.get_by_test_id(name).text_content() for name in ("rr-questions", "rr-single", "rr-union", "rr-mrr"))


def set_k(widget, k: int) -> None:
    widget.get_by_test_id("rr-k").fill(str(k))


def test_the_k_control_updates_the_three_measures_at_once(page, site_server):
    widget = open_lesson(page, site_server)
    # The lesson's worked example, drawn by JavaScript before Python has started.
    assert figures(widget) == ("4", "0,5", "0,75", "0,375")
    assert page.evaluate("window.werkplaats.python.state") == "idle"
    set_k(widget, 1)
    assert figures(widget) == ("4", "0,25", "0,25", "0,25")
    expect(widget.get_by_test_id("rr-k-value")).to_have_text("1")
    set_k(widget, 5)
    assert figures(widget) == ("4", "0,5", "0,75", "0,375")
    widget.get_by_test_id("rr-k").focus()
    page.keyboard.press("Home")
    assert figures(widget) == ("4", "0,25", "0,25", "0,25")


def test_other_versions_are_drawn_elsewhere_and_never_count(page, site_server):
    widget = open_lesson(page, site_server)
    q1 = widget.locator("[data-testid=rr-question][data-question=q1]")
    expect(q1).to_have_attribute("data-single-rank", "2")
    other = q1.locator("[data-version=lamp-v2] [data-testid=rr-bar]")
    expect(other).to_have_count(1)
    expect(other).to_have_class("runs__bar is-other")
    expect(other).to_have_text("1")
    expect(q1.locator("[data-version=lamp-v1] [data-testid=rr-bar]")).to_have_class("runs__bar is-single")
    set_k(widget, 1)
    expect(q1).to_have_attribute("data-single-rank", "")
    expect(q1.locator("[data-version=lamp-v1] [data-testid=rr-bar]")).to_have_count(0)
    # Touching spans of q2 cover the evidence without a gap; q4 found nothing: all of it is a gap.
    set_k(widget, 2)
    q2 = widget.locator("[data-testid=rr-question][data-question=q2]")
    expect(q2).to_have_attribute("data-union-hit", "true")
    expect(q2.locator(".runs__gap")).to_have_count(0)
    gap = widget.locator("[data-testid=rr-question][data-question=q4] .runs__gap")
    expect(gap).to_have_count(1)
    assert (gap.get_attribute("data-start"), gap.get_attribute("data-end")) == ("33", "40")
    expect(widget.locator("[data-question=q4] .runs__verdict")).to_have_text("geen single hit · geen union hit: 0 van 7 tekens gedekt")


def test_the_results_table_follows_k_and_shows_its_run(page, site_server):
    widget = open_lesson(page, site_server)
    rows = widget.get_by_test_id("rr-config-row")
    expect(rows).to_have_count(6)
    first_mrr = lambda: rows.nth(2).locator("td[data-measure=mrr]").text_content()  # noqa: E731
    at_two = first_mrr()
    set_k(widget, 1)
    assert first_mrr() != at_two
    rows.nth(2).get_by_role("button").click()
    expect(rows.nth(2)).to_have_attribute("aria-current", "true")
    expect(widget.get_by_test_id("rr-run")).to_have_value(rows.nth(2).get_attribute("data-run"))
    # The table row and the figures above describe the same run at the same k.
    assert figures(widget)[0] == "8"
    assert figures(widget)[3] == first_mrr()
    assert figures(widget)[1] == rows.nth(2).locator("td[data-measure=single]").text_content()
    expect(widget.get_by_test_id("rr-question")).to_have_count(8)


def test_my_evaluation_runs_the_learners_evaluate_on_the_same_run(page, site_server):
    widget = open_lesson(page, site_server)
    page.evaluate("code => window.werkplaats.editor.setCode(code)", SOLUTION)
    button = widget.get_by_test_id("rr-learner-run")
    expect(button).to_be_enabled()
    button.click()
    status = widget.get_by_test_id("rr-learner-status")
    expect(status).to_have_text("Je evaluate geeft op deze zoekronde precies de uitkomst van de referentie.", timeout=120_000)
    expect(widget.locator("[data-testid=rr-learner-row][data-same=true]")).to_have_count(5)
    # Another k: the old answer is no longer shown as if it belonged to it.
    set_k(widget, 3)
    expect(widget.get_by_test_id("rr-learner-result")).to_be_hidden()
    page.evaluate("code => window.werkplaats.editor.setCode(code)",
                  SOLUTION + "\n\n" + FLOOR_DIVISION.split("\n", 1)[1])
    wait_until_python_is_idle(page)
    button.click()
    expect(status).to_have_text("Je evaluate wijkt af bij single_hit_at_k, union_hit_at_k.", timeout=60_000)
    different = widget.locator("[data-testid=rr-learner-row][data-same=false]")
    expect(different).to_have_count(2)
    expect(different.first.locator("td").nth(1)).to_have_text("0")
