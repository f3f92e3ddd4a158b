"""The browser's checkpoint archive: the grading core and the shipped tests, nothing hidden more.

"Hidden stays hidden": offline-only tests (and wrong/, correct/) must not be anywhere in _site/,
not even inside the archive, and the page's grader never hands out a hidden test's values.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from builder.checkpoint_bundle import runner_modules, write_checkpoint_bundle
from builder.errors import BuildError
from builder.load_lessons import load_lessons
from runner.core import web
from runner.core.bundle import load_bundle
from runner.offline.gates.quality_gate import known_solutions

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = ROOT / "checkpoints" / "rag-01"
OFFLINE_ONLY_MODULES = {path.relative_to(ROOT / "runner").with_suffix("").as_posix()
                        for path in (ROOT / "runner" / "offline").rglob("*.py")} | {"__main__"}


@pytest.fixture(scope="module")
def lesson():
    lessons = load_lessons(ROOT / "lessons", ROOT / "checkpoints", root=ROOT)
    return next(lesson for lesson in lessons if lesson.id == "rag-01")


@pytest.fixture(scope="module")
def written(lesson, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    meta = write_checkpoint_bundle(lesson, out)
    folder = out / "checkpoints" / "rag-01"
    return meta, folder, (folder / meta.archive).read_bytes()


def member_names(archive: bytes) -> set[str]:
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        return set(opened.namelist())


def test_archive_holds_the_grading_core_and_the_shipped_tests_only(written):
    _meta, _folder, archive = written
    names = member_names(archive)
    shipped = {f"checkpoints/rag-01/tests/{path.name}" for path in (LESSON_DIR / "tests").glob("*.py")}
    lesson_files = {name for name in names if name.startswith("checkpoints/")}
    assert lesson_files == shipped | {"checkpoints/rag-01/checkpoints.toml", "checkpoints/rag-01/solution.py"}
    modules = {name.removeprefix("runner/").removesuffix(".py") for name in names if name.startswith("runner/")}
    assert {"__init__", "core/web", "core/grade", "core/bundle", "core/host", "core/invoke", "core/plain",
            "core/model", "core/testkit"} <= modules
    assert modules & OFFLINE_ONLY_MODULES == set()
    assert names == lesson_files | {f"runner/{module}.py" for module in modules}


def test_the_whole_grading_core_ships():
    # What the core may import is tests/runner_core/test_imports.py's concern.
    core = {f"core/{path.stem}" for path in (ROOT / "runner" / "core").glob("*.py")}
    assert set(runner_modules()) == core | {"__init__"}


def test_meta_names_the_archive_and_the_runners_hash_of_the_shipped_tests(written, lesson):
    meta, folder, archive = written
    on_disk = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert on_disk["bundle_sha256"] == load_bundle(LESSON_DIR, include_offline=False).bundle_sha256
    assert on_disk["bundle_sha256"] != load_bundle(LESSON_DIR, include_offline=True).bundle_sha256
    assert on_disk["archive"] == meta.archive == f"runner-{hashlib.sha256(archive).hexdigest()[:16]}.zip"
    assert on_disk["archive_sha256"] == hashlib.sha256(archive).hexdigest()
    assert on_disk["lesson_revision"] == hashlib.sha256((ROOT / lesson.path).read_bytes()).hexdigest()
    assert [(c["id"], c["number"]) for c in on_disk["checkpoints"]] == [
        ("document_snapshots", 1), ("word_chunks", 2), ("chunk_coverage", 3)]
    assert sorted(path.name for path in folder.iterdir()) == sorted([meta.archive, "meta.json"])


def test_archive_is_reproducible(lesson, tmp_path, written):
    meta, _folder, archive = written
    again = write_checkpoint_bundle(lesson, tmp_path)
    assert again.archive == meta.archive
    assert (tmp_path / "checkpoints" / "rag-01" / again.archive).read_bytes() == archive


def test_unpacked_archive_grades_on_its_own_with_the_same_hash(written, tmp_path):
    meta, _folder, archive = written
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        opened.extractall(unpacked)
    program = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(unpacked)!r})\n"
        "import runner\n"
        f"assert runner.__file__.startswith({str(unpacked)!r}), runner.__file__\n"
        "from runner.core import web\n"
        f"source = open({str(LESSON_DIR / 'solution.py')!r}, encoding='utf-8').read()\n"
        f"print(json.dumps(web.check(source, {str(unpacked / 'checkpoints' / 'rag-01')!r})))\n"
    )
    # -S: no site-packages, so the checkout's own runner cannot sneak in.
    completed = subprocess.run([sys.executable, "-S", "-c", program], cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result["bundle_sha256"] == meta.bundle_sha256
    assert [(c["id"], c["status"]) for c in result["checkpoints"]] == [
        ("document_snapshots", "pass"), ("word_chunks", "pass"), ("chunk_coverage", "pass")]


def test_lesson_revision_is_the_hash_of_the_file_the_lesson_was_loaded_from(tmp_path):
    """Also when lessons/ is not next to checkpoints/, as `load_lessons` allows."""
    lessons_dir = tmp_path / "elders" / "lessons"
    lessons_dir.mkdir(parents=True)
    lesson_file = lessons_dir / "rag-01.md"
    lesson_file.write_text((ROOT / "lessons" / "rag-01.md").read_text(encoding="utf-8") + "\nNog een zin.\n",
                           encoding="utf-8")
    shutil.copytree(ROOT / "widgets", tmp_path / "elders" / "widgets")  # the lesson's widget
    [lesson] = load_lessons(lessons_dir, ROOT / "checkpoints", root=tmp_path / "elders")
    meta = write_checkpoint_bundle(lesson, tmp_path / "out")
    assert meta.lesson_revision == hashlib.sha256(lesson_file.read_bytes()).hexdigest()


def test_broken_lesson_tests_fail_the_build_with_the_file(lesson, tmp_path):
    broken_dir = tmp_path / "rag-01"
    shutil.copytree(LESSON_DIR, broken_dir)
    with open(broken_dir / "tests" / "word_chunks.py", "a", encoding="utf-8") as handle:
        handle.write("\ndef kapot(:\n")
    broken = dataclasses.replace(lesson, checkpoints_dir=broken_dir)
    with pytest.raises(BuildError) as raised:
        write_checkpoint_bundle(broken, tmp_path / "out")
    line = len((broken_dir / "tests" / "word_chunks.py").read_text(encoding="utf-8").splitlines())
    assert str(raised.value) == (f"checkpoints/rag-01/tests/word_chunks.py:{line}: "
                                 "the tests cannot be loaded: SyntaxError: invalid syntax")
    assert not (tmp_path / "out" / "checkpoints").exists()


def offline_needles() -> list[str]:
    """Texts only the offline-only tests hold: their test names, helpers and file names."""
    shipped_text = "".join(path.read_text(encoding="utf-8") for path in (LESSON_DIR / "tests").glob("*.py"))
    shipped_names = {test.name for spec in load_bundle(LESSON_DIR, include_offline=False).checkpoints
                     for test in spec.tests}
    needles = []
    for spec in load_bundle(LESSON_DIR, include_offline=True).checkpoints:
        needles += [test.name for test in spec.tests if test.name not in shipped_names]
    for path in sorted((LESSON_DIR / "tests_offline").glob("*.py")):
        needles.append(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name not in shipped_text:
                needles.append(node.name)
    return needles


def site_texts(site: Path):
    """(where, text) of every file in the site, and of every member of every archive in it."""
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        yield str(path.relative_to(site)), data.decode("utf-8", "replace")
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as opened:
                for name in opened.namelist():
                    yield f"{path.relative_to(site)}:{name}", opened.read(name).decode("utf-8", "replace")


def test_offline_only_tests_are_nowhere_in_the_built_site(built_site):
    needles = offline_needles()
    assert len(needles) >= 6  # test names and helper functions of both offline modules
    texts = list(site_texts(built_site))
    assert any(where.endswith(".zip:runner/core/web.py") for where, _ in texts)  # archives were searched
    found = [(needle, where) for needle in needles for where, text in texts if needle in text]
    assert found == []


def test_wrong_and_correct_solutions_are_not_shipped(built_site):
    contents = {text for _where, text in site_texts(built_site)}
    for path in sorted((LESSON_DIR / "wrong").glob("*.py")) + sorted((LESSON_DIR / "correct").glob("*.py")):
        assert path.read_text(encoding="utf-8") not in contents, path.name


def test_the_page_grader_shows_values_of_visible_tests_only():
    """Every known-wrong solution, checked on its own checkpoint: no hidden expected/actual."""
    visible_shown = 0
    for known in known_solutions(LESSON_DIR):
        if known.must_pass:
            continue
        result = web.check(known.source, str(LESSON_DIR), [known.expected], call_timeout=5)
        feedback = result["checkpoints"][0]
        assert feedback["status"] != "pass", known.path.name
        assert feedback["message"], known.path.name
        if not feedback["visible"]:
            assert feedback["expected"] is None and feedback["actual"] is None, known.path.name
        elif feedback["expected"] is not None:
            visible_shown += 1
    assert visible_shown >= 1  # the worked examples do show expected against actual
