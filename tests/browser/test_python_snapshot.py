"""The Python memory snapshot (worker-client.js, pyodide-worker.js, offline.js, service-worker.js), in
Chromium: the first start in a browser profile keeps a snapshot of the started interpreter (Pyodide,
the runner archive, the lesson's imports; no learner code) in the build's cache; every later page
load starts from it and gives verdicts as before. A damaged or stale snapshot falls back to a full
start and is replaced. Learner code can neither reach the site's caches nor change what the next
page load serves (issue 22, item 5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.checkpoint_panel import LESSON_DIR, CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, WASM_SERVED, EditorPage

pytestmark = pytest.mark.browser

SNAPSHOT_STORED = "document.documentElement.dataset.pythonSnapshot === 'stored'"
PANEL = "[data-editor-panel]"
CONTROLLED = "navigator.serviceWorker.controller !== null"
OFFLINE_READY = "document.documentElement.dataset.offline === 'ready'"

# Rewrites the stored snapshot the way damage or an older site would leave it.
SPOIL_SNAPSHOT = """async (mode) => {
  const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  const request = (await cache.keys()).find((entry) => entry.url.includes("/__werkplaats_snapshot__"));
  const stored = await cache.match(request);
  const bytes = new Uint8Array(await stored.arrayBuffer());
  let digest = stored.headers.get("X-Werkplaats-SHA256");
  let version = stored.headers.get("X-Werkplaats-Pyodide");
  if (mode === "damaged") {
    // Bytes changed after storing: the recorded SHA-256 no longer fits.
    for (let i = bytes.length - 65536; i < bytes.length; i += 7) bytes[i] ^= 0x5a;
  } else if (mode === "other-pyodide") {
    version = "0.27.7";
  } else if (mode === "other-build-of-pyodide") {
    // Pyodide's own build id in its header (bytes 16-48 of the first page, stored first after the
    // kept form's header and bit field: site/src/snapshot-pages.js); a consistent digest for these bytes.
    const pages = new Uint32Array(bytes.buffer, 0, 4)[3];
    const firstPage = 16 + Math.ceil(Math.ceil(pages / 8) / 4) * 4;
    bytes[firstPage + 20] ^= 0xff;
    digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  }
  await cache.put(request.url, new Response(bytes, {
    headers: { "X-Werkplaats-SHA256": digest, "X-Werkplaats-Pyodide": version },
  }));
  return bytes.length;
}"""

SNAPSHOT_ENTRIES = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  const entries = (await cache.keys()).filter((entry) => entry.url.includes("/__werkplaats_snapshot__"));
  return Promise.all(entries.map(async (entry) => ({
    url: entry.url, version: (await cache.match(entry)).headers.get("X-Werkplaats-Pyodide"),
  })));
}"""


HAS_SNAPSHOT = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  if (!name) return false;
  const cache = await caches.open(name);
  return (await cache.keys()).some((entry) => entry.url.includes("/__werkplaats_snapshot__"));
}"""
DROP_SNAPSHOTS = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  for (const request of await cache.keys()) {
    if (request.url.includes("/__werkplaats_snapshot__")) await cache.delete(request);
  }
}"""
# offline.js: set once the service worker kept a snapshot.
SNAPSHOT_KEPT_KEY = "werkplaats-python-snapshot-kept"


@pytest.fixture
def context(browser):
    context = browser.new_context()
    yield context
    context.close()


def first_visit(context, server, code: str = "print(1)") -> EditorPage:
    """A first visit in a new profile: a Run clicked at once, and the snapshot kept."""
    page = context.new_page()
    editor = EditorPage.open(page, server)
    assert editor.run(code) != ""
    page.wait_for_function(SNAPSHOT_STORED, timeout=COLD_START_MS)
    assert page.locator(PANEL).get_attribute("data-python-start") == "cold"
    return editor


