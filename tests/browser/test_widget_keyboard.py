"""Every widget on every lesson page can be used without a mouse (issue 17).

Generic, for whatever widgets the lessons use (found on the built pages), at both widths:
- Tab visits every control of the widget once, in the order of the markup, and leaves it again
  (no trap, either direction); no positive tabindex.
- Every element Tab reaches has an accessible name and a visible focus ring.
- A pane that scrolls can be reached by Tab itself or through a control inside it.
- A list to choose from (listbox, tablist, radiogroup) is driven by the arrow keys and Home/End:
  focus (or aria-activedescendant) moves, the item becomes the selected one (at once, or on Enter
  for a list with manual activation), and it is announced (the focused item has a name, or a live
  region says it); a list without aria-activedescendant has one tab stop.
Then checks of chunk-ranges itself.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.accessibility import WIDTHS, set_width, wait_for_widgets
from tests.lessons.lesson_tests import LESSON_IDS

pytestmark = pytest.mark.browser

# Runs in the page: describes the widget's tab stops, scroll panes and choice lists. Marks each tab
# stop with data-probe-stop="<n>" so the walk below can say which element has focus.
SURVEY = """(root) => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden"
    && !el.closest("[hidden], [inert]");
  const candidates = root.querySelectorAll(
    "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable='true']");
  const stops = [...candidates].filter((el) => !el.disabled && el.tabIndex >= 0 && visible(el));
  stops.forEach((el, index) => { el.dataset.probeStop = String(index); });
  const positive = [...root.querySelectorAll("[tabindex]")].filter((el) => el.tabIndex > 0).map((el) => el.outerHTML.slice(0, 80));
  const scrollPanes = [...root.querySelectorAll("*")].filter((el) => {
    const style = getComputedStyle(el);
    const scrolls = /(auto|scroll)/.test(style.overflowX + style.overflowY);
    return scrolls && visible(el) && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  }).map((el) => ({
    pane: el.outerHTML.slice(0, 80),
    reachable: stops.some((stop) => el === stop || el.contains(stop)),
  }));
  return { count: stops.length, positive, scrollPanes };
}"""

# Runs in the page: the focused element, as the walk sees it.
FOCUSED = """() => {
  const el = document.activeElement;
  const named = (el) => {
    const labelledBy = (el.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent || "").join(" ");
    const labels = el.labels ? [...el.labels].map((label) => label.textContent).join(" ") : "";
    const own = ["button", "a", "summary"].includes(el.localName) || ["option", "tab", "radio", "menuitem"]
      .includes(el.getAttribute("role")) ? el.textContent : "";
    return [el.getAttribute("aria-label"), labelledBy, labels, own, el.title].join(" ").trim();
  };
  const style = getComputedStyle(el);
  const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
  return { probe: el.dataset.probe || null, stop: el.dataset.probeStop ?? null, name: named(el), ring,
           html: el.outerHTML.slice(0, 80) };
}"""

CHOICE_LISTS = {"listbox": "option", "tablist": "tab", "radiogroup": "radio"}


def lesson_widgets(page: Page, site_server, lesson_id: str) -> list[str]:
    page.goto(f"{site_server.url}{lesson_id}/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    wait_for_widgets(page)
    return page.evaluate("() => [...document.querySelectorAll('[data-widget]')].map(element => element.id)")


def with_sentinels(page: Page, widget_id: str) -> None:
    """Buttons right before and after the widget: where the Tab walk starts and must end."""
    page.evaluate("""(id) => {
        const widget = document.getElementById(id);
        for (const [place, where] of [["before", "beforebegin"], ["after", "afterend"]]) {
            document.querySelector(`[data-probe=${place}]`)?.remove();
            const button = document.createElement("button");
            button.type = "button";
            button.dataset.probe = place;
            button.textContent = place;
            widget.insertAdjacentElement(where, button);
        }
    }""", widget_id)


def walk(page: Page, key: str, start: str, steps: int) -> list[dict]:
    page.locator(f"[data-probe={start}]").focus()
    seen = []
    for _ in range(steps):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        seen.append(focused)
        if focused["probe"]:
            break
    return seen


def check_tab_order(page: Page, widget_id: str) -> None:
    with_sentinels(page, widget_id)
    survey = page.locator(f"#{widget_id}").evaluate(SURVEY)
    assert survey["positive"] == [], f"{widget_id}: positive tabindex"
    assert survey["count"] > 0, f"{widget_id}: nothing in it can be reached by keyboard"
    assert [pane for pane in survey["scrollPanes"] if not pane["reachable"]] == [], \
        f"{widget_id}: a pane scrolls but Tab cannot reach it"
    forward = walk(page, "Tab", "before", survey["count"] + 2)
    assert [step["stop"] for step in forward] == [*map(str, range(survey["count"])), None], forward
    assert forward[-1]["probe"] == "after", f"{widget_id}: Tab does not leave the widget"
    for step in forward[:-1]:
        assert step["name"], f"{widget_id}: no accessible name: {step['html']}"
        assert step["ring"], f"{widget_id}: no visible focus ring: {step['html']}"
    backward = walk(page, "Shift+Tab", "after", survey["count"] + 2)
    assert [step["stop"] for step in backward] == [*map(str, reversed(range(survey["count"]))), None]
    assert backward[-1]["probe"] == "before", f"{widget_id}: Shift+Tab does not leave the widget"


def current_item(page: Page, list_locator) -> dict:
    return list_locator.evaluate("""(list, itemRole) => {
        const items = [...list.querySelectorAll(`[role=${itemRole}]`)];
        const active = list.getAttribute("aria-activedescendant");
        const current = active ? document.getElementById(active) : document.activeElement;
        const live = [...list.closest("[data-widget]").querySelectorAll("[aria-live]")].map((el) => el.textContent).join("|");
        return {
            index: items.indexOf(current),
            count: items.length,
            selected: current && (current.getAttribute("aria-selected") === "true"
                                  || current.getAttribute("aria-checked") === "true"),
            name: current ? (current.getAttribute("aria-label") || current.textContent).trim() : "",
            tabStops: items.filter((item) => item.tabIndex === 0).length,
            live,
        };
    }""", CHOICE_LISTS[list_locator.get_attribute("role")])


def check_choice_lists(page: Page, widget_id: str) -> int:
    """Arrow keys, Home and End in every choice list of the widget; returns how many were driven."""
    lists = page.locator(f"#{widget_id}").locator(",".join(f"[role={role}]" for role in CHOICE_LISTS))
    driven = 0
    for index in range(lists.count()):
        choice_list = lists.nth(index)
        if not choice_list.is_visible():
            continue
        item_role = CHOICE_LISTS[choice_list.get_attribute("role")]
        items = choice_list.locator(f"[role={item_role}]")
        if items.count() < 2:
            continue
        horizontal = choice_list.get_attribute("aria-orientation") == "horizontal" or item_role == "tab"
        next_key, previous_key = ("ArrowRight", "ArrowLeft") if horizontal else ("ArrowDown", "ArrowUp")
        # The list's one tab stop: the list itself (aria-activedescendant) or its current item.
        stop = choice_list.locator("[tabindex='0']").first if choice_list.get_attribute("tabindex") is None \
            else choice_list
        stop.focus()

        def choose(key: str, choice_list=choice_list) -> dict:
            # Selection follows focus, or (manual activation, as tabs may) Enter chooses.
            page.keyboard.press(key)
            current = current_item(page, choice_list)
            if not current["selected"]:
                page.keyboard.press("Enter")
                current = current_item(page, choice_list)
            return current

        first = choose("Home")
        assert first["index"] == 0 and first["selected"], (widget_id, first)
        second = choose(next_key)
        assert second["index"] == 1 and second["selected"], (widget_id, second)
        assert second["name"] or second["live"] != first["live"], f"{widget_id}: the choice is not announced"
        if choice_list.get_attribute("aria-activedescendant") is None:
            assert second["tabStops"] == 1, f"{widget_id}: a roving list has one tab stop, not {second['tabStops']}"
        assert choose(previous_key)["index"] == 0
        last = choose("End")
        assert last["index"] == last["count"] - 1 and last["selected"], (widget_id, last)
        driven += 1
    return driven


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_every_widget_works_by_keyboard_alone(page, site_server, lesson_id):
    widget_ids = lesson_widgets(page, site_server, lesson_id)
    if not widget_ids:
        pytest.skip(f"{lesson_id} has no widget")
    for width_name in WIDTHS:
        set_width(page, width_name)
        for widget_id in widget_ids:
            check_tab_order(page, widget_id)
            check_choice_lists(page, widget_id)


# chunk-ranges itself

def open_chunk_ranges(page: Page, site_server) -> None:
    page.goto(site_server.url + "rag-01/")
    expect(page.get_by_test_id("viz-passage")).to_have_count(3)


def test_chunk_ranges_passage_list_is_one_stop_driven_by_keys(page, site_server):
    open_chunk_ranges(page, site_server)
    widget_id = page.locator("[data-widget=chunk-ranges]").first.get_attribute("id")
    assert check_choice_lists(page, widget_id) == 1
    passages = page.get_by_test_id("viz-passage")
    # Many passages: the Page keys skip ten, and the choice is said in the focused option.
    page.get_by_test_id("viz-window").fill("1")
    page.get_by_test_id("viz-overlap").fill("0")
    expect(passages).to_have_count(14)
    passages.first.focus()
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")
    expect(passages.nth(10)).to_be_focused()
    expect(passages.nth(10)).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("viz-selected-range")).to_contain_text("Passage 11")
    page.keyboard.press("PageUp")
    expect(passages.first).to_be_focused()


def test_chunk_ranges_fields_change_by_keyboard_and_the_figures_are_announced(page, site_server):
    open_chunk_ranges(page, site_server)
    figures = page.locator("[data-widget=chunk-ranges] .visualizer__figures")
    expect(figures).to_have_attribute("aria-live", "polite")
    window = page.get_by_test_id("viz-window")
    window.focus()
    for _ in range(8):
        page.keyboard.press("ArrowUp")  # a number field steps with the arrow keys
    expect(window).to_have_value("14")  # the 14 words of the default text in one passage
    expect(page.get_by_test_id("viz-passages-count")).to_have_text("1")
    # The problems appear in a live region too.
    page.keyboard.press("Control+A")
    page.keyboard.type("0")
    problems = page.get_by_test_id("viz-problems")
    expect(problems).to_be_visible()
    expect(problems).to_have_attribute("aria-live", "polite")


def test_chunk_ranges_long_source_view_is_a_named_scroll_box_the_keyboard_scrolls(page, site_server):
    open_chunk_ranges(page, site_server)
    page.get_by_test_id("viz-source").fill(" ".join(f"woord{index}" for index in range(600)))
    view = page.get_by_test_id("viz-source-view")
    expect(view).to_have_attribute("aria-label", "De gekozen passage in de bron")
    assert view.evaluate("el => el.scrollHeight > el.clientHeight")
    page.get_by_test_id("viz-passage").first.focus()
    page.keyboard.press("Tab")
    expect(view).to_be_focused()
    assert view.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    before = view.evaluate("el => el.scrollTop")
    page.keyboard.press("PageDown")
    page.wait_for_function("([el, before]) => el.scrollTop > before", arg=[view.element_handle(), before])


def test_chunk_ranges_word_marks_are_said_not_only_coloured(page, site_server):
    open_chunk_ranges(page, site_server)
    # The default: window 6, overlap 2 over 14 words; words 4-5 and 8-9 are stored twice.
    snapshot = page.get_by_test_id("viz-words").aria_snapshot()
    assert "3groen 4na (vaker bewaard) 5reset. (vaker bewaard) 6Houd" in snapshot
    assert snapshot.count("(vaker bewaard)") == 4
    page.get_by_test_id("viz-overlap").fill("0")
    page.get_by_test_id("viz-window").fill("20")
    expect(page.get_by_test_id("viz-passage")).to_have_count(1)
    assert "(vaker bewaard)" not in page.get_by_test_id("viz-words").aria_snapshot()


def test_the_editor_indents_with_tab_and_esc_then_tab_leaves_it(page, site_server):
    # Not a widget, but the one place where Tab does something else: it must not trap a keyboard.
    page.goto(site_server.url + LESSON_IDS[0] + "/")
    content = page.locator("[data-testid=editor] .cm-content")
    content.wait_for()
    expect(page.locator(".editor-note")).to_contain_text("met Esc en daarna Tab verlaat je de editor")
    content.focus()
    page.keyboard.press("Tab")
    expect(content).to_be_focused()  # Tab indented
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('[data-testid=editor]')")
