"""Offline after one visit (site/src/service-worker.js, offline.js, builder/service_worker.py), in
Chromium: a site of two lessons (rag-01 and the chain-01 fixture) is visited once with a Run; then
the server is shut down and the context set offline, and a reload of that lesson and a first visit
of the other one still run code and grade checkpoints. A new build replaces the cache as a whole,
and the page offers the reload; the learner's code survives it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder.serve import start_server
from tests.browser.checkpoint_panel import CheckpointPanel
from tests.browser.editor_page import COLD_START_MS, EditorPage

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ROOT / "tests" / "fixtures" / "chain"
CHAIN_IDS = ("words", "word_counts", "longest_line")
OFFLINE_READY = "document.documentElement.dataset.offline === 'ready'"
POISON_META = """async () => {
  const url = new URL("/checkpoints/rag-01/meta.json", location.href).href;
  const name = (await caches.keys()).find((entry) => entry.startsWith("werkplaats-"));
  const cache = await caches.open(name);
  await cache.put(url, new Response('{"archive": "vergiftigd.zip"}', { headers: { "Content-Type": "application/json" } }));
  return (await (await cache.match(url)).text()).includes("vergiftigd");
}"""
CACHED_META = """async () => {
  const response = await caches.match(new URL("/checkpoints/rag-01/meta.json", location.href).href);
  return response.text();
}"""
CACHE_NAMES = "async () => (await caches.keys()).filter((name) => name.startsWith('werkplaats-')).sort()"


def make_content_root(root: Path) -> Path:
    """rag-01 and the chain fixture's lesson in one project."""
    (root / "lessons").mkdir(parents=True)
    (root / "checkpoints").mkdir()
    for lesson in (ROOT / "lessons" / "rag-01.md", ROOT / "lessons" / "planned.yaml",
                   CHAIN / "lessons" / "chain-01.md"):
        shutil.copy(lesson, root / "lessons" / lesson.name)
    shutil.copytree(ROOT / "checkpoints" / "rag-01", root / "checkpoints" / "rag-01")
    shutil.copytree(CHAIN / "checkpoints" / "chain-01", root / "checkpoints" / "chain-01")
    shutil.copytree(ROOT / "widgets", root / "widgets")
    return root


def build(root: Path) -> Path:
    out = root / "_site"
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(root), "--out", str(out)],
                               cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    return out


@pytest.fixture
def two_lesson_root(tmp_path) -> Path:
    root = make_content_root(tmp_path / "project")
    build(root)
    return root


def build_id(site: Path) -> str:
    text = (site / "sw.js").read_text(encoding="utf-8")
    marker = '"build":"'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


def test_with_the_network_cut_after_one_visit_a_reload_and_another_lesson_run_and_check(browser, two_lesson_root):
    server = start_server(two_lesson_root / "_site", isolated=True)
    context = browser.new_context()
    page = context.new_page()
    try:
        editor = EditorPage.open(page, server, lesson_path="chain-01/")
        assert "1" in editor.run("print(1)")
        page.wait_for_function(OFFLINE_READY, timeout=COLD_START_MS)
    finally:
        server.close()  # the network is gone: nothing answers on that address any more
    context.set_offline(True)
    try:
        page.reload()
        editor = EditorPage(page)
        page.locator("[data-testid=editor] .cm-content").wait_for()
        assert page.evaluate("crossOriginIsolated") is True  # the cached page keeps its headers
        assert "5" in editor.run("print(2 + 3)")
        panel = CheckpointPanel(page, editor, CHAIN_IDS)
        editor.set_code((CHAIN / "checkpoints" / "chain-01" / "solution.py").read_text(encoding="utf-8"))
        assert panel.check("words") == "pass"

        # A lesson this browser never opened.
        page.goto(f"{server.url}rag-01/")
        editor = EditorPage(page)
        page.locator("[data-testid=editor] .cm-content").wait_for()
        assert "offline" in editor.run("print('offline')")
        rag = CheckpointPanel(page, editor)
        editor.set_code((ROOT / "checkpoints" / "rag-01" / "solution.py").read_text(encoding="utf-8"))
        assert rag.check("document_snapshots") == "pass"
        expect(page.locator("[data-widget]").first).to_have_attribute("data-widget-state", "mounted")

        page.goto(server.url)  # the index too
        expect(page.locator("h1")).to_be_visible()
    finally:
        context.close()


