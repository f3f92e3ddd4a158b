"""What widget tests share about a lesson (widgets/<name>/tests/): its files in checkpoints/<id>/,
its reference solution loaded as a module of its own, and its page opened in Chromium until the
widget has drawn its first state. Lesson ids come from the caller: shared code names none."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parent.parent


def lesson_file(lesson_id: str, name: str = "solution.py") -> Path:
    """A file of checkpoints/<lesson_id>/ (the reference solution unless named)."""
    return ROOT / "checkpoints" / lesson_id / name


def load_solution(lesson_id: str) -> ModuleType:
    """checkpoints/<lesson_id>/solution.py, freshly executed as a module outside sys.modules."""
    spec = importlib.util.spec_from_file_location(f"{lesson_id.replace('-', '_')}_solution", lesson_file(lesson_id))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def open_lesson_page(page: Page, site_server, lesson_id: str, drawn_test_id: str, drawn_count: int) -> None:
    """The lesson's page, once its widget drew its first state: `drawn_count` elements with
    `drawn_test_id` (drawn by JavaScript as soon as the page's module has run)."""
    page.goto(site_server.url + f"{lesson_id}/")
    expect(page.get_by_test_id(drawn_test_id)).to_have_count(drawn_count)
