"""The index's module export, in Chromium: all of a learner's work in a module as one file, with
the verdicts the pages showed on exactly that code, which the offline grader grades as a module
without --lesson (docs/grading.md, "Module export")."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from builder.serve import start_server
from tests.browser.test_module_view import bundle_sha256, code_entry, open_index_with, results_entry, stored_result
from tests.builder.module_project import module_project

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = "def count_words(text):\n    return len(text.split())\n"
WRONG = "def count_words(text):\n    return len(text)\n"


@pytest.fixture(scope="module")
def module_site(tmp_path_factory):
    project = module_project(tmp_path_factory.mktemp("module-export"))
    run = project.build()
    assert run.returncode == 0, run.stderr
    return project


@pytest.fixture(scope="module")
def module_server(module_site):
    server = start_server(module_site.site, isolated=True)
    yield server
    server.close()


def test_the_module_export_holds_every_lesson_with_code_and_grades_as_a_module(page, module_site, module_server,
                                                                               tmp_path):
    open_index_with(page, module_server, {
        "werkplaats:tekst-01:checkpoints": results_entry(bundle_sha256(module_site, "tekst-01"),
                                                         {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-01:code": code_entry(SOLUTION),
        # a pass on other code than the editor holds now is not a verdict on this code
        "werkplaats:tekst-03:checkpoints": results_entry(bundle_sha256(module_site, "tekst-03"),
                                                         {"count_words": stored_result(SOLUTION)}),
        "werkplaats:tekst-03:code": code_entry(WRONG),
        "werkplaats:beeld-01:code": code_entry(SOLUTION),  # another module: not in this file
    })
    form = page.get_by_test_id("module-export-tekst")
    form.get_by_role("button", name="Download al je werk van deze module").click()
    assert form.locator("[data-export-message]").text_content() == (
        "Vul eerst je naam in: die komt in het bestand voor je docent.")
    form.get_by_label("Je naam").fill("Anna <de> Vries")
    with page.expect_download() as download_info:
        form.get_by_role("button", name="Download al je werk van deze module").click()
    download = download_info.value
    assert download.suggested_filename == "tekst-anna-de-vries.json"
    saved = tmp_path / "klas" / download.suggested_filename
    saved.parent.mkdir()
    download.save_as(saved)
    assert form.locator("[data-export-message]").text_content() == (
        "Opgeslagen als tekst-anna-de-vries.json, met je werk van 2 lessen.")
    exported = json.loads(saved.read_text(encoding="utf-8"))
    assert (exported["module"], exported["learner"]) == ("tekst", "Anna <de> Vries")
    assert [(entry["lesson"], entry["code"], entry["browser_verdicts"]) for entry in exported["lessons"]] == [
        ("tekst-01", SOLUTION, {"count_words": "pass"}), ("tekst-03", WRONG, {})]

    out = tmp_path / "uit"
    graded = subprocess.run(
        [sys.executable, "-m", "runner", "grade", str(saved.parent), "--out", str(out), "--jobs", "1",
         "--checkpoints-dir", str(module_site.root / "checkpoints")],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert graded.returncode == 0, graded.stderr
    rows = list(csv.DictReader((out / "gradebook.csv").open(newline="")))
    # The total counts the module's three published lessons, tekst-02 (not handed in) as 0 points:
    # 1 of 3 points, below 55 %: 1 + 4.5 * (1/3) / 0.55 = 3.73
    assert [(row["leerling"], row["tekst-01 cijfer"], row["tekst-02 cijfer"], row["tekst-03 cijfer"], row["punten"],
             row["max punten"], row["cijfer"]) for row in rows] == [
        ("Anna <de> Vries", "10.0", "", "1.0", "1", "3", "3.7")]