@pytest.fixture(scope="module")
def returning_profile(browser):
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def returning(returning_profile, site_server):
    """A returning learner's profile, for tests of what happens after a first visit: shared by
    them, with its snapshot and its wasm as they left them (each leaves them as it found them, or
    drops the snapshot), so the cold first visit, a quarter of this file's CPU each, is paid once,
    and again only after a test dropped the snapshot. Every page is closed after each test. Tests
    of the first visit itself (what it keeps) make their own profile."""
    probe = returning_profile.new_page()
    probe.goto(f"{site_server.url}__no_such_page__")  # of the origin, for its caches
    kept = probe.evaluate(HAS_SNAPSHOT)
    probe.close()
    if not kept:
        page = first_visit(returning_profile, site_server).page
        page.wait_for_function(OFFLINE_READY, timeout=COLD_START_MS)  # the whole site kept too
        page.close()
    yield returning_profile
    for page in returning_profile.pages:
        page.close()


def start_kind(page) -> str:
    return page.locator(PANEL).get_attribute("data-python-start")


def test_a_second_page_load_starts_from_the_snapshot_and_gives_verdicts(returning, site_server):
    page = returning.new_page()

    # The next page load, clicked at once: the check waits for a start from the snapshot.
    panel = CheckpointPanel.open(page, site_server)
    assert len(page.evaluate(SNAPSHOT_ENTRIES)) == 1
    page.wait_for_function(CONTROLLED)
    panel.editor.set_code((LESSON_DIR / "solution.py").read_text(encoding="utf-8"))
    assert panel.check("document_snapshots") == "pass"
    assert start_kind(page) == "snapshot"
    assert panel.editor.run("print(sum(range(5)))") == "10\n"
    expect(page.locator("[data-editor-status]")).to_have_text("Klaar.")

    # The warm start says which start it was.
    page.goto(f"{site_server.url}rag-01/")
    page.locator("[data-editor-panel] h2").scroll_into_view_if_needed()
    page.locator("[data-testid=editor] .cm-content").click()
    expect(page.locator("[data-editor-status]")).to_have_text(
        "Python staat klaar (snel gestart uit de bewaarde kopie).", timeout=COLD_START_MS)

    # Another lesson of the same build starts from the same snapshot, with its own tests.
    other = EditorPage.open(page, site_server, lesson_path="rag-02/")
    assert other.run("print('rag-02')") == "rag-02\n"
    assert start_kind(page) == "snapshot"
    assert len(page.evaluate(SNAPSHOT_ENTRIES)) == 1  # one per build


MARKS = "performance.getEntriesByType('mark').map((entry) => entry.name)"
PREPARED = "performance.getEntriesByType('mark').some((entry) => entry.name.startsWith('werkplaats: python-prepared'))"


def started_python(marks: list[str]) -> list[str]:
    """The marks of a start: the page's, and every step of the worker's (each comes with `init`)."""
    return [name for name in marks if name == "werkplaats: python-start" or name.startswith("werkplaats: worker: ")]


def test_without_a_snapshot_nothing_is_prepared_at_load(context, site_server):
    # A first visit that never starts Python: the service worker installs, no snapshot is made.
    page = context.new_page()
    page.goto(f"{site_server.url}rag-01/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{site_server.url}rag-01/")
    page.wait_for_function(CONTROLLED)
    assert page.evaluate(SNAPSHOT_ENTRIES) == []
    page.wait_for_timeout(2000)
    marks = page.evaluate(MARKS)
    assert [name for name in marks if "prepare" in name] == []
    assert started_python(marks) == []
    assert page.workers == []


def test_learner_code_is_never_in_the_snapshot(context, site_server):
    # Clicked at once on the first visit: this Run waits for the start that makes the snapshot.
    editor = first_visit(context, site_server, code=(
        "geheim_van_de_leerling = 42\n"
        "import json, js\n"
        "json.door_de_leerling = True\n"
        "print(js.performance.now() > 0, js.navigator.userAgent[:7])\n"))
    # The start that made the snapshot hands learner code the plain global scope.
    assert editor.output.inner_text() == "True Mozilla\n"
    page = context.new_page()
    editor = EditorPage.open(page, site_server)
    output = editor.run(
        "import json, sys\n"
        "print('geheim_van_de_leerling' in globals(), hasattr(json, 'door_de_leerling'),\n"
        "      [name for name in sys.modules if 'leerling' in name])\n")
    assert start_kind(page) == "snapshot"
    assert output == "False False []\n"


