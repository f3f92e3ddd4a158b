"""What a learner sees of the module (issue 9, part 5), as the builder writes it: previous/next
links between the lessons of a module, and the facts the index page compares stored checkpoint
results with (tests/browser/test_module_view.py drives both in Chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from builder.lesson_progress import code_fingerprint
from runner.core.fingerprint import checkpoint_fingerprints
from tests.builder.module_project import module_project

ROOT = Path(__file__).resolve().parents[2]


class LinksAndProgress(HTMLParser):
    """Links with a data-testid (href and text), and the index's progress elements."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, tuple[str, str]] = {}
        self.progress: dict[str, dict[str, str]] = {}
        self.scripts: list[str] = []
        self.pager = False
        self._open: list[str] = []  # testids of the links being read, innermost last
        self._text: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "nav" and "lesson-pager" in attributes.get("class", ""):
            self.pager = True
        if tag == "script":
            self.scripts.append(attributes.get("src", ""))
        if "data-lesson-progress" in attributes:
            self.progress[attributes["data-lesson"]] = attributes
        if tag == "a" and "data-testid" in attributes:
            self._open.append(attributes["data-testid"])
            self.links[attributes["data-testid"]] = (attributes["href"], "")

    def handle_data(self, data):
        for testid in self._open:
            href, text = self.links[testid]
            self.links[testid] = (href, text + data)

    def handle_endtag(self, tag):
        if tag == "a" and self._open:
            testid = self._open.pop()
            href, text = self.links[testid]
            self.links[testid] = (href, " ".join(text.split()))


def parse(path: Path) -> LinksAndProgress:
    parser = LinksAndProgress()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def module_site(tmp_path_factory) -> Path:
    project = module_project(tmp_path_factory.mktemp("module"))
    run = project.build()
    assert run.returncode == 0, run.stderr
    return project.site


def pager_links(site: Path, lesson_id: str) -> dict[str, tuple[str, str]]:
    links = parse(site / lesson_id / "index.html").links
    return {testid: link for testid, link in links.items() if testid in ("previous-lesson", "next-lesson")}


def test_each_lesson_links_its_neighbours_in_the_module_by_lesson_number(module_site):
    assert pager_links(module_site, "tekst-01") == {
        "next-lesson": ("../tekst-03/", "Volgende les → Tel de zinnen in een tekst")}
    assert pager_links(module_site, "tekst-03") == {
        "previous-lesson": ("../tekst-01/", "← Vorige les Tel de woorden in een zin"),
        "next-lesson": ("../tekst-02/", "Volgende les → Tel de alinea's")}
    assert pager_links(module_site, "tekst-02") == {
        "previous-lesson": ("../tekst-03/", "← Vorige les Tel de zinnen in een tekst")}


def test_a_module_of_one_lesson_has_no_previous_next_navigation(module_site, built_site):
    beeld = parse(module_site / "beeld-01" / "index.html")
    assert not beeld.pager and "next-lesson" not in beeld.links
    # rag-01's next-step card (front matter `next`) names rag-02, the module's next lesson: that
    # card is the one link to rag-02, and the pager holds only the lesson before it: rag-00b, the
    # module's prior knowledge (lesson 0).
    rag = built_site / "rag-01" / "index.html"
    links = parse(rag).links
    assert links["previous-lesson"][0] == "../rag-00b/" and links["next-lesson"][0] == "../rag-02/"
    page = rag.read_text(encoding="utf-8")
    assert "De volgende stap" in page and page.count('href="../rag-02/"') == 1


def meta_ids(meta):
    return [checkpoint["id"] for checkpoint in meta["checkpoints"]]


def test_index_cards_carry_the_current_tests_hash_and_the_starter_fingerprint(module_site):
    index = parse(module_site / "index.html")
    assert sorted(index.progress) == ["beeld-01", "tekst-01", "tekst-02", "tekst-03"]
    for lesson_id, facts in index.progress.items():
        meta = json.loads((module_site / "checkpoints" / lesson_id / "meta.json").read_text(encoding="utf-8"))
        starter = (module_site.parent / "checkpoints" / lesson_id / "starter.py").read_text(encoding="utf-8")
        assert facts["data-bundle-sha256"] == meta["bundle_sha256"]
        assert facts["data-checkpoints"] == " ".join(checkpoint["id"] for checkpoint in meta["checkpoints"])
        assert facts["data-starter-fingerprint"] == code_fingerprint(starter)
        # per checkpoint, the part of the starter code it depends on (runner.core.fingerprint)
        assert json.loads(facts["data-starter-fingerprints"]) == checkpoint_fingerprints(starter, meta_ids(meta))
        assert facts["data-testid"] == f"progress-{lesson_id}"
        assert "hidden" in facts  # until index-page.js has read the learner's storage


def test_the_index_loads_its_own_small_bundle_not_the_editor(module_site):
    assert parse(module_site / "index.html").scripts == ["assets/index-page.js"]
    bundle = (module_site / "assets" / "index-page.js").read_text(encoding="utf-8")
    assert "cm-content" not in bundle and "pyodide" not in bundle.lower()
    assert "werkplaats:" in bundle  # the storage keys, through checkpoint-results.js


FINGERPRINT_SAMPLES = ["", "a", "def f():\n    return 1\n", "café", "naïeve 😀 emoji", "\u2028\x00x", "a" * 1000]


def test_code_fingerprint_agrees_with_the_browsers(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (it comes with the front-end tool chain)")
    script = tmp_path / "fingerprints.mjs"
    module = (ROOT / "site" / "src" / "checkpoint-results.js").as_uri()
    script.write_text(
        f"import {{ codeFingerprint }} from {json.dumps(module)};\n"
        f"const samples = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(samples.map(codeFingerprint)));\n", encoding="utf-8")
    completed = subprocess.run(
        [node, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(script), json.dumps(FINGERPRINT_SAMPLES)],
        capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(completed.stdout) == [code_fingerprint(sample) for sample in FINGERPRINT_SAMPLES]


def test_code_fingerprint_counts_line_breaks_as_the_editor_holds_them():
    # The page's HTML and CodeMirror turn \r\n and \r into \n before the learner's code exists.
    assert code_fingerprint("a\r\nb\rc") == code_fingerprint("a\nb\nc")


def test_a_lesson_without_checkpoints_has_no_progress_on_the_index():
    from dataclasses import replace

    from builder.build_site import TEMPLATES_DIR
    from builder.load_lessons import load_lessons
    from builder.render_page import Site, create_templates, render_index

    fixture = ROOT / "tests" / "fixtures" / "project"
    (lesson,) = load_lessons(fixture / "lessons", fixture / "checkpoints", root=fixture)
    site = Site([replace(lesson, checkpoints=[])], create_templates(TEMPLATES_DIR))
    index = render_index(site).html
    assert "Tel de woorden in een zin" in index
    assert "data-lesson-progress" not in index