def test_a_new_build_replaces_the_cache_as_a_whole_and_the_page_offers_the_reload(browser, two_lesson_root):
    site = two_lesson_root / "_site"
    old_build = build_id(site)
    server = start_server(site, isolated=True)
    context = browser.new_context()
    page = context.new_page()
    try:
        EditorPage.open(page, server, lesson_path="chain-01/")
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now the service worker serves the page
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        assert page.evaluate(CACHE_NAMES) == [f"werkplaats-{old_build}"]
        old_title = page.locator("h1").inner_text()
        page.evaluate("window.werkplaats.editor.setCode('print(\"mijn code\")')")
        # Something else on the origin rewrites a file the new build keeps unchanged (another
        # lesson's, which this page does not load): the update must not carry the altered copy
        # over (issue 22, item 5).
        assert page.evaluate(POISON_META) is True
        meta = (site / "checkpoints" / "rag-01" / "meta.json").read_text(encoding="utf-8")

        lesson = two_lesson_root / "lessons" / "chain-01.md"
        lesson.write_text(lesson.read_text(encoding="utf-8").replace(
            "title: Tel woorden met een functie die je al hebt", "title: Tel woorden, nieuwe versie"), encoding="utf-8")
        build(two_lesson_root)
        new_build = build_id(site)
        assert new_build != old_build

        page.reload()
        notice = page.locator("[data-testid=update-notice]")
        expect(notice).to_contain_text("Er is een nieuwere versie van de Werkplaats klaar.", timeout=30_000)
        # Until the learner asks, the page stays the old build's, whole.
        assert page.locator("h1").inner_text() == old_title

        with page.expect_navigation():
            page.locator("[data-testid=update-reload]").click()
        expect(page.locator("h1")).to_have_text("Tel woorden, nieuwe versie")
        page.wait_for_function(f"({CACHE_NAMES})().then((names) => names.length === 1 && names[0] === 'werkplaats-{new_build}')")
        page.locator("[data-testid=editor] .cm-content").wait_for()
        assert page.evaluate("window.werkplaats.editor.getCode()") == 'print("mijn code")'
        expect(page.locator("[data-testid=update-notice]")).to_have_count(0)
        assert (site / "checkpoints" / "rag-01" / "meta.json").read_text(encoding="utf-8") == meta
        assert page.evaluate(CACHED_META) == meta
    finally:
        context.close()
        server.close()


def test_the_dev_server_registers_no_service_worker_and_retires_an_old_one(browser, two_lesson_root):
    from builder.serve import BuildStatus

    site = two_lesson_root / "_site"
    static = start_server(site, isolated=True)
    port = static.server.server_address[1]
    context = browser.new_context()
    page = context.new_page()
    try:
        EditorPage.open(page, static, lesson_path="chain-01/")
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
        static.close()
        status = BuildStatus()
        status.publish([])
        dev = start_server(site, port=port, isolated=True, build_status=status)
        try:
            page.goto(f"{dev.url}chain-01/")
            # The old service worker still answers this first request from its cache; its update
            # check gets the dev server's /sw.js, which removes it and reloads the page.
            page.wait_for_function("window.werkplaatsLiveReload === true", timeout=30_000)
            page.wait_for_function("navigator.serviceWorker.getRegistrations().then((all) => all.length === 0)")
            page.wait_for_function(f"({CACHE_NAMES})().then((names) => names.length === 0)")
            page.reload()
            page.locator("[data-testid=editor] .cm-content").wait_for()
            page.wait_for_timeout(500)
            assert page.evaluate("window.werkplaatsLiveReload") is True
            assert page.evaluate("navigator.serviceWorker.getRegistrations().then((all) => all.length)") == 0
            assert page.evaluate("navigator.serviceWorker.controller") is None
        finally:
            dev.close()
    finally:
        context.close()
