"""A failed browser test shows what its pages wrote to the console (tests/shared_fixtures.py
PageConsole): a real pytest session with the shared fixtures, its contexts stood in for by a
small fake that emits console messages the way Playwright's contexts do."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TESTS = '''
from types import SimpleNamespace

from tests.shared_fixtures import PAGE_CONSOLE


class FakeContext:
    def __init__(self):
        self.handlers = {}

    def on(self, event, handler):
        self.handlers[event] = handler

    def emit(self, event, value):
        self.handlers[event](value)


def open_context():
    browser = SimpleNamespace(new_context=FakeContext)
    PAGE_CONSOLE.record_every_context_of(browser)
    return browser.new_context()


def test_first_fails():
    context = open_context()
    context.emit("console", SimpleNamespace(type="log", text="gewoon bericht"))
    context.emit("console", SimpleNamespace(type="warning", text="Python did not stop within 3001 ms"))
    context.emit("weberror", SimpleNamespace(error="TypeError: x is undefined"))
    assert False


def test_second_passes():
    open_context().emit("console", SimpleNamespace(type="error", text="fout van de tweede"))


def test_third_fails_without_console():
    assert False
'''


def test_a_failed_test_reports_its_pages_warnings_and_errors_and_no_one_elses(tmp_path):
    (tmp_path / "test_pages.py").write_text(TESTS, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.shared_fixtures", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path / "test_pages.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert completed.returncode == 1, completed.stdout + completed.stderr
    output = completed.stdout
    assert "2 failed, 1 passed" in output
    # pytest's report of each failure: "___ name ___", its traceback, then its sections ("--- page console ---").
    failures = dict(re.findall(r"_{3,} (test_\w+) _{3,}\n(.*?)(?=\n_{3,} |\n={3,})", output, re.S))
    assert set(failures) == {"test_first_fails", "test_third_fails_without_console"}
    first_console = re.split(r"-{3,} page console -{3,}\n", failures["test_first_fails"])[1]
    # Warnings and uncaught errors, not the page's ordinary log; nothing of another test.
    assert first_console == "warning: Python did not stop within 3001 ms\nuncaught: TypeError: x is undefined"
    assert "page console" not in failures["test_third_fails_without_console"]
