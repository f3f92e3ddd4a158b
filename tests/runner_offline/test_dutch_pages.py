"""Every page a Dutch reader gets is Dutch: the feedback pages, the report and the gradebook's
headers, with every reason inside them; --report-language en gives English throughout.

`english_words` is the check: the visible text of a page (without the learner's code, which is
shown as it is) may hold none of the English words our own texts could leak."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT, english_words

from runner.offline.outputs.reasons import reason_text


def test_the_check_finds_english_in_a_dutch_page():
    assert english_words("<p>syntax error on line 4: expected ':'</p>") == ["syntax", "error", "line", "expected"]
    assert english_words('<p>Alles goed.</p><div class="code"><table><tr><td>the file</td></tr></table></div>') == []


@pytest.mark.parametrize(("english", "dutch"), [
    ("syntax error on line 4: expected ':'", "syntaxfout op regel 4: hier ontbreekt een ':'"),
    ("syntax error on line 2: '(' was never closed", "syntaxfout op regel 2: de '(' wordt nergens gesloten"),
    ("syntax error on line 7: something new in Python 3.99", "syntaxfout op regel 7: Python kan deze regel niet lezen"),
    ("a .py file does not say which lesson it is for: grade it with --lesson",
     "een .py-bestand zegt niet voor welke les het is: je docent moet de les erbij opgeven"),
    ("module export: lesson 'rag-01' appears twice", "module-export: les 'rag-01' staat er twee keer in"),
    ("file is 300 KiB, over the 256 KiB limit", "het bestand is 300 KiB, meer dan de grens van 256 KiB"),
    ("not UTF-8 text (byte 0xe9 at offset 5)", "geen UTF-8-tekst (byte 0xe9 op positie 5)"),
    ("malformed JSON: Expecting ',' delimiter (line 3, column 5)", "geen geldige JSON (regel 3, kolom 5)"),
    ("missing fields: learner, code", "ontbrekende velden: learner, code"),
    ("submission is for lesson 'rag-02', not 'rag-01'", "de inzending is voor les 'rag-02', niet voor 'rag-01'"),
    ("something nobody wrote a pattern for", "de inzending kon niet worden nagekeken (de reden staat in results.jsonl)"),
])
def test_every_reason_has_its_exact_dutch_text(english, dutch):
    assert reason_text(english) == dutch
    assert reason_text(english, "en") == english


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """A class with every kind of page: full marks, mistakes, a syntax error, code that fails to
    load, another lesson's file, an empty file, a module run with a .py that names no lesson."""
    tree = tmp_path_factory.mktemp("checkpoints")
    shutil.copytree(MINI_LESSON, tree / "mini-01")
    shutil.copytree(MINI_LESSON, tree / "mini-02")
    config = tree / "mini-02" / "checkpoints.toml"
    config.write_text(config.read_text().replace('lesson = "mini-01"', 'lesson = "mini-02"'))
    folder = tmp_path_factory.mktemp("klas")

    def export(learner: str, code: str, lesson: str = "mini-01") -> str:
        return json.dumps({"lesson": lesson, "learner": learner, "code": code})

    (folder / "anna.json").write_text(export("Anna de Vries", CORRECT_MINI))
    (folder / "bram.json").write_text(export("Bram", CORRECT_MINI.replace("2 * x", "x * x")))
    (folder / "cor.json").write_text(export("Cor", "def double(x)\n    return 2 * x\n"))
    (folder / "daan.json").write_text(export("Daan", "raise ValueError('kapot')\n"))
    (folder / "els.json").write_text(export("Els", CORRECT_MINI, lesson="mini-02"))
    (folder / "fien.json").write_text(export("Fien", ""))
    (folder / "gijs.json").write_text(json.dumps({"learner": "Gijs", "lessons": [
        {"lesson": "mini-01", "code": CORRECT_MINI}, {"lesson": "mini-01", "code": CORRECT_MINI}]}))
    lesson_out = tmp_path_factory.mktemp("les")
    common = ["--checkpoints-dir", str(tree), "--jobs", "2", "--call-timeout", "3", "--feedback"]
    completed = run_cli("grade", "--lesson", "mini-01", str(folder), "--out", str(lesson_out), *common)
    assert completed.returncode == 0, completed.stderr
    (folder / "hanna.py").write_text(CORRECT_MINI)
    module_out = tmp_path_factory.mktemp("module")
    completed = run_cli("grade", str(folder), "--out", str(module_out), *common)
    assert completed.returncode == 0, completed.stderr
    english_out = tmp_path_factory.mktemp("english")
    completed = run_cli("grade", str(folder), "--out", str(english_out), *common, "--report-language", "en")
    assert completed.returncode == 0, completed.stderr
    return lesson_out, module_out, english_out


def test_every_feedback_page_and_report_is_dutch(graded_class):
    for out in graded_class[:2]:
        pages = sorted((out / "feedback").glob("*.html"))
        assert len(pages) >= 7
        for page in [*pages, out / "report.html"]:
            text = page.read_text(encoding="utf-8")
            assert '<html lang="nl">' in text
            # Checkpoint ids are function names; the runner is named by its version.
            assert english_words(text, allowed={"double", "words", "total"}) == [], page


def test_an_invalid_submission_shows_its_dutch_reason_and_its_code_with_the_line_marked(graded_class):
    lesson_out = graded_class[0]
    cor = next(p for p in (lesson_out / "feedback").glob("*.html") if "Cor" in p.read_text()).read_text()
    assert "<b>geen cijfer</b>ongeldig" in cor
    assert ("<p>syntaxfout op regel 1: hier ontbreekt een &#x27;:&#x27;. Dit is aangegeven in je code "
            "hieronder.</p>") in cor
    assert '<tr class="shared"><td class="ln">1</td><td>def double(x)</td></tr>' in cor
    assert "Checkpoints</h2>" not in cor  # nothing was tested: no table of checkpoints without a verdict
    rows = {row["leerling"]: row for row in csv.DictReader((lesson_out / "gradebook.csv").open(encoding="utf-8"))}
    assert [rows["Cor"][k] for k in ("status", "punten", "cijfer", "voldoende", "reden")] == [
        "ongeldig", "", "", "", "syntaxfout op regel 1: hier ontbreekt een ':'"]
    assert [rows["Fien"][k] for k in ("status", "cijfer", "reden")] == ["ongeldig", "", "het veld 'code' is leeg"]
    report = (lesson_out / "report.html").read_text()
    grades = report.split("<h2>Cijfers</h2>")[1].split("<h2>")[0]
    assert ('<tr><td>Cor</td><td class="num"></td><td class="num"><span class="status invalid">ongeldig</span></td>'
            in grades)


def test_report_language_en_gives_english_throughout(graded_class):
    english_out = graded_class[2]
    report = (english_out / "report.html").read_text()
    assert '<html lang="en">' in report and "syntax error on line 1: expected &#x27;:&#x27;" in report
    header = (english_out / "gradebook.csv").read_text().splitlines()[0]
    assert header == "learner,mini-01 points,mini-01 grade,mini-02 points,mini-02 grade,points,max_points,grade,passed"
    lesson_header = (english_out / "gradebook-mini-01.csv").read_text().splitlines()[0]
    assert lesson_header.startswith("learner,submission,status,score,max_score,points,max_points,grade,passed,")
