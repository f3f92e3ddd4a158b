"""The build warns about lesson text some learners cannot use, where it can tell (issue 17):
an image without alt text and a heading that skips a level; --strict makes them mistakes."""

from __future__ import annotations

import pytest
from project_copy import LESSON, ProjectCopy


@pytest.fixture
def project(tmp_path) -> ProjectCopy:
    return ProjectCopy(tmp_path)


def warnings_of(project: ProjectCopy) -> str:
    run = project.build()
    assert run.returncode == 0, run.stderr
    return run.stderr


def test_an_image_without_alt_text_is_a_warning(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.",
                    "De verhouding $W/N$ meet je later.\n\n![](figuren/woorden.png)")
    line = project.line_of(LESSON, "![](figuren/woorden.png)")
    assert warnings_of(project) == (f"{LESSON}:{line}: warning: image 'figuren/woorden.png' has no alt text: "
                                    "say what it shows, ![...](figuren/woorden.png)\n")


def test_an_image_with_only_spaces_as_alt_text_is_a_warning_too(project):
    project.replace(LESSON, "Je wilt weten of", "![  ](lamp.svg) Je wilt weten of")
    line = project.line_of(LESSON, "![  ](lamp.svg)")
    assert warnings_of(project) == (f"{LESSON}:{line}: warning: image 'lamp.svg' has no alt text: "
                                    "say what it shows, ![...](lamp.svg)\n")


def test_an_image_with_alt_text_is_no_warning(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.",
                    "De verhouding $W/N$ meet je later.\n\n![Drie woorden, elk in een eigen vak](woorden.png)")
    assert warnings_of(project) == ""


def test_a_heading_that_skips_a_level_is_a_warning(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.",
                    "De verhouding $W/N$ meet je later.\n\n#### Nog een voorbeeld\n\n### Terug op niveau drie")
    line = project.line_of(LESSON, "#### Nog een voorbeeld")
    assert warnings_of(project) == (f"{LESSON}:{line}: warning: heading level skipped: '#### Nog een voorbeeld' "
                                    "comes after a level-2 heading; use '### '\n")


def test_a_first_heading_below_level_two_is_a_warning(project):
    project.replace(LESSON, "## 1. Splitsen", "### 1. Splitsen")
    line = project.line_of(LESSON, "### 1. Splitsen")
    assert warnings_of(project) == (f"{LESSON}:{line}: warning: heading level skipped: '### 1. Splitsen' "
                                    "is the lesson's first heading; sections start at '## '\n")


def test_a_skipped_level_inside_a_callout_is_found_with_its_line(project):
    project.replace(LESSON, "Je wilt weten of een bericht", "#### Opdracht\n\nJe wilt weten of een bericht")
    line = project.line_of(LESSON, "#### Opdracht")
    assert warnings_of(project) == (f"{LESSON}:{line}: warning: heading level skipped: '#### Opdracht' "
                                    "is the lesson's first heading; sections start at '## '\n")


def test_going_back_up_any_number_of_levels_is_no_warning(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.",
                    "### Detail\n\n#### Nog fijner\n\n## 2. Tellen\n\nDe verhouding $W/N$ meet je later.")
    assert warnings_of(project) == ""


def test_strict_makes_them_mistakes(project):
    project.replace(LESSON, "## 1. Splitsen", "### 1. Splitsen\n\n![](a.png)")
    run = project.build("--strict")
    assert run.returncode == 1
    heading_line = project.line_of(LESSON, "### 1. Splitsen")
    assert run.stderr == "\n".join([
        f"{LESSON}:{heading_line}: heading level skipped: '### 1. Splitsen' is the lesson's first heading; "
        "sections start at '## '",
        f"{LESSON}:{heading_line + 2}: image 'a.png' has no alt text: say what it shows, ![...](a.png)",
        "2 mistakes; nothing was written",
    ]) + "\n"
