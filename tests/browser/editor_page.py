"""Driving the "Probeer het zelf" panel of a lesson page the way a learner does."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

LESSON_PATH = "rag-01/"
# A cold Pyodide start on a busy 2-core machine can take a while; a run itself is quick.
COLD_START_MS = 120_000
# How the service worker served this start's wasm, as the page's timeline says (worker-client.js).
WASM_SERVED = """() => {
  const mark = performance.getEntriesByType("mark").find((entry) => entry.name.startsWith("werkplaats: wasm served: "));
  return mark ? mark.name.slice("werkplaats: wasm served: ".length) : null;
}"""

# Counts in `window[counter]` the snippets the page's Python worker is asked to evaluate that
# contain `needle` (a check, a widget's call): a test can then wait until Python is on one.
COUNT_EVALUATIONS = """([needle, counter]) => {
  const python = window.werkplaats.python;
  const evaluate = python.evaluate.bind(python);
  window[counter] = 0;
  python.evaluate = (code, options) => {
    if (code.includes(needle)) window[counter] += 1;
    return evaluate(code, options);
  };
}"""


def count_evaluations(page: Page, needle: str, counter: str) -> None:
    """From now on, window[counter] counts the evaluated snippets containing `needle`."""
    page.evaluate(COUNT_EVALUATIONS, [needle, counter])


@dataclass
class EditorPage:
    page: Page

    @classmethod
    def open(cls, page: Page, server, query: str = "", lesson_path: str = LESSON_PATH) -> EditorPage:
        page.goto(f"{server.url}{lesson_path}{query}")
        page.locator("[data-testid=editor] .cm-content").wait_for()
        return cls(page)

    @property
    def output(self) -> Locator:
        return self.page.locator("[data-testid=output]")

    def button(self, testid: str) -> Locator:
        return self.page.locator(f"[data-testid={testid}]")

    def editor_text(self) -> str:
        return self.page.evaluate("() => window.werkplaats.editor.getCode()")

    def type_code(self, code: str) -> None:
        """Replace the editor's content from the keyboard, as a learner would."""
        self.page.locator("[data-testid=editor] .cm-content").click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Delete")
        self.page.keyboard.insert_text(code)

    def set_code(self, code: str) -> None:
        self.page.evaluate("code => window.werkplaats.editor.setCode(code)", code)

    def wait_until_idle(self, timeout: float = COLD_START_MS) -> None:
        self.page.locator("[data-testid=run]:not([disabled])").wait_for(timeout=timeout)

    def run(self, code: str | None = None, timeout: float = COLD_START_MS) -> str:
        """Run (optionally new) code, wait for the program to end, return the output text."""
        if code is not None:
            self.set_code(code)
        self.button("run").click()
        self.wait_until_idle(timeout)
        return self.output.inner_text()

    def start_run(self, code: str) -> None:
        """Start a program and wait until it is really running (Python loaded, code started)."""
        self.set_code(code)
        self.button("run").click()
        self.page.locator("[data-editor-status]", has_text="Je programma draait").wait_for(timeout=COLD_START_MS)

    def stream_text(self, stream: str) -> str:
        return "".join(self.output.locator(f"[data-stream={stream}]").all_inner_texts())
