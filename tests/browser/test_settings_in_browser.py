"""A lesson's [settings] in Chromium, and the same code graded offline: the page's check limit and
the offline grader's agree on a slow but correct solution ("Te traag" / timeout), the run limit
stops Uitvoeren, and the lesson's browser package is loaded before anything runs.

The fixture lesson is chain-01 (tests/fixtures/chain/) with a [settings] table added."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.checkpoint_panel import CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, EditorPage

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ROOT / "tests" / "fixtures" / "chain"
SETTINGS = '[settings]\nrun_seconds = 3\ncheck_seconds = 1\nbrowser_packages = ["packaging"]\n\n'
SOLUTION = (CHAIN / "checkpoints" / "chain-01" / "solution.py").read_text(encoding="utf-8")
# Correct, but each of longest_line's two calls computes for 0.6 s: 1.2 s together, over the lesson's 1 s.
SLOW_LONGEST_LINE = "import time\n" + SOLUTION.replace(
    "def longest_line(text):\n",
    "def longest_line(text):\n    end = time.perf_counter() + 0.6\n    while time.perf_counter() < end:\n        pass\n")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("settings") / "project"
    shutil.copytree(CHAIN, project, ignore=shutil.ignore_patterns("__pycache__"))
    toml = project / "checkpoints" / "chain-01" / "checkpoints.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[[checkpoint]]\n", SETTINGS + "[[checkpoint]]\n", 1),
                    encoding="utf-8")
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(project),
                                "--out", str(project / "_site")], cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    return project


@pytest.fixture(scope="module")
def server(project):
    from builder.serve import start_server

    server = start_server(project / "_site", isolated=True)
    yield server
    server.close()


def test_a_slow_but_correct_solution_is_too_slow_in_the_page_and_offline(page, server, project, tmp_path):
    editor = EditorPage.open(page, server, lesson_path="chain-01/")
    panel = CheckpointPanel(page, editor, ("words", "word_counts", "longest_line"))
    assert "De tests van één checkpoint mogen samen 1 seconde rekenen; Uitvoeren stopt je programma na 3 seconden." in (
        page.locator("[data-testid=limits]").inner_text())
    editor.set_code(SLOW_LONGEST_LINE)
    assert panel.check("longest_line", COLD_START_MS) == "timeout"
    assert panel.state_text("longest_line") == "Te traag: gestopt na 1 seconde."
    assert panel.check("words") == "pass"

    main = tmp_path / "main.py"
    main.write_text(SLOW_LONGEST_LINE, encoding="utf-8")
    offline = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(main), "--lesson", "chain-01",
         "--checkpoints-dir", str(project / "checkpoints")],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert offline.returncode == 1
    assert "⏱ longest_line — De langste regel  te traag, 1/2 tests" in offline.stdout.splitlines()
    assert any(line.startswith("✓ words — Woorden  gehaald") for line in offline.stdout.splitlines())


def test_the_run_limit_and_the_preloaded_package(page, server):
    editor = EditorPage.open(page, server, lesson_path="chain-01/")
    # The lesson's package is loaded by the worker's start, before anything runs: packaging is
    # there, micropip (which the lesson does not list) is not.
    found = page.evaluate("""async () => {
        await window.werkplaats.python.ready;
        return await window.werkplaats.python.evaluate(
            "import importlib.util\\n[importlib.util.find_spec(n) is not None for n in ('packaging', 'micropip')]");
    }""")
    assert found == [True, False]
    text = editor.run("import time\nprint('start', flush=True)\ntime.sleep(30)\n")
    assert "Je programma liep langer dan 3 seconden en is gestopt." in text


def test_a_lesson_with_a_browser_package_makes_no_snapshot_and_starts_in_full(page, server):
    # Pyodide 314 keeps a JavaScript handle for every loaded package, which a memory snapshot cannot
    # hold ("Unexpected hiwire entry"): the start makes none, and the next page load starts in full,
    # with the package, as before (worker-client.js, pyodide-worker.js makeSnapshot).
    EditorPage.open(page, server, lesson_path="chain-01/")
    assert page.evaluate("window.werkplaats.python.ready.then(() => window.werkplaats.python.startKind)") == "cold"
    page.wait_for_timeout(5000)  # well past the idle time after which a snapshot would be kept
    assert page.evaluate("document.documentElement.dataset.pythonSnapshot") is None
    EditorPage.open(page, server, lesson_path="chain-01/")
    found = page.evaluate("""async () => {
        await window.werkplaats.python.ready;
        return [window.werkplaats.python.startKind, await window.werkplaats.python.evaluate(
            "import importlib.util\\n[importlib.util.find_spec(n) is not None for n in ('packaging', 'micropip')]")];
    }""")
    assert found == ["cold", [True, False]]
