"""Shared by the accessibility browser tests: axe-core on a page, the widths, and a lesson page
brought into its fullest state (practice panel, every widget drawn, a failed checkpoint)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from runner.offline.gates.quality_gate import compose_source
from tests.browser.editor_page import COLD_START_MS

ROOT = Path(__file__).resolve().parents[2]
AXE_PATH = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHECKPOINTS_DIR = ROOT / "checkpoints"
# A desktop (side-by-side layout from 1200 px) and a phone (the width issue 17 was found at).
WIDTHS = {"desktop": (1280, 800), "phone": (390, 844)}
BLOCKING_IMPACTS = ("serious", "critical")


def serious_violations(page: Page) -> list[tuple[str, str, str, list]]:
    """axe-core's serious and critical violations on the page as it is now:
    (rule, impact, help, the first targets), so a failure names what to fix."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_PATH))
    results = page.evaluate("async () => await axe.run(document)")
    return [
        (violation["id"], violation["impact"], violation["help"],
         [node["target"] for node in violation["nodes"]][:5])
        for violation in results["violations"] if violation["impact"] in BLOCKING_IMPACTS
    ]


def set_width(page: Page, width_name: str) -> None:
    width, height = WIDTHS[width_name]
    page.set_viewport_size({"width": width, "height": height})
    # Two frames: the layout and the ResizeObservers (scroll-regions.js) have caught up.
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wait_for_widgets(page: Page) -> None:
    """Every widget on the page has mounted (a failed one fails here, with its name)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-widget]')]"
        ".every(element => element.dataset.widgetState && element.dataset.widgetState !== 'loading')",
        timeout=COLD_START_MS)
    states = page.evaluate(
        "() => [...document.querySelectorAll('[data-widget]')].map(element => [element.id, element.dataset.widgetState])")
    assert [state for state in states if state[1] != "mounted"] == []


def first_known_wrong(lesson_id: str) -> tuple[str, str | None]:
    """The lesson's first known-wrong solution as typed in and the checkpoint it must fail; without
    known-wrong solutions, the starter code (which fails its first checkpoint, or the test says so)."""
    lesson_dir = CHECKPOINTS_DIR / lesson_id
    wrong = sorted((lesson_dir / "wrong").glob("*.py"))
    if not wrong:
        return (lesson_dir / "starter.py").read_text(encoding="utf-8"), None
    solution = (lesson_dir / "solution.py").read_text(encoding="utf-8")
    return compose_source(wrong[0].read_text(encoding="utf-8"), solution), wrong[0].stem.partition("__")[0]


def fail_a_checkpoint(page: Page, lesson_id: str) -> str:
    """Put a known-wrong solution in the editor, run it, check its checkpoint; returns the id."""
    source, checkpoint_id = first_known_wrong(lesson_id)
    if checkpoint_id is None:
        checkpoint_id = page.locator("[data-checkpoint]").first.get_attribute("data-checkpoint")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", source)
    page.get_by_test_id("run").click()
    page.locator("[data-testid=run]:not([disabled])").wait_for(timeout=COLD_START_MS)
    page.get_by_test_id(f"check-{checkpoint_id}").click()
    page.locator("[data-checkpoint-panel]:not([data-checking])").wait_for(timeout=COLD_START_MS)
    status = page.get_by_test_id(f"checkpoint-{checkpoint_id}").get_attribute("data-status")
    assert status in ("fail", "error", "timeout"), (lesson_id, checkpoint_id, status)
    return checkpoint_id


def skipped_heading_levels(page: Page) -> list[str]:
    """Headings in the page's order (templates, lesson text and widgets together) that skip a level."""
    return page.evaluate("""() => {
        const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
            .filter((heading) => heading.getClientRects().length > 0 || heading.closest("details"));
        const skipped = [];
        let previous = 0;
        for (const heading of headings) {
            const level = Number(heading.tagName[1]);
            if (level > previous + 1) skipped.push(`h${previous} -> h${level} ${heading.textContent.trim()}`);
            previous = level;
        }
        return skipped;
    }""")


def phone_layout_problems(page: Page) -> list[str]:
    """At a phone's width: the page itself never scrolls sideways (only its scroll boxes do), and
    code is not shrunk below 14 px to fit."""
    return page.evaluate("""() => {
        const problems = [];
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > width + 1) {
            const wide = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > width + 1
                && !el.closest("[data-scroll-region], .cm-scroller, .output, .visually-hidden"));
            problems.push(`the page scrolls sideways: ${wide.slice(0, 3).map((el) => el.outerHTML.slice(0, 60)).join(" | ")}`);
        }
        for (const code of document.querySelectorAll("pre, .cm-content")) {
            const size = parseFloat(getComputedStyle(code).fontSize);
            if (code.getClientRects().length && size < 14) problems.push(`code at ${size}px: ${code.outerHTML.slice(0, 60)}`);
        }
        return problems;
    }""")


def wait_until_python_is_idle(page: Page) -> None:
    """After whatever a click started in the worker (a widget's call) has answered."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function("() => window.werkplaats.python.state !== 'busy'", timeout=COLD_START_MS)
