"""Driving the "Jouw checkpoints" panel of a lesson page the way a learner does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Locator, Page

from tests.browser.editor_page import COLD_START_MS, LESSON_PATH, EditorPage

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = ROOT / "checkpoints" / "rag-01"
CHECKPOINT_IDS = ("document_snapshots", "word_chunks", "chunk_coverage")
# Sanity bound for one checkpoint; time limits themselves are the page's business.
CHECK_MS = 60_000


@dataclass
class CheckpointPanel:
    page: Page
    editor: EditorPage
    checkpoint_ids: tuple[str, ...] = CHECKPOINT_IDS

    @classmethod
    def open(cls, page: Page, server, query: str = "", lesson_path: str = LESSON_PATH,
             checkpoint_ids: tuple[str, ...] = CHECKPOINT_IDS) -> CheckpointPanel:
        """The panel of rag-01's page, or of the lesson at `lesson_path` with those checkpoints."""
        editor = EditorPage.open(page, server, query, lesson_path)
        return cls(page, editor, checkpoint_ids)

    def card(self, checkpoint_id: str) -> Locator:
        return self.page.locator(f"[data-testid=checkpoint-{checkpoint_id}]")

    def status(self, checkpoint_id: str) -> str:
        return self.card(checkpoint_id).get_attribute("data-status")

    def statuses(self) -> dict[str, str]:
        return {checkpoint_id: self.status(checkpoint_id) for checkpoint_id in self.checkpoint_ids}

    def state_text(self, checkpoint_id: str) -> str:
        return self.card(checkpoint_id).locator("[data-checkpoint-state]").inner_text()

    def message(self, checkpoint_id: str) -> str:
        return self.card(checkpoint_id).locator(".checkpoint__message").inner_text()

    @property
    def progress(self) -> str:
        return self.page.locator("[data-testid=progress]").inner_text()

    def wait_until_done(self, timeout: float) -> None:
        self.page.locator("[data-checkpoint-panel]:not([data-checking])").wait_for(timeout=timeout)

    def click_on(self, button: Locator) -> None:
        """Click a button of the panel on the element itself, not at a point of the screen.

        Right after an edit the cards above redraw when the new code's fingerprints arrive (a
        result turns outdated and its feedback folds away), which moves the buttons below them. A
        click by coordinates that falls in that moment lands beside the button and nothing is
        checked; the statuses read afterwards are then the previous code's (seen under the load of
        four test workers, in test_same_verdicts.py). The click handler is what is tested here."""
        button.dispatch_event("click")

    def check(self, checkpoint_id: str, timeout: float = COLD_START_MS) -> str:
        """Click "Controleer" of one checkpoint and wait for its verdict."""
        self.click_on(self.page.locator(f"[data-testid=check-{checkpoint_id}]"))
        self.wait_until_done(timeout)
        return self.status(checkpoint_id)

    def check_all(self, timeout: float = COLD_START_MS) -> dict[str, str]:
        self.click_on(self.page.locator("[data-testid=check-all]"))
        self.wait_until_done(timeout)
        return self.statuses()
