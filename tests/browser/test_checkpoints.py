"""The checkpoint panel as a learner uses it: check, read the feedback, come back, hand in.

Verdicts are compared with what the grader itself says for the same code (runner.core.grade with the
shipped tests, in this process), so "the right message" means the grader's own first failure.

The first visit (a cold Python start) is the first test's; the others open their page in a browser
that already keeps Python's memory snapshot (`restored_page`, emptied storage), as a returning
learner's does: a start costs a fifth of the CPU, and they test nothing about the start.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from runner.core import messages
from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost
from runner.offline.gates.quality_gate import compose_source
from tests.browser.checkpoint_panel import CHECK_MS, CHECKPOINT_IDS, LESSON_DIR, ROOT, CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, count_evaluations

pytestmark = pytest.mark.browser

SOLUTION = (LESSON_DIR / "solution.py").read_text(encoding="utf-8")
WRONG_DIR = LESSON_DIR / "wrong"
AXE_PATH = ROOT / "node_modules" / "axe-core" / "axe.min.js"

ENDLESS_WORD_CHUNKS = SOLUTION + """

def word_chunks(document, window=40, overlap=8):
    while True:
        pass
"""


def known_wrong(file_name: str) -> str:
    """A known-wrong solution as a learner would have typed it: composed with the reference."""
    return compose_source((WRONG_DIR / file_name).read_text(encoding="utf-8"), SOLUTION)


@pytest.fixture(scope="module")
def shipped_bundle():
    return load_bundle(LESSON_DIR, include_offline=False)


def first_failure(bundle, source: str, checkpoint_id: str):
    report = grade(bundle, InProcessHost(), source, only=[checkpoint_id])
    return report.checkpoints[0]


def test_correct_solution_typed_in_passes_all_three_and_survives_reload(page, site_server, shipped_bundle):
    panel = CheckpointPanel.open(page, site_server)
    assert panel.progress == "0 / 3"
    panel.editor.type_code(SOLUTION)
    assert panel.editor.editor_text() == SOLUTION
    # The first checkpoint from the keyboard: Tab onto its button and press Enter.
    page.locator("[data-testid=check-document_snapshots]").focus()
    page.keyboard.press("Enter")
    panel.wait_until_done(120_000)
    for checkpoint_id in CHECKPOINT_IDS[1:]:
        panel.check(checkpoint_id)
    assert panel.statuses() == dict.fromkeys(CHECKPOINT_IDS, "pass")
    assert panel.progress == "3 / 3"
    total = len(shipped_bundle.checkpoint("word_chunks").tests)
    assert panel.state_text("word_chunks") == f"Geslaagd: {total} van {total} tests geslaagd."
    markers = page.locator("[data-checkpoint-marker]")
    assert [markers.nth(i).get_attribute("data-status") for i in range(3)] == ["pass"] * 3
    assert "geslaagd" in markers.first.inner_text()

    page.reload()
    page.locator("[data-testid=editor] .cm-content").wait_for()
    page.locator("[data-testid=progress]", has_text="3 / 3").wait_for()
    assert panel.statuses() == dict.fromkeys(CHECKPOINT_IDS, "pass")
    assert panel.editor.editor_text() == SOLUTION


WRONG_CASES = [
    # (file in wrong/, its checkpoint, status the grader gives)
    ("document_snapshots__returns_tuple.py", "document_snapshots", "fail"),
    ("word_chunks__end_inclusive.py", "word_chunks", "fail"),
    ("word_chunks__no_defaults.py", "word_chunks", "error"),
    ("chunk_coverage__misspelled_function.py", "chunk_coverage", "error"),
    ("chunk_coverage__divides_by_zero_when_empty.py", "chunk_coverage", "error"),
    ("chunk_coverage__coverage_floor_division.py", "chunk_coverage", "fail"),
]


def test_known_wrong_solutions_fail_their_checkpoint_with_the_graders_message(restored_page, site_server, shipped_bundle):
    panel = CheckpointPanel.open(restored_page, site_server)
    messages = {}
    for file_name, checkpoint_id, status in WRONG_CASES:
        source = known_wrong(file_name)
        expected = first_failure(shipped_bundle, source, checkpoint_id)
        assert expected.status == status, file_name
        panel.editor.set_code(source)
        assert panel.check(checkpoint_id) == status, file_name
        failure = expected.first_failure
        messages[file_name] = panel.message(checkpoint_id)
        assert messages[file_name] == failure.message, file_name
        comparison = panel.card(checkpoint_id).locator(".checkpoint__comparison")
        if failure.visible and failure.expected is not None:
            # A worked example of the lesson: expected against actual, as text.
            assert comparison.locator("dd").first.inner_text() == failure.expected
            assert comparison.locator("dd").nth(1).inner_text() == failure.actual
        else:
            assert comparison.count() == 0, f"{file_name}: a hidden test showed values"
        if failure.name not in ("code laden", "functie en parameters"):
            assert panel.state_text(checkpoint_id) == (
                f"{'Nog niet goed' if status == 'fail' else 'Fout'}: "
                f"{expected.passed_count} van {len(expected.tests)} tests geslaagd.")
    # An exception: its type and message, with the line in main.py.
    crash = messages["chunk_coverage__divides_by_zero_when_empty.py"]
    assert crash.startswith("chunk_coverage gaf een onverwachte fout: ZeroDivisionError: ")
    assert "(regel " in crash


# The reference, its chunk_coverage 1.5 s slower at its first call: a check of it is still
# running when the next click comes, however fast Python started (from the snapshot it grades
# the reference in a fraction of a second, and both checks had ended before the status was read).
SLOW_FIRST_COVERAGE = SOLUTION.replace(
    "def chunk_coverage(document, chunks):\n",
    "def chunk_coverage(document, chunks):\n"
    "    if not SLEPT:\n        SLEPT.append(True)\n        __import__('time').sleep(1.5)\n",
) + "\n\nSLEPT = []\n"


def test_a_check_clicked_while_another_runs_waits_its_turn(restored_page, site_server):
    assert SLOW_FIRST_COVERAGE.count("SLEPT.append") == 1
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    panel.editor.set_code(SLOW_FIRST_COVERAGE)
    page.locator("[data-testid=check-chunk_coverage]").click()
    expect(page.get_by_test_id("checkpoint-chunk_coverage")).to_have_attribute("data-status", "running")
    page.locator("[data-testid=check-document_snapshots]").click()
    assert panel.status("document_snapshots") == "running"
    panel.wait_until_done(120_000)
    assert panel.statuses() == {"document_snapshots": "pass", "word_chunks": "pending", "chunk_coverage": "pass"}
    assert panel.progress == "2 / 3"


def test_problems_before_any_test_are_explained_in_dutch(restored_page, site_server):
    panel = CheckpointPanel.open(restored_page, site_server)
    panel.editor.set_code("def document_snapshots(records)\n    return records\n")
    assert panel.check_all() == dict.fromkeys(CHECKPOINT_IDS, "error")
    assert panel.message("word_chunks") == (
        "Je code bevat een syntaxfout op regel 1: expected ':'. Er is nog niets getest.")
    assert panel.state_text("word_chunks") == "Fout: er is nog geen test uitgevoerd."

    panel.editor.set_code(SOLUTION.replace("def chunk_coverage(", "def chunk_dekking("))
    assert panel.check("chunk_coverage") == "error"
    assert panel.message("chunk_coverage") == (
        "De functie chunk_coverage ontbreekt: definieer def chunk_coverage(...) bovenaan in main.py.")


def test_learner_text_in_feedback_is_text_not_html(restored_page, site_server):
    panel = CheckpointPanel.open(restored_page, site_server)
    panel.editor.set_code(SOLUTION + '\n\ndef word_chunks(document, window=40, overlap=8):\n'
                          '    raise RuntimeError("<img src=x onerror=alert(1)><b>vet</b>")\n')
    assert panel.check("word_chunks") == "error"
    assert "<b>vet</b>" in panel.message("word_chunks")
    assert panel.card("word_chunks").locator("img, b").count() == 0


@pytest.mark.parametrize("server_name", ["site_server", "plain_site_server"])
def test_endless_loop_times_out_and_the_page_keeps_working(server_name, request):
    server = request.getfixturevalue(server_name)  # isolated: interrupt; plain: worker restart
    # The plain server has no service worker, so no snapshot: a cold start there.
    page = request.getfixturevalue("restored_page" if server_name == "site_server" else "page")
    panel = CheckpointPanel.open(page, server, "?checkTimeLimit=2")
    panel.editor.set_code(ENDLESS_WORD_CHUNKS)
    assert panel.check("word_chunks") == "timeout"
    assert panel.state_text("word_chunks") == "Te traag: gestopt na 2 seconden."
    assert panel.message("word_chunks") == "word_chunks was niet binnen de tijdslimiet klaar (een oneindige lus?)."
    # The next check works, on the same page.
    assert panel.check("document_snapshots") == "pass"
    panel.editor.set_code(SOLUTION)
    assert panel.check("word_chunks") == "pass"
    # document_snapshots passed with the endless version of another function: it still holds.
    expect(page.locator("[data-testid=progress]")).to_have_text("2 / 3")


@pytest.mark.parametrize("server_name", ["site_server", "plain_site_server"])
def test_stop_during_a_check_gives_the_cards_back_as_they_were(server_name, request):
    """Stop is the Run's button, but a Run queued behind the checks stops them too. That is the
    learner's choice, not their code running out of time: the card being checked goes back to
    what it showed before ("Te traag" would be a verdict the code never earned), and so do those
    of the batch not checked yet (without isolation, where Stop replaces the worker, no new one
    starts for them). With isolation Python is interrupted in place, not replaced."""
    server = request.getfixturevalue(server_name)
    page = request.getfixturevalue("restored_page" if server_name == "site_server" else "page")
    panel = CheckpointPanel.open(page, server, "?checkTimeLimit=60")
    panel.editor.set_code(ENDLESS_WORD_CHUNKS)
    before = panel.state_text("word_chunks")
    count_evaluations(page, "web.check(", "checksSent")
    panel.click_on(page.locator("[data-testid=check-all]"))
    page.wait_for_function("() => window.checksSent === 2", timeout=COLD_START_MS)  # word_chunks
    page.evaluate("() => { window.workerBeforeStop = window.werkplaats.python.worker; }")
    panel.editor.button("run").click()
    expect(panel.editor.button("stop")).to_be_enabled()
    page.wait_for_timeout(300)  # well inside the endless word_chunks
    panel.editor.button("stop").click()
    panel.wait_until_done(CHECK_MS)
    assert panel.statuses() == {"document_snapshots": "pass", "word_chunks": "pending", "chunk_coverage": "pending"}
    assert panel.state_text("word_chunks") == before
    assert panel.state_text("chunk_coverage") == before
    replaced = not page.evaluate("() => window.workerBeforeStop === window.werkplaats.python.worker")
    assert replaced == (server_name == "plain_site_server")
    panel.editor.set_code(SOLUTION)
    assert panel.check("word_chunks") == "pass"


@pytest.mark.parametrize("server_name", ["site_server", "plain_site_server"])
def test_code_that_loops_while_loading_costs_one_time_limit_for_all_checkpoints(server_name, request):
    """Checking all: the code is loaded once ahead, so a loop outside the functions waits out one
    limit instead of one per checkpoint (and, without isolation, starts Python once more, not three
    times); each card says that loading took too long, in the grader's words."""
    server = request.getfixturevalue(server_name)
    page = request.getfixturevalue("restored_page" if server_name == "site_server" else "page")
    panel = CheckpointPanel.open(page, server, "?checkTimeLimit=2")
    panel.editor.set_code(SOLUTION + "\nwhile True:\n    pass\n")
    page.evaluate("""() => {
        const python = window.werkplaats.python;
        const stop = python.stopRequest.bind(python);
        window.timeLimitStops = 0;
        python.stopRequest = (id, reason) => {
            if (reason === "timeout") window.timeLimitStops += 1;
            return stop(id, reason);
        };
    }""")
    assert panel.check_all() == dict.fromkeys(CHECKPOINT_IDS, "timeout")
    assert page.evaluate("() => window.timeLimitStops") == 1
    for checkpoint_id in CHECKPOINT_IDS:
        assert panel.message(checkpoint_id) == messages.timeout_at_load()
        assert panel.state_text(checkpoint_id) == "Te traag: gestopt na 2 seconden."
    # One checkpoint says the same: loaded ahead without isolation, by its own check with it.
    assert panel.check("word_chunks") == "timeout"
    assert panel.message("word_chunks") == messages.timeout_at_load()
    assert page.evaluate("() => window.timeLimitStops") == 2
    panel.editor.set_code(SOLUTION)
    assert panel.check_all() == dict.fromkeys(CHECKPOINT_IDS, "pass")


