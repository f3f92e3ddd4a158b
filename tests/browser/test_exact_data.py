"""Data shown exactly (issue 25, item 2), in Chromium: spaces, tabs and line breaks as the code
produced them, tables that scroll rather than break a word or number, formulas that show they
scroll. The MathML numbers themselves: tests/fixtures/math.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RAG01_SOLUTION = (ROOT / "checkpoints" / "rag-01" / "solution.py").read_text(encoding="utf-8")
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Per cell, the words (split at spaces) that the browser laid out on more than one line.
BROKEN_WORDS = """table => {
  const broken = [];
  for (const cell of table.querySelectorAll('th, td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g;
      let match;
      while ((match = re.exec(node.data)) !== null) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""

# A scroll box that does not show all of its content must say so (data-more-right: a shadow).
HIDDEN_WITHOUT_SIGN = """boxes => boxes
  .filter(box => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute('data-more-right'))
  .map(box => box.getAttribute('aria-label'))"""


def test_inline_code_in_a_task_keeps_every_space(page, site_server):
    page.goto(site_server.url + "rag-01/")
    task = page.get_by_test_id("checkpoint-document_snapshots")
    example = task.locator("code", has_text="C D E F G H")
    # innerText follows the CSS: collapsed spaces would read "A B\\nC D E F G H".
    assert example.inner_text() == '"  A  B\\nC D E F G H  "'


@pytest.mark.slow
def test_a_widget_message_quotes_a_learners_text_exactly(restored_page, site_server):
    page = restored_page  # about the message, not Python's start
    page.goto(site_server.url + "rag-01/")
    expect(page.get_by_test_id("viz-passage")).to_have_count(3)
    code = RAG01_SOLUTION + '''

_reference_word_chunks = word_chunks


def word_chunks(document, window=40, overlap=8):
    chunks = _reference_word_chunks(document, window, overlap)
    chunks[0] = dict(chunks[0], text="x  y\\tz ")
    return chunks
'''
    page.evaluate("code => window.werkplaats.editor.setCode(code)", code)
    page.get_by_test_id("viz-learner-run").click()
    status = page.get_by_test_id("viz-learner-status")
    expect(status).to_contain_text("Passage 1: text is", timeout=120_000)
    assert "„x  y\\tz ”" in status.inner_text()
    assert "„x  y\\tz ”" in page.get_by_test_id("viz-learner-passage").first.inner_text()


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "390"])
def test_rag03_tables_never_break_inside_a_word_and_show_they_scroll(page, site_server, viewport):
    page.set_viewport_size(viewport)
    page.goto(site_server.url + "rag-03/")
    widget = page.locator("[data-widget=retrieval-runs]")
    expect(widget).to_have_attribute("data-widget-state", "mounted")
    table = widget.get_by_test_id("rr-table")
    expect(table.locator("tbody tr").first).to_be_visible()
    table.scroll_into_view_if_needed()
    assert table.evaluate(BROKEN_WORDS) == []
    for markdown_table in page.locator(".lesson__article .table-scroll table").all():
        assert markdown_table.evaluate(BROKEN_WORDS) == []
    page.wait_for_timeout(200)  # the ResizeObserver reports the first sizes
    assert page.locator("[data-scroll-region]").evaluate_all(HIDDEN_WITHOUT_SIGN) == []
    if viewport is PHONE:
        # On a phone the results table is wider than its box: it scrolls, and says so.
        box = widget.locator(".runs__table-wrap").first
        assert box.evaluate("box => box.scrollWidth > box.clientWidth")
        assert box.get_attribute("data-more-right") is not None
        box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        expect(box).to_have_attribute("data-more-left", "")
        expect(box).not_to_have_attribute("data-more-right", "")


def test_rag04_formulas_show_they_scroll_on_a_phone_and_numbers_stay_whole(page, site_server):
    page.set_viewport_size(PHONE)
    page.goto(site_server.url + "rag-04/")
    numbers = page.locator("math mn").all_text_contents()
    assert "1,2" in numbers and "0,75" in numbers
    page.wait_for_timeout(200)
    formulas = page.locator(".math[data-scroll-region]")
    assert formulas.count() > 0
    assert formulas.evaluate_all(HIDDEN_WITHOUT_SIGN) == []
    assert page.locator(".math[data-more-right]").count() > 0  # BM25 is wider than a phone
