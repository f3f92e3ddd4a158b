"""The dev server: isolation headers, MIME types Pyodide needs, and rebuilds that keep the last good site."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from project_copy import LESSON, ROOT, ProjectCopy

from builder.cli import parse_arguments, serve_rebuild
from builder.serve import BuildStatus, start_server


@pytest.fixture
def site_dir(tmp_path) -> Path:
    (tmp_path / "index.html").write_text("<p>hallo</p>")
    for name in ("worker.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json", "lesson.css"):
        (tmp_path / name).write_bytes(b"x")
    return tmp_path


def fetch(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers, response.read()


def test_isolated_server_sends_coop_and_coep(site_dir):
    server = start_server(site_dir, isolated=True)
    try:
        assert server.url.startswith("http://127.0.0.1:")
        headers, body = fetch(server.url)
        assert body == b"<p>hallo</p>"
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    finally:
        server.close()


def test_plain_server_omits_the_isolation_headers(site_dir):
    server = start_server(site_dir, isolated=False)
    try:
        headers, _ = fetch(server.url)
        assert "Cross-Origin-Opener-Policy" not in headers
        assert "Cross-Origin-Embedder-Policy" not in headers
    finally:
        server.close()


@pytest.mark.parametrize("name, mime", [
    ("worker.js", "application/javascript"),
    ("pyodide.asm.mjs", "application/javascript"),
    ("pyodide.asm.wasm", "application/wasm"),
    ("pyodide-lock.json", "application/json"),
    ("lesson.css", "text/css"),
    ("index.html", "text/html; charset=utf-8"),
])
def test_mime_types(site_dir, name, mime):
    server = start_server(site_dir)
    try:
        headers, _ = fetch(server.url + name)
        assert headers["Content-Type"] == mime
    finally:
        server.close()


def test_close_frees_the_port(site_dir):
    server = start_server(site_dir)
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    server.close()
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError("the condition did not become true in time")


def page_text(url: str) -> str | None:
    try:
        return fetch(url)[1].decode("utf-8")
    except (urllib.error.URLError, ConnectionError):
        return None


@pytest.mark.slow
def test_serve_rebuilds_on_change_and_keeps_the_last_good_site(tmp_path):
    project = ProjectCopy(tmp_path)
    port = free_port()
    stderr_path = tmp_path / "serve.err"
    with open(stderr_path, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "build.py"), "serve", "--root", str(project.root),
             "--out", str(project.site), "--port", str(port)],
            cwd=project.root, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
        )
    lesson_url = f"http://127.0.0.1:{port}/tekst-01/"
    try:
        wait_for(lambda: "Tel de woorden in een zin" in (page_text(lesson_url) or ""))

        project.replace(LESSON, "title: Tel de woorden in een zin", "title: Tel de woorden opnieuw")
        wait_for(lambda: "Tel de woorden opnieuw" in (page_text(lesson_url) or ""))

        project.replace(LESSON, ":::{checkpoint} count_words", ":::{chekpoint} count_words")
        line = project.line_of(LESSON, ":::{chekpoint}")
        wait_for(lambda: f"{LESSON}:{line}: unknown directive 'chekpoint' (did you mean 'checkpoint'?)" in stderr_path.read_text())
        assert "Tel de woorden opnieuw" in page_text(lesson_url)
        # What the page's banner shows (published just after the lines are printed).
        build_state = f"http://127.0.0.1:{port}/__werkplaats__/build"
        wait_for(lambda: json.loads(fetch(build_state)[1])["errors"]
                 == [f"{LESSON}:{line}: unknown directive 'chekpoint' (did you mean 'checkpoint'?)"])
        assert "Traceback" not in stderr_path.read_text()
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)


@pytest.mark.slow
def test_serve_only_serves_and_rebuilds_that_lesson_alone(tmp_path):
    project = ProjectCopy(tmp_path)
    # A second lesson with a mistake: serving tekst-01 alone neither loads nor reports it.
    text = (project.root / LESSON).read_text(encoding="utf-8")
    (project.root / "lessons" / "tekst-02.md").write_text(
        text.replace("id: tekst-01", "id: tekst-02").replace("lesson: 1", "lesson: 2")
        .replace("checkpoints: [count_words]", "checkpoints: []")
        .replace(":::{checkpoint} count_words\n:::\n", ":::{plaatje}\n:::\n"), encoding="utf-8")
    port = free_port()
    stderr_path = tmp_path / "serve.err"
    with open(stderr_path, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "build.py"), "serve", "--only", "tekst-01", "--root", str(project.root),
             "--out", str(project.site), "--port", str(port)],
            cwd=project.root, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for(lambda: "Tel de woorden in een zin" in (page_text(base + "tekst-01/") or ""))
        index = page_text(base)
        assert 'href="tekst-01/"' in index and "tekst-02" not in index
        assert page_text(base + "tekst-02/") is None  # not built: 404
        project.replace(LESSON, "title: Tel de woorden in een zin", "title: Tel de woorden opnieuw")
        wait_for(lambda: "Tel de woorden opnieuw" in (page_text(base + "tekst-01/") or ""))
        assert stderr_path.read_text() == ""
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)


def test_text_files_are_gzipped_for_browsers_that_accept_it(site_dir):
    import gzip

    script = "console.log('werkplaats');\n" * 200
    (site_dir / "lesson.js").write_text(script)
    server = start_server(site_dir, isolated=True)
    try:
        request = urllib.request.Request(server.url + "lesson.js", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
            assert response.headers["Content-Encoding"] == "gzip"
            assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
            assert response.headers["Content-Type"] == "application/javascript"
        assert len(body) < len(script) / 10
        assert gzip.decompress(body).decode() == script
        # A client that does not ask for gzip gets the file as it is.
        headers, plain = fetch(server.url + "lesson.js")
        assert headers["Content-Encoding"] is None and plain.decode() == script
    finally:
        server.close()


def test_serve_prints_the_same_warnings_only_once(tmp_path, capsys):
    project = ProjectCopy(tmp_path)
    project.replace(LESSON, "- {title: Werken met strings}", "- {id: tekst-00, title: Werken met strings}")
    warning = "warning: unknown lesson id 'tekst-00' in prerequisites"
    rebuild = serve_rebuild(parse_arguments(["serve", "--root", str(project.root)]))
    assert rebuild() == [] and rebuild() == []  # no mistakes
    assert capsys.readouterr().err.count(warning) == 1
    project.replace(LESSON, "reviewed: 2026-11-02", "reviewed: 2026-11-03")
    assert rebuild() == []
    assert warning not in capsys.readouterr().err  # the text changed, the warnings did not
    project.replace(LESSON, "De verhouding $W/N$", "De verhouding $W/N")
    assert rebuild() == []
    printed = capsys.readouterr().err
    assert warning in printed and "warning: a '$' without a closing '$'" in printed


def test_under_serve_pages_get_the_live_reload_script_and_plain_builds_do_not(site_dir):
    (site_dir / "page.html").write_text("<html><body><p>les</p></body></html>")
    status = BuildStatus()
    status.publish([])
    plain = start_server(site_dir)
    live = start_server(site_dir, build_status=status)
    try:
        assert fetch(plain.url + "page.html")[1] == b"<html><body><p>les</p></body></html>"
        assert fetch(live.url + "page.html")[1] == (
            b'<html><body><p>les</p><script src="/__werkplaats__/live_reload.js" data-generation="1">'
            b"</script></body></html>")
        assert b"location.reload()" in fetch(live.url + "__werkplaats__/live_reload.js")[1]
        with pytest.raises(urllib.error.HTTPError):
            fetch(plain.url + "__werkplaats__/live_reload.js")
    finally:
        plain.close()
        live.close()


def test_the_build_state_says_which_build_is_current_and_its_mistakes(site_dir):
    status = BuildStatus()
    status.publish([])
    server = start_server(site_dir, build_status=status)
    try:
        assert json.loads(fetch(server.url + "__werkplaats__/build")[1]) == {"generation": 1, "errors": []}
        status.publish(["lessons/x.md:3: unknown directive 'chekpoint'"])
        assert json.loads(fetch(server.url + "__werkplaats__/build")[1]) == {
            "generation": 2, "errors": ["lessons/x.md:3: unknown directive 'chekpoint'"]}
    finally:
        server.close()


@pytest.mark.browser
def test_the_page_shows_a_failed_rebuild_and_reloads_after_a_good_one(site_dir, page):
    (site_dir / "page.html").write_text("<html><body><p>les</p></body></html>")
    status = BuildStatus()
    status.publish([])
    server = start_server(site_dir, build_status=status)
    try:
        page.goto(server.url + "page.html")
        page.evaluate("window.notReloaded = true")
        page.wait_for_timeout(2500)  # two polls and more: nothing was rebuilt, so nothing reloads
        assert page.evaluate("window.notReloaded") is True
        status.publish(["lessons/x.md:3: unknown directive '<b>chekpoint</b>'"])
        banner = page.locator("#werkplaats-build-errors")
        banner.wait_for()
        assert "lessons/x.md:3: unknown directive '<b>chekpoint</b>'" in banner.text_content()
        assert page.evaluate("window.notReloaded") is True
        status.publish([])
        page.wait_for_function("window.notReloaded === undefined")
    finally:
        server.close()