def test_a_damaged_or_stale_snapshot_falls_back_to_a_full_start_and_is_replaced(returning, site_server):
    # The three kinds of spoiled snapshot one after the other: each ends with the snapshot replaced
    # and a start from it, which is where the next begins.
    page = returning.new_page()
    page.goto(f"{site_server.url}__no_such_page__")
    for mode in ["damaged", "other-pyodide", "other-build-of-pyodide"]:
        page.evaluate(SPOIL_SNAPSHOT, mode)
        page.close()

        page = returning.new_page()
        editor = EditorPage.open(page, site_server)
        assert editor.run("print('toch')") == "toch\n", mode
        assert start_kind(page) == "snapshot-failed", mode
        page.wait_for_function(SNAPSHOT_STORED, timeout=COLD_START_MS)
        entries = page.evaluate(SNAPSHOT_ENTRIES)
        assert [entry["version"] for entry in entries] == ["314.0.7"], mode
        page.close()

        page = returning.new_page()
        editor = EditorPage.open(page, site_server)
        assert editor.run("print('weer snel')") == "weer snel\n", mode
        assert start_kind(page) == "snapshot", mode


REACH_STORAGE = """
import js
for name in ("caches", "indexedDB", "Worker", "SharedWorker"):
    try:
        value = getattr(js, name)
    except AttributeError:
        value = None
    print(name, "weg" if value is None else "BEREIKBAAR")
try:
    js.eval("caches.open('werkplaats-x')")
    print("eval BEREIKBAAR")
except Exception:
    print("eval weg")
"""

