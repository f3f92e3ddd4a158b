"""The editor panel in Debian's Chromium, served with and without cross-origin isolation.

Every fresh page costs a cold Pyodide start, so checks that only need a running Python share one
warm page per server (module scope); tests about start-up, stopping and storage get fresh pages,
those about stopping on the isolated server one whose Python starts from the kept snapshot.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.editor_page import EditorPage
from tests.shared_fixtures import RequestLog

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SERVERS = ["site_server", "plain_site_server"]
INFINITE_LOOP = "while True:\n    pass\n"
STORAGE_KEY = "werkplaats:rag-01:code"


@pytest.fixture(params=SERVERS)
def server(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def stop_page(request, server):
    """A fresh page for a test of stopping Python: on the isolated server one that starts Python
    from the snapshot a first visit kept (`restored_page`, a fifth of a cold start's CPU); the
    plain server has no service worker to keep one, so a cold start there."""
    name = request.node.callspec.params["server"]
    return request.getfixturevalue("restored_page" if name == "site_server" else "page")


@pytest.fixture(scope="module", params=SERVERS)
def warm(request, browser):
    """One page per server whose Python is already running."""
    server = request.getfixturevalue(request.param)
    # The plain server stands for a host where no service worker adds the isolation headers
    # (see the `page` fixture in tests/shared_fixtures.py).
    context = browser.new_context(service_workers="block" if request.param == "plain_site_server" else "allow")
    page = context.new_page()
    page.request_log = RequestLog()
    page.on("request", lambda r: page.request_log.urls.append(r.url))
    editor = EditorPage.open(page, server)
    assert "klaar" in editor.run("print('klaar')")
    yield editor
    context.close()


# --- a fresh page ---------------------------------------------------------------------------

def test_page_shows_the_panel_before_python_starts(page, server):
    editor = EditorPage.open(page, server)
    panel = page.locator("[data-editor-panel]")
    assert panel.locator("h2").inner_text() == "Probeer het zelf"
    assert "main.py" in panel.inner_text()
    assert "Python start zodra je hier aan de slag gaat" in panel.inner_text()
    assert editor.output.inner_text() == "Je uitvoer verschijnt hier. Alles rekent in je eigen browser."
    assert "def document_snapshots(records):" in editor.editor_text()
    assert editor.button("stop").is_disabled()
    assert not [url for url in page.request_log.urls if "/pyodide/" in url], "Python must start lazily"


def test_first_run_loads_python_then_prints_without_leaving_localhost(page, server):
    editor = EditorPage.open(page, server)
    editor.set_code("for n in range(3):\n    print('regel', n)\n")
    editor.button("run").click()
    page.locator("[data-testid=output]", has_text="Python wordt geladen").wait_for()
    editor.wait_until_idle()
    assert editor.output.inner_text() == "regel 0\nregel 1\nregel 2\n"
    # The worker's own fetches are in the log too, so the check below covers Pyodide.
    assert any(url.endswith("/pyodide/pyodide.asm.wasm") for url in page.request_log.urls)
    assert page.request_log.outside_localhost() == []


def test_stop_ends_an_endless_loop_and_the_next_run_works(stop_page, server):
    page = stop_page
    editor = EditorPage.open(page, server)
    editor.start_run(INFINITE_LOOP)
    isolated = page.evaluate("() => crossOriginIsolated")
    page.evaluate("() => { window.workerBeforeStop = window.werkplaats.python.worker; }")
    console = []
    page.on("console", lambda message: console.append(message.text))
    editor.button("stop").click()
    editor.wait_until_idle(timeout=15_000)
    assert "Gestopt." in editor.output.inner_text()
    # Isolated pages interrupt Python in place; plain pages must replace the worker.
    kept_worker = page.evaluate("() => window.workerBeforeStop === window.werkplaats.python.worker")
    assert kept_worker == isolated, console
    assert editor.run("print('weer', 'verder')") == "weer verder\n"


def test_printed_lines_show_while_the_program_runs_and_stay_after_stop(stop_page, server):
    page = stop_page
    editor = EditorPage.open(page, server)
    editor.start_run("print('hoi')\nfor n in range(3):\n    print('regel', n)\n" + INFINITE_LOOP)
    editor.output.get_by_text("regel 2").wait_for(timeout=5_000)
    assert editor.output.inner_text() == "hoi\nregel 0\nregel 1\nregel 2\n"
    assert editor.button("stop").is_enabled(), "the program should still be running"
    editor.button("stop").click()
    editor.wait_until_idle(timeout=15_000)
    # Without isolation Stop replaces the worker: what was printed before must survive that.
    assert editor.output.inner_text() == "hoi\nregel 0\nregel 1\nregel 2\nGestopt.\n"


def test_time_limit_stops_a_runaway_program_and_the_next_run_works(stop_page, server):
    page = stop_page
    editor = EditorPage.open(page, server, "?timeLimit=2")
    editor.start_run(INFINITE_LOOP)
    editor.wait_until_idle(timeout=20_000)
    assert "Je programma liep langer dan 2 seconden en is gestopt." in editor.output.inner_text()
    assert editor.run("print(2 + 2)") == "4\n"


def test_a_program_that_swallows_the_interrupt_is_still_stopped(restored_page, site_server):
    page = restored_page
    editor = EditorPage.open(page, site_server)
    editor.start_run(
        "while True:\n"
        "    try:\n"
        "        while True:\n"
        "            pass\n"
        "    except KeyboardInterrupt:\n"
        "        print('ha, ik ga door')\n"
    )
    editor.button("stop").click()
    editor.wait_until_idle(timeout=20_000)
    assert "Gestopt." in editor.output.inner_text()
    assert editor.run("print('nieuw begin')") == "nieuw begin\n"


def test_code_survives_a_reload_and_reset_asks_before_restoring_the_starter_code(page, plain_site_server):
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog appeared: {dialog.message}"))
    editor = EditorPage.open(page, plain_site_server)
    starter = editor.editor_text()
    editor.type_code("print('mijn eigen code')\n")
    page.reload()
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert editor.editor_text() == "print('mijn eigen code')\n"
    # Reset asks first, in the page, and says how to get the code back.
    editor.button("reset").click()
    question = page.locator("[data-reset-confirm]")
    assert question.is_visible() and "Ctrl+Z" in question.inner_text()
    assert editor.button("reset-confirm").evaluate("element => element === document.activeElement")
    editor.button("reset-cancel").click()
    assert not question.is_visible() and editor.editor_text() == "print('mijn eigen code')\n"
    editor.button("reset").click()
    editor.button("reset-confirm").click()
    assert editor.editor_text() == starter
    assert "Ctrl+Z" in page.locator("[data-editor-status]").inner_text()
    page.keyboard.press("Control+z")
    assert editor.editor_text() == "print('mijn eigen code')\n"
    editor.button("reset").click()
    editor.button("reset-confirm").click()
    page.reload()
    page.locator("[data-testid=editor] .cm-content").wait_for()
    assert editor.editor_text() == starter


@pytest.mark.parametrize("stored", ["{kapot", json.dumps({"version": 1, "code": 42}), json.dumps([1, 2])])
def test_a_corrupted_stored_entry_is_ignored(page, plain_site_server, stored):
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.add_init_script(f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)})")
    editor = EditorPage.open(page, plain_site_server)
    assert "def document_snapshots(records):" in editor.editor_text()
    assert "kon niet gelezen worden" in page.locator("[data-editor-status]").inner_text()
    assert errors == []


# --- a warm page ----------------------------------------------------------------------------

def test_ctrl_enter_in_the_editor_runs_the_code(warm):
    warm.type_code("print(6 * 7)")
    warm.page.keyboard.press("Control+Enter")
    warm.page.locator("[data-testid=output]", has_text="42").wait_for()
    warm.wait_until_idle()
    assert warm.output.inner_text() == "42\n"


def test_output_with_html_stays_text_and_stderr_is_distinct(warm):
    warm.run(
        "import sys\n"
        "print('<b>vet</b> <img src=x onerror=alert(1)>')\n"
        "print('let op', file=sys.stderr)\n"
    )
    assert warm.stream_text("stdout") == "<b>vet</b> <img src=x onerror=alert(1)>\n"
    assert warm.output.locator("b, img").count() == 0
    assert warm.stream_text("stderr") == "let op\n"
    colors = warm.page.evaluate(
        """() => ['stdout', 'stderr'].map(s =>
            getComputedStyle(document.querySelector(`[data-testid=output] [data-stream=${s}]`)).color)"""
    )
    assert colors[0] != colors[1]


def test_traceback_shows_main_py_lines_without_pyodide_internals(warm):
    text = warm.run(
        "def deel(a, b):\n"
        "    return a / b\n"
        "\n"
        "print('voor de fout')\n"
        "deel(1, 0)\n"
    )
    stderr = warm.stream_text("stderr")
    assert text.startswith("voor de fout\n")
    assert stderr.startswith("Traceback (most recent call last):\n")
    assert 'File "main.py", line 5, in <module>' in stderr
    assert 'File "main.py", line 2, in deel' in stderr
    assert stderr.rstrip().endswith("ZeroDivisionError: division by zero")
    for internal in ("pyodide", "/lib/python", "<exec>", "werkplaats"):
        assert internal not in stderr


def test_syntax_error_names_the_line_in_main_py(warm):
    warm.run("x = 1\nprint(x\n")
    stderr = warm.stream_text("stderr")
    assert 'File "main.py", line 2' in stderr
    assert "SyntaxError" in stderr
    assert "Traceback" not in stderr


def test_a_flood_of_output_is_cut_and_says_so(warm):
    text = warm.run("for i in range(100_000):\n    print(i)\n", timeout=60_000)
    assert text.count("\n") <= 2002
    assert text.startswith("0\n1\n2\n")
    assert "Uitvoer ingekort: alleen de eerste 2000 regels" in text


def test_the_output_cap_holds_while_no_frame_is_drawn(page, site_server):
    # A background tab gets no animation frames; what waits to be drawn must be capped as well.
    EditorPage.open(page, site_server)
    queued = page.evaluate("""() => {
        const output = window.werkplaats.editor.output;
        window.requestAnimationFrame = () => 0;
        for (let i = 0; i < 5000; i++) output.write("stdout", "x".repeat(99) + "\\n");
        return output.queued.reduce((total, [, text]) => total + text.length, 0);
    }""")
    assert queued == 2000 * 100  # the first 2000 lines; the other 3000 were dropped at once


def test_import_micropip_works_offline(warm):
    assert warm.run("import micropip\nprint(micropip.__version__)") == "0.11.1\n"
    assert warm.page.request_log.outside_localhost() == []


def test_import_numpy_offline_names_the_package_in_dutch(warm):
    text = warm.run("import numpy\nprint(numpy.arange(3))")
    assert "Het pakket 'numpy' kon niet geladen worden:" in text
    assert "Traceback" not in text


def test_load_example_goes_below_the_learners_code_with_what_it_builds_on(warm):
    warm.set_code("def document_snapshots(records):\n    return 'mijn eigen versie'\n")
    marker = "# --- Voorbeeld uit de les (alles vanaf hier mag weg) ---"
    later = warm.page.locator("figure.example[data-context]").first
    later.locator("[data-load-example]").click()
    text = warm.editor_text()
    assert text.startswith("def document_snapshots(records):\n    return 'mijn eigen versie'\n")
    assert marker in text
    context, source = later.get_attribute("data-context"), later.get_attribute("data-source")
    assert text.index(context.strip()) < text.index(source.strip())
    # A second example replaces the first one instead of piling up, and the own code stays.
    first = warm.page.locator("figure.example[data-source]").first
    first.locator("[data-load-example]").click()
    text = warm.editor_text()
    assert text.count(marker) == 1
    assert "mijn eigen versie" in text and text.rstrip().endswith(first.get_attribute("data-source").rstrip())


def test_load_example_shows_the_example_in_the_editor_and_clears_the_old_output(warm):
    from pathlib import Path

    page = warm.page
    warm.set_code((Path(__file__).resolve().parents[2] / "checkpoints/rag-01/solution.py").read_text())
    warm.run("print('oude uitvoer')\n" + warm.editor_text())
    assert "oude uitvoer" in warm.output.inner_text()
    third = page.locator("figure.example[data-source] [data-load-example]").nth(2)
    assert third.get_attribute("aria-label") == "Laad in editor: voorbeeld 3"
    third.click()
    assert "oude uitvoer" not in warm.output.inner_text()
    marker = page.locator(".cm-line", has_text="# --- Voorbeeld uit de les")
    box = page.locator("[data-testid=editor]").bounding_box()
    line = marker.bounding_box()
    viewport = page.viewport_size
    # The marker line is inside the editor's scroll box and inside the window.
    assert box["y"] <= line["y"] and line["y"] + line["height"] <= box["y"] + box["height"]
    assert 0 <= line["y"] and line["y"] + line["height"] <= viewport["height"]
    assert warm.button("run").bounding_box()["y"] >= 0, "the Run button scrolled out of view"
    cursor = page.evaluate("() => window.werkplaats.editor.view.state.selection.main.head")
    assert cursor == warm.editor_text().index("# --- Voorbeeld uit de les")


def test_a_loaded_later_example_runs_with_the_learners_functions(warm):
    from pathlib import Path

    solution = (Path(__file__).resolve().parents[2] / "checkpoints/rag-01/solution.py").read_text()
    warm.set_code(solution)
    chunking = warm.page.locator("figure.example[data-source*='word_chunks(doc, 4, 1)']").first
    chunking.locator("[data-load-example]").click()
    output = warm.run()
    assert "d:0 2 10\nd:3 9 16\nd:6 15 18" in output
    assert "Error" not in output


def test_evaluate_returns_json_data_to_page_modules(warm):
    value = warm.page.evaluate(
        "() => window.werkplaats.python.evaluate('{\"som\": sum(args[\"xs\"]), \"tekst\": \"é\"}', {args: {xs: [1, 2, 3]}})"
    )
    assert value == {"som": 6, "tekst": "é"}
    error = warm.page.evaluate(
        "() => window.werkplaats.python.evaluate('1 / 0').then(() => null, e => e)"
    )
    assert error["kind"] == "python"
    assert "ZeroDivisionError" in error["message"]
