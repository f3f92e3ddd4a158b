"""A copy of tests/fixtures/project/ that is a whole module: tekst-01 plus copies of it as further
lessons, for what a learner sees across lessons (index progress, previous/next links)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.builder.project_copy import LESSON, ProjectCopy

FIXTURE_ID = "tekst-01"
FIXTURE_MODULE = "module: {id: tekst, number: 2, title: Tekst}"


def add_lesson(project: ProjectCopy, lesson_id: str, number: int, title: str,
               module: str = FIXTURE_MODULE) -> None:
    """A copy of the fixture lesson (and its checkpoints) as `lesson_id`, lesson `number`."""
    source = (project.root / LESSON).read_text(encoding="utf-8")
    for old, new in ((f"id: {FIXTURE_ID}", f"id: {lesson_id}"), ("lesson: 1", f"lesson: {number}"),
                     ("title: Tel de woorden in een zin", f"title: {title}"), (FIXTURE_MODULE, module)):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    (project.root / "lessons" / f"{lesson_id}.md").write_text(source, encoding="utf-8")
    shutil.copytree(project.root / "checkpoints" / FIXTURE_ID, project.root / "checkpoints" / lesson_id)


# The fixture lesson has no tests; a learner's check needs one to pass (the same for every copy).
COUNT_WORDS_TEST = '''from runner.core.testkit import expect_equal, test


@test("count_words", "telt de woorden tussen witruimte", visible=True)
def counts_words(learner):
    expect_equal(learner.count_words("De lamp  brandt"), 3, "Tel alleen de woorden, niet de spaties.")
'''


def module_project(tmp_path: Path) -> ProjectCopy:
    """Module "Tekst" with three lessons, written in an order unlike their numbers (tekst-01,
    tekst-03 as lesson 2, tekst-02 as lesson 3), and a lesson of another module in between."""
    project = ProjectCopy(tmp_path)
    tests_dir = project.root / "checkpoints" / FIXTURE_ID / "tests"
    tests_dir.mkdir()
    (tests_dir / "count_words.py").write_text(COUNT_WORDS_TEST, encoding="utf-8")
    add_lesson(project, "tekst-03", 2, "Tel de zinnen in een tekst")
    add_lesson(project, "tekst-02", 3, "Tel de alinea's")
    add_lesson(project, "beeld-01", 1, "Tel de pixels", module="module: {id: beeld, number: 3, title: Beeld}")
    return project