POISON_THE_PAGE = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  const url = new URL("/rag-01/", location.href).href;
  const genuine = await cache.match(url);
  await cache.put(url, new Response("<h1>Vergiftigd</h1><script>window.poisoned = true</script>", {
    headers: genuine.headers,
  }));
  return (await (await cache.match(url)).text()).includes("Vergiftigd");
}"""


def test_learner_code_cannot_write_the_sites_caches_and_a_poisoned_page_is_never_served(returning, site_server):
    page = returning.new_page()
    editor = EditorPage.open(page, site_server)  # served by the service worker
    page.wait_for_function(CONTROLLED)
    title = page.locator("h1").inner_text()

    # From the Pyodide worker, where learner code runs, no storage of the site is in reach.
    output = editor.run(REACH_STORAGE)
    assert output.splitlines() == ["caches weg", "indexedDB weg", "Worker weg", "SharedWorker weg", "eval weg"]

    # Anything else on this origin that writes the cache (another site on the same host, say) is
    # not served either: the service worker checks every file against the build's manifest.
    assert page.evaluate(POISON_THE_PAGE) is True
    page.reload()
    expect(page.locator("h1")).to_have_text(title)
    assert page.evaluate("window.poisoned === undefined")
    # The poisoned copy is gone from the cache, replaced by the genuine page.
    cached = page.evaluate("""async () => {
      const response = await caches.match(new URL("/rag-01/", location.href).href);
      return response ? await response.text() : "";
    }""")
    assert "Vergiftigd" not in cached
    assert re.search(re.escape(title), cached)


# Replaces the cached wasm with other bytes under the genuine headers (damage, or something else on
# the origin writing the cache); the same for the cached copy's bytes against the build's manifest.
SPOIL_WASM = """async () => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const cache = await caches.open(name);
  const url = (await cache.keys()).map((entry) => entry.url).find((url) => url.endsWith("/pyodide/pyodide.asm.wasm"));
  const genuine = await cache.match(url);
  const bytes = new Uint8Array(await genuine.arrayBuffer());
  for (let i = 64; i < bytes.length; i += 4096) bytes[i] ^= 0xff;
  await cache.put(url, new Response(bytes, { headers: genuine.headers }));
  return url;
}"""
CACHED_WASM_IS_THE_BUILDS = """async (expected) => {
  const name = (await caches.keys()).find((entry) => /^werkplaats-[0-9a-f]{16}$/.test(entry));
  const response = await (await caches.open(name)).match(new URL("/pyodide/pyodide.asm.wasm", location.href).href);
  if (!response) return false;
  const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("") === expected;
}"""


def manifest_hash(site, url: str) -> str:
    text = (site / "sw.js").read_text(encoding="utf-8")
    marker = f'"{url}":"'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


def test_the_wasm_is_served_as_stored_and_a_damaged_copy_is_replaced(returning, site_server, built_site):
    page = returning.new_page()

    # The next page load gets the cache's own response for the wasm (not a copy built from its
    # bytes): the kind Chromium keeps compiled code for.
    editor = EditorPage.open(page, site_server)
    assert editor.run("print(3 * 7)") == "21\n"
    assert start_kind(page) == "snapshot"
    page.wait_for_function(f"({WASM_SERVED})() !== null")
    assert page.evaluate(WASM_SERVED) == "cache"

    # A damaged copy is not hashed on the way out, but the check after the next start finds it,
    # throws it away and keeps the build's file again: the page load after that works as before.
    expected = manifest_hash(built_site, "pyodide/pyodide.asm.wasm")
    page.evaluate(SPOIL_WASM)
    assert page.evaluate(CACHED_WASM_IS_THE_BUILDS, expected) is False
    page.goto(f"{site_server.url}rag-01/")
    page.wait_for_function(CONTROLLED)
    page.locator("[data-testid=editor] .cm-content").click()  # intent: Python starts
    for _ in range(COLD_START_MS // 500):
        if page.evaluate(CACHED_WASM_IS_THE_BUILDS, expected):
            break
        page.wait_for_timeout(500)
    assert page.evaluate(CACHED_WASM_IS_THE_BUILDS, expected) is True
    editor = EditorPage.open(page, site_server)
    assert editor.run("print('weer goed')") == "weer goed\n"
    assert page.evaluate(WASM_SERVED) == "cache"


# Last of the tests on the returning profile: it ends with the snapshot dropped, which the next
# one would have to pay a first visit for.
def test_a_page_only_read_prepares_the_start_from_the_snapshot_but_runs_no_python(returning, site_server):
    # The next page load, only read: the worker compiles the wasm and receives the snapshot's
    # bytes, and that is all (no interpreter, no start, no setup).
    page = returning.new_page()
    page.goto(f"{site_server.url}rag-01/")
    page.wait_for_function(PREPARED, timeout=COLD_START_MS)
    marks = page.evaluate(MARKS)
    assert "werkplaats: python-prepared: wasm-compiled" in marks
    assert "werkplaats: snapshot-read" in marks
    assert started_python(marks) == []
    assert page.evaluate("window.werkplaats.python.state") == "idle"
    assert page.locator(PANEL).get_attribute("data-python-start") is None
    assert len(page.workers) == 1

    # The learner checks: the prepared worker restores the snapshot and gives the verdict.
    panel = CheckpointPanel(page, EditorPage(page))
    panel.editor.set_code((LESSON_DIR / "solution.py").read_text(encoding="utf-8"))
    assert panel.check("document_snapshots") == "pass"
    assert start_kind(page) == "snapshot"
    marks = page.evaluate(MARKS)
    assert "werkplaats: worker: wasm-instantiated-from-prepared" in marks
    assert "werkplaats: worker: snapshot-restored" in marks
    assert len(page.workers) == 1  # the prepared one, not a second

    # The page remembers that a snapshot was kept, so the next one prepares without waiting for
    # the lookup. When the snapshot is gone after all (storage cleared), that worker ends again,
    # no Python ran, and the page forgets it.
    assert page.evaluate(f"localStorage.getItem('{SNAPSHOT_KEPT_KEY}')") == "1"
    page.evaluate(DROP_SNAPSHOTS)
    page.goto(f"{site_server.url}rag-01/")
    page.wait_for_function(f"localStorage.getItem('{SNAPSHOT_KEPT_KEY}') === null", timeout=COLD_START_MS)
    marks = page.evaluate(MARKS)
    assert "werkplaats: prepare" in marks
    assert started_python(marks) == []
    for _ in range(50):  # the worker's end reaches Playwright as an event, soon after
        if not page.workers:
            break
        page.wait_for_timeout(100)
    assert page.workers == []
    assert page.evaluate("window.werkplaats.python.state") == "idle"
