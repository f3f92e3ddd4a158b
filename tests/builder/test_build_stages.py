"""The build in four stages (load, verify, render, write): loading runs no lesson code, and one
build still reports the mistakes of every stage before anything is written."""

from __future__ import annotations

import subprocess
import sys

import pytest
from project_copy import LESSON, ROOT, ProjectCopy

from builder import verify_lessons as verify_stage
from builder.errors import BuildError
from builder.load_lessons import load_content, load_lessons
from builder.verify_lessons import verify_lessons


@pytest.fixture
def project(tmp_path) -> ProjectCopy:
    return ProjectCopy(tmp_path)


def add_lesson_with_a_wrong_duration(project: ProjectCopy) -> str:
    """lessons/tekst-02.md, without checkpoints, whose front matter has one mistake."""
    text = (project.root / LESSON).read_text(encoding="utf-8")
    (project.root / "lessons" / "tekst-02.md").write_text(
        text.replace("id: tekst-01", "id: tekst-02").replace("lesson: 1", "lesson: 2")
        .replace("checkpoints: [count_words]", "checkpoints: []").replace(":::{checkpoint} count_words\n:::\n", "")
        .replace("duration: 20", "duration: twintig"), encoding="utf-8")
    return "lessons/tekst-02.md"


def test_loading_runs_no_example_and_no_gate(project, monkeypatch):
    def must_not_run(lesson, *rest):
        raise AssertionError(f"the load stage ran code of {lesson.id}")

    monkeypatch.setattr(verify_stage, "verify_examples", must_not_run)
    monkeypatch.setattr(verify_stage, "verify_checkpoints", must_not_run)
    project.replace(LESSON, '"De lamp  brandt"))  # 3', '"De lamp  brandt"))  # 4')
    [lesson] = load_lessons(project.root / "lessons", project.root / "checkpoints", root=project.root)
    assert lesson.id == "tekst-01"


def test_the_verify_stage_runs_the_examples(project):
    project.replace(LESSON, '"De lamp  brandt"))  # 3', '"De lamp  brandt"))  # 4')
    lessons = load_lessons(project.root / "lessons", project.root / "checkpoints", root=project.root)
    assert [str(error) for error in verify_lessons(lessons)] == [
        f"{LESSON}:{project.line_of(LESSON, '# 4')}: example printed '3', comment expects '4'"]


def test_the_load_stage_keeps_the_lessons_that_loaded_next_to_the_mistakes_of_the_others(project):
    add_lesson_with_a_wrong_duration(project)
    loaded = load_content(project.root / "lessons", project.root / "checkpoints", root=project.root)
    assert [lesson.id for lesson in loaded.lessons] == ["tekst-01"]
    assert [str(error) for error in loaded.errors] == [
        "lessons/tekst-02.md:7: field 'duration' must be a whole number of at least 1, got 'twintig'"]
    with pytest.raises(BuildError):
        load_lessons(project.root / "lessons", project.root / "checkpoints", root=project.root)


def test_one_build_reports_one_lessons_load_mistake_and_anothers_example_mistake(project):
    """Every mistake of the load and the verify stage at once, though one lesson did not load."""
    project.place_old_site()
    second = add_lesson_with_a_wrong_duration(project)
    project.replace(LESSON, '"De lamp  brandt"))  # 3', '"De lamp  brandt"))  # 4')
    run = project.build()
    assert run.stderr.splitlines() == [
        f"{second}:7: field 'duration' must be a whole number of at least 1, got 'twintig'",
        f"{LESSON}:{project.line_of(LESSON, '# 4')}: example printed '3', comment expects '4'",
        "2 mistakes; nothing was written",
    ]
    assert run.returncode == 1
    assert project.old_site_untouched()


@pytest.mark.slow
def test_the_shipped_lessons_build_under_strict(tmp_path):
    """Links to lessons not written yet are declared in lessons/planned.yaml, so no warning is left."""
    completed = subprocess.run([sys.executable, str(ROOT / "build.py"), "--strict", "--out", str(tmp_path / "site")],
                               cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert (completed.returncode, completed.stderr) == (0, "")
