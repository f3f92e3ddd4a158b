"""A dependent checkpoint in the page (issue 9, part 3): when a checkpoint it uses fails on the
same code, its feedback says so; when that one passes, nothing is said. The fixture lesson
chain-01 (tests/fixtures/chain/): word_counts uses words, longest_line stands alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.offline.gates.quality_gate import known_solutions
from tests.browser.checkpoint_panel import CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, EditorPage

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ROOT / "tests" / "fixtures" / "chain"
NOTE = "Checkpoint words, die deze checkpoint gebruikt, slaagt nog niet: los die eerst op."


@pytest.fixture(scope="module")
def chain_server(tmp_path_factory):
    project = tmp_path_factory.mktemp("chain") / "project"
    shutil.copytree(CHAIN, project, ignore=shutil.ignore_patterns("__pycache__"))
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(project),
                                "--out", str(project / "_site")], cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    from builder.serve import start_server

    server = start_server(project / "_site", isolated=True)
    yield server
    server.close()


def source_of(name: str) -> str:
    return next(known.source for known in known_solutions(CHAIN / "checkpoints" / "chain-01") if known.path.name == name)


def test_the_dependent_checkpoint_says_the_one_it_uses_fails_and_only_then(page, chain_server):
    page.goto(f"{chain_server.url}chain-01/")
    page.locator("[data-testid=editor] .cm-content").wait_for()
    panel = CheckpointPanel(page, EditorPage(page))
    panel.editor.set_code(source_of("words__keeps_capitals.py"))
    assert panel.check("word_counts", COLD_START_MS) == "fail"
    note = panel.card("word_counts").locator("[data-checkpoint-note]")
    assert note.inner_text() == NOTE
    assert panel.message("word_counts") == "Een woord met en zonder hoofdletters is hetzelfde woord."
    # An unrelated checkpoint passes and says nothing; a reload keeps the note with its result.
    assert panel.check("longest_line") == "pass"
    page.reload()
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert panel.card("word_counts").locator("[data-checkpoint-note]").inner_text() == NOTE

    # word_counts wrong on its own (a Counter), words right: no note, and the plain-data message.
    panel.editor.set_code(source_of("word_counts__returns_counter.py"))
    assert panel.check("word_counts") == "fail"
    assert panel.card("word_counts").locator("[data-checkpoint-note]").count() == 0
    assert panel.message("word_counts") == "Je functie word_counts gaf een Counter terug; geef een gewone dict terug."
