"""A lesson's [settings] (checkpoints.toml) from a real build: into the page's data attributes and
intro, and into meta.json, the same values the offline grader reads; and its mistakes, exactly."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from project_copy import ProjectCopy

from runner.core.bundle import load_bundle

TOML = "checkpoints/tekst-01/checkpoints.toml"
SETTINGS = """[settings]
run_seconds = 20
check_seconds = 3
offline_call_seconds = 4
offline_submission_seconds = 60
offline_modules = ["sqlite3"]
browser_packages = ["packaging"]

"""


class Attributes(HTMLParser):
    """The attributes of every element, by a selector-like key."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict[str, str | None]] = {}
        self.intro: list[str] = []
        self._in_intro = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for key in ("data-editor-panel", "data-checkpoint-panel", "data-checkpoint"):
            if key in attributes:
                self.found[attributes[key] or key] = attributes
        if tag == "main":
            self.found["main"] = attributes
        self._in_intro = attributes.get("data-testid") == "limits"

    def handle_endtag(self, tag):
        self._in_intro = False

    def handle_data(self, data):
        if self._in_intro:
            self.intro.append(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = ProjectCopy(tmp_path_factory.mktemp("settings"))
    project.replace(TOML, "[[checkpoint]]\n", SETTINGS + "[[checkpoint]]\n")
    project.replace(TOML, 'hint = "Gebruik `text.split()`."', 'hint = "Gebruik `text.split()`."\ncheck_seconds = 7')
    run = project.build()
    assert run.returncode == 0, run.stderr
    return project


def page_attributes(project: ProjectCopy) -> Attributes:
    parser = Attributes()
    parser.feed((project.site / "tekst-01" / "index.html").read_text(encoding="utf-8"))
    return parser


def test_the_page_carries_the_lessons_limits_and_packages(built):
    page = page_attributes(built)
    assert page.found["data-editor-panel"]["data-time-limit"] == "20"
    assert page.found["data-checkpoint-panel"]["data-time-limit"] == "3"
    assert page.found["count_words"]["data-time-limit"] == "7"  # the checkpoint's own limit
    assert page.found["main"]["data-browser-packages"] == "packaging"
    assert " ".join("".join(page.intro).split()) == (
        "Met Controleer test je de functie in main.py met de tests van deze les. Ook die tests draaien in je eigen "
        "browser. De tests van één checkpoint mogen samen 3 seconden rekenen (checkpoint 01: 7 seconden); "
        "Uitvoeren stopt je programma na 20 seconden. Je docent controleert je inzending met dezelfde tests plus "
        "een paar extra, met dezelfde limiet per checkpoint en hoogstens 4 seconden per aanroep van een functie, "
        "tenzij je docent andere limieten kiest.")


def test_meta_json_holds_the_settings_the_offline_grader_reads(built):
    meta = json.loads((built.site / "checkpoints" / "tekst-01" / "meta.json").read_text(encoding="utf-8"))
    assert meta["settings"] == {
        "run_seconds": 20, "check_seconds": 3, "offline_call_seconds": 4, "offline_submission_seconds": 60,
        "offline_modules": ["sqlite3"], "browser_packages": ["packaging"]}
    assert meta["checkpoints"] == [
        {"id": "count_words", "number": 1, "title": "Tel de woorden", "uses": [], "check_seconds": 7}]
    bundle = load_bundle(built.root / "checkpoints" / "tekst-01")
    assert bundle.settings.to_json() == meta["settings"]
    assert bundle.check_limits() == {"count_words": 7}


def test_the_default_page_says_the_default_limits(tmp_path):
    project = ProjectCopy(tmp_path)
    assert project.build().returncode == 0
    page = page_attributes(project)
    assert (page.found["data-editor-panel"]["data-time-limit"], page.found["data-checkpoint-panel"]["data-time-limit"],
            page.found["count_words"]["data-time-limit"]) == ("10", "5", "5")
    assert "data-browser-packages" not in page.found["main"]
    assert re.search(r"mogen samen 5 seconden rekenen; Uitvoeren stopt je programma na 10 seconden\.", "".join(page.intro))


@pytest.fixture
def project(tmp_path) -> ProjectCopy:
    copy = ProjectCopy(tmp_path)
    copy.place_old_site()
    return copy


def assert_fails(project: ProjectCopy, expected_line: str) -> None:
    run = project.build()
    assert run.stderr == expected_line + "\n"
    assert run.returncode == 1
    assert project.old_site_untouched()


def test_a_mistyped_setting_stops_the_build(project):
    project.replace(TOML, "[[checkpoint]]\n", "[settings]\ncheck_second = 3\n\n[[checkpoint]]\n")
    assert_fails(project, f"{TOML}:2: unknown setting 'check_second' (did you mean 'check_seconds'?)")


def test_a_setting_out_of_bounds_stops_the_build(project):
    project.replace(TOML, "[[checkpoint]]\n", "[settings]\nrun_seconds = 0\n\n[[checkpoint]]\n")
    assert_fails(project, f"{TOML}:2: setting 'run_seconds' must be a whole number of seconds from 1 to 600, got 0")


def test_a_browser_package_pyodide_does_not_have_stops_the_build(project):
    project.replace(TOML, "[[checkpoint]]\n", '[settings]\nbrowser_packages = ["nunpy"]\n\n[[checkpoint]]\n')
    assert_fails(project, f"{TOML}:2: setting 'browser_packages' has 'nunpy', which Pyodide does not have "
                          "(did you mean 'numpy'?)")


def test_uses_of_an_unknown_checkpoint_stops_the_build(project):
    project.replace(TOML, 'hint = "Gebruik `text.split()`."', 'hint = "Gebruik `text.split()`."\nuses = ["count_word"]')
    line = project.line_of(TOML, "uses =")
    assert_fails(project, f"{TOML}:{line}: checkpoint 1 uses unknown checkpoint 'count_word'")