def test_results_of_other_tests_show_as_needing_a_recheck(restored_page, site_server):
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    old = {"status": "pass", "passed": 24, "total": 24, "before_tests": False, "message": "",
           "visible": False, "expected": None, "actual": None, "code": "1:0", "stale": False}
    page.evaluate("""entry => localStorage.setItem('werkplaats:rag-01:checkpoints', JSON.stringify(entry))""",
                  {"version": 1, "bundle_sha256": "0" * 64, "results": {"word_chunks": old}})
    page.reload()
    card = panel.card("word_chunks")
    page.locator("[data-testid=checkpoint-word_chunks][data-stale]").wait_for()
    assert card.get_attribute("data-status") == "pending"
    assert panel.state_text("word_chunks") == (
        "Eerder geslaagd, maar de tests van deze les zijn veranderd: controleer opnieuw.")
    assert panel.progress == "0 / 3"


# document_snapshots itself changed: its pass needs a re-check, the others' (which do not use it) do not.
OWN_FUNCTION_EDITED = SOLUTION.replace('"geef een lijst met 1 tot', '"Geef een lijst met 1 tot')


def test_a_pass_for_earlier_code_says_so_until_checked_again(restored_page, site_server, tmp_path):
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    panel.editor.set_code(SOLUTION)
    assert panel.check("document_snapshots") == "pass"
    marker = page.locator("[data-checkpoint-marker=document_snapshots]")
    card = panel.card("document_snapshots")

    def shows_earlier_code() -> None:
        assert card.get_attribute("data-status") == "pending"
        assert card.get_attribute("data-outdated") is not None
        assert panel.state_text("document_snapshots") == (
            "Geslaagd met een eerdere versie van je code — controleer opnieuw.")
        assert marker.get_attribute("data-status") == "outdated"
        assert "eerdere code" in marker.inner_text() and "geslaagd" not in marker.inner_text()
        expect(page.locator("[data-testid=progress]")).to_have_text("0 / 3 · 1 met eerdere code")

    assert OWN_FUNCTION_EDITED != SOLUTION
    panel.editor.type_code(OWN_FUNCTION_EDITED)
    page.locator("[data-testid=checkpoint-document_snapshots][data-outdated]").wait_for()
    shows_earlier_code()
    page.reload()
    page.locator("[data-testid=checkpoint-document_snapshots][data-outdated]").wait_for()
    shows_earlier_code()

    # The export offers the check it is missing; afterwards the download carries all verdicts.
    page.locator("[data-testid=learner-name]").fill("Anna")
    with page.expect_download():
        page.locator("[data-testid=export]").click()
    message = page.locator("[data-export-message]")
    assert "3 checkpoints zijn nog niet gecontroleerd met deze code" in message.inner_text()
    message.get_by_role("button", name="Controleer nu alle checkpoints").click()
    message.get_by_text("Klaar met controleren").wait_for(timeout=120_000)
    assert panel.statuses() == dict.fromkeys(CHECKPOINT_IDS, "pass")
    assert card.get_attribute("data-outdated") is None and panel.progress == "3 / 3"
    with page.expect_download() as download_info:
        page.locator("[data-testid=export]").click()
    saved = tmp_path / "inzending.json"
    download_info.value.save_as(saved)
    verdicts = json.loads(saved.read_text(encoding="utf-8"))["browser_verdicts"]
    assert verdicts == dict.fromkeys(CHECKPOINT_IDS, "pass")

    # Back to the first version: only document_snapshots changed; back again, and all count.
    progress = page.locator("[data-testid=progress]")
    panel.editor.set_code(SOLUTION)
    expect(progress).to_have_text("2 / 3 · 1 met eerdere code")
    panel.editor.set_code(OWN_FUNCTION_EDITED + "\nprint('nog één regel')\n")
    expect(progress).to_have_text("3 / 3")


