"""Room to read and to type (issue 25, item 4), in Chromium: at 1280 px the text column shows
rag-01's examples whole, expected-output comments included; where the screen allows, the editor
shows at least 80 columns."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def open_rag01(page, server, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{server.url}rag-01/")
    page.locator("[data-testid=editor] .cm-content").wait_for()


def test_rag01_examples_fit_the_text_column_at_1280(page, site_server):
    open_rag01(page, site_server, 1280)
    examples = page.locator(".lesson__article figure.example pre")
    assert examples.count() >= 10
    cut = examples.evaluate_all("pres => pres.filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.slice(0, 40))")
    assert cut == []


@pytest.mark.parametrize("width", [1600, 1920])
def test_the_editor_shows_80_columns_where_the_screen_allows(page, site_server, width):
    open_rag01(page, site_server, width)
    content = page.locator("[data-testid=editor] .cm-content")
    gutter = page.locator("[data-testid=editor] .cm-gutters").evaluate("g => g.offsetWidth")
    scroller = page.locator("[data-testid=editor] .cm-scroller")
    width_px = scroller.evaluate("s => s.clientWidth")
    character = content.evaluate("""c => { const p = document.createElement('span'); p.textContent = 'x'.repeat(100);
        c.querySelector('.cm-line').append(p); const w = p.getBoundingClientRect().width / 100; p.remove(); return w; }""")
    assert (width_px - gutter - 8) / character >= 80
