"""Keyboard checks for any widget (issue 17), shared by tests/browser/test_widget_keyboard.py
(every widget on every page) and the widgets' own keyboard tests (widgets/<name>/tests/)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.accessibility import wait_for_widgets

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