def test_corrupted_storage_is_ignored_with_a_quiet_notice(restored_page, site_server):
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    page.evaluate("() => localStorage.setItem('werkplaats:rag-01:checkpoints', '{\"version\": 1, \"results\": [')")
    page.reload()
    notice = page.locator("[data-checkpoint-notice]")
    notice.wait_for()
    assert notice.inner_text() == "Je opgeslagen checkpoint-resultaten waren onleesbaar en zijn genegeerd."
    assert panel.statuses() == dict.fromkeys(CHECKPOINT_IDS, "pending")
    panel.editor.set_code(SOLUTION)
    assert panel.check("document_snapshots") == "pass"


def test_export_asks_the_name_in_the_page_and_grades_the_same_offline(restored_page, site_server, built_site, tmp_path):
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog appeared: {dialog.message}"))
    source = known_wrong("word_chunks__overlap_only_tail.py")
    panel.editor.set_code(source)
    browser_statuses = panel.check_all()
    assert browser_statuses["word_chunks"] == "fail"

    page.locator("[data-testid=export]").click()
    name_field = page.locator("[data-testid=learner-name]")
    assert name_field.evaluate("element => element === document.activeElement")
    assert name_field.get_attribute("aria-invalid") == "true"
    assert page.locator("[data-export-message]").inner_text() == (
        "Vul eerst je naam in: die komt in het bestand voor je docent.")

    name_field.fill("Anna de Vries")
    with page.expect_download() as download_info:
        page.locator("[data-testid=export]").click()
    download = download_info.value
    assert download.suggested_filename == "rag-01-anna-de-vries.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    submission = json.loads(saved.read_text(encoding="utf-8"))
    meta = json.loads((built_site / "checkpoints/rag-01/meta.json").read_text(encoding="utf-8"))
    assert submission["lesson"] == "rag-01" and submission["learner"] == "Anna de Vries"
    assert submission["code"] == source
    assert submission["bundle_sha256"] == meta["bundle_sha256"]
    assert submission["lesson_revision"] == meta["lesson_revision"]
    assert submission["browser_verdicts"] == browser_statuses

    out = tmp_path / "graded"
    completed = subprocess.run(
        [sys.executable, "-m", "runner", "grade", "--lesson", "rag-01", str(saved), "--out", str(out), "--jobs", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads((out / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert result["status"] == "graded" and result["learner"] == "Anna de Vries"
    assert {c["id"]: c["status"] for c in result["checkpoints"]} == browser_statuses

    page.reload()
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert page.locator("[data-testid=learner-name]").input_value() == "Anna de Vries"


def test_solution_opens_only_after_a_confirmation_in_the_page(restored_page, site_server):
    page = restored_page
    CheckpointPanel.open(restored_page, site_server)
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog appeared: {dialog.message}"))
    details = page.locator("[data-testid=solution]")
    summary = details.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    confirm = page.locator("[data-testid=solution-confirm]")
    assert confirm.is_visible() and not details.evaluate("element => element.open")
    assert confirm.evaluate("element => element === document.activeElement")
    page.locator("[data-testid=solution-cancel]").click()
    assert not details.evaluate("element => element.open") and not confirm.is_visible()

    summary.click()
    page.keyboard.press("Enter")  # the confirm button has focus
    assert details.evaluate("element => element.open")
    assert details.locator(".solution__advice").is_visible()
    assert "def word_chunks" in details.inner_text()


def test_failing_word_chunks_offers_the_visualizer(restored_page, site_server):
    page = restored_page
    panel = CheckpointPanel.open(restored_page, site_server)
    page.evaluate("""() => {
        window.shownPassages = 0;
        document.addEventListener('werkplaats:show-in-widget', (event) => {
            if (event.detail.checkpoint === 'word_chunks') window.shownPassages += 1;
        });
    }""")
    panel.editor.set_code(known_wrong("word_chunks__end_inclusive.py"))
    assert panel.check("word_chunks") == "fail"
    button = panel.card("word_chunks").get_by_role("button", name="Bekijk in de visualisatie")
    button.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.shownPassages") == 1
    assert panel.check("document_snapshots") == "pass"
    assert panel.card("document_snapshots").get_by_role("button", name="Bekijk in de visualisatie").count() == 0


def test_axe_finds_no_serious_or_critical_violations(restored_page, site_server):
    page = restored_page
    # Stacked (below 1200 px): "Terug naar de les" shows only there; side by side, see test_module_view.py.
    page.set_viewport_size({"width": 1024, "height": 768})
    panel = CheckpointPanel.open(restored_page, site_server)
    panel.editor.set_code(known_wrong("word_chunks__end_inclusive.py"))
    panel.check("word_chunks")  # so the feedback with expected/actual is on the page too
    page.locator("[data-testid=solution] summary").click()  # and the solution's confirmation
    page.locator("[data-testid=reset]").click()  # the reset's confirmation
    page.locator("[data-checkpoint-marker=word_chunks] a").click()  # and "Terug naar de les"
    panel.editor.set_code(SOLUTION)  # and a result of earlier code
    page.add_script_tag(path=str(AXE_PATH))
    results = page.evaluate("async () => await axe.run(document)")
    serious = [
        (violation["id"], violation["impact"], [node["target"] for node in violation["nodes"]][:3])
        for violation in results["violations"] if violation["impact"] in ("serious", "critical")
    ]
    assert serious == []
