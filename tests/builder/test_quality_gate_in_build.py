"""The build refuses tests it cannot trust: the quality gate on a lesson's known solutions (issue 3).

Every build gates; within one serve session only lessons whose gate inputs changed are gated again,
and with `--gate-cache` a later build skips a gate that passed on the same inputs. The mechanics of
re-gating (counted gate runs) use the small fixture lesson chain-01, whose gate takes seconds.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from builder import verify_checkpoints
from builder.cli import GATE_CACHE_VARIABLE, main, parse_arguments, serve_rebuild

ROOT = Path(__file__).resolve().parents[2]
OLD_SITE = "<p>the previous, good build</p>\n"


@pytest.fixture
def project(tmp_path) -> Path:
    """The real lesson rag-01 and its checkpoints, copied so one known solution can be broken.
    The other lessons are left out (these tests count rag-01's gate runs) and declared planned,
    so rag-01's links to them stay no warning."""
    root = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "widgets", root / "widgets", ignore=ignore)
    shutil.copytree(ROOT / "checkpoints" / "rag-01", root / "checkpoints" / "rag-01", ignore=ignore)
    (root / "lessons").mkdir()
    shutil.copy(ROOT / "lessons" / "rag-01.md", root / "lessons" / "rag-01.md")
    planned = (ROOT / "lessons" / "planned.yaml").read_text(encoding="utf-8")
    for other in sorted((ROOT / "lessons").glob("*.md")):
        if other.stem != "rag-01":
            title = re.search(r"^title: *(.+)$", other.read_text(encoding="utf-8"), re.MULTILINE).group(1)
            planned += f"{other.stem}: {title}\n"
    (root / "lessons" / "planned.yaml").write_text(planned, encoding="utf-8")
    (root / "_site").mkdir()
    (root / "_site" / "index.html").write_text(OLD_SITE)
    return root


@pytest.fixture
def chain_project(tmp_path) -> Path:
    """The small fixture lesson chain-01 (its gate takes seconds, not a minute)."""
    project = tmp_path / "chain"
    shutil.copytree(ROOT / "tests" / "fixtures" / "chain", project, ignore=shutil.ignore_patterns("__pycache__"))
    return project


def build(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--root", str(root)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.fixture
def gate_runs(monkeypatch) -> list[str]:
    """The lesson ids the quality gate really ran for (it still runs, so verdicts stay real), in
    builds that keep no gates between processes (the run's shared folder, tests/shared_fixtures.py)."""
    monkeypatch.delenv(GATE_CACHE_VARIABLE, raising=False)
    runs: list[str] = []
    real_run_gate = verify_checkpoints.run_gate

    def counted(lesson):
        runs.append(lesson.id)
        return real_run_gate(lesson)

    monkeypatch.setattr(verify_checkpoints, "run_gate", counted)
    return runs


def serve_session(root: Path):
    """What `build.py serve` calls on start and after every change, without the server."""
    return serve_rebuild(parse_arguments(["serve", "--root", str(root)]))


# The serve and plain-build mechanics, and the gate's failures, on the small fixture lesson
# chain-01 (a gate of seconds); the cases with `project` break how rag-01's tests load.
def test_serve_does_not_gate_an_unchanged_lesson_again(chain_project, gate_runs):
    rebuild = serve_session(chain_project)
    assert rebuild() == [] and rebuild() == []  # no mistakes
    assert gate_runs == ["chain-01"]
    assert (chain_project / "_site" / "chain-01" / "index.html").is_file()


def test_serve_gates_again_after_a_checkpoint_file_changes(chain_project, gate_runs):
    rebuild = serve_session(chain_project)
    assert rebuild() == []
    correct = chain_project / "checkpoints/chain-01/correct/with_counter.py"
    correct.write_text(correct.read_text(encoding="utf-8") + "\n# nagekeken\n", encoding="utf-8")
    assert rebuild() == []
    assert gate_runs == ["chain-01", "chain-01"]


def test_serve_gates_a_failing_lesson_again_and_reports_it_every_time(chain_project, gate_runs, capsys):
    (chain_project / "checkpoints/chain-01/wrong/longest_line__passes.py").write_text(
        "# after: solution.py\n", encoding="utf-8")
    rebuild = serve_session(chain_project)
    assert rebuild() and rebuild()  # the gate's mistake, both times
    assert gate_runs == ["chain-01", "chain-01"]
    assert capsys.readouterr().err.count("known to be wrong, but passes checkpoint longest_line") == 2
    assert not (chain_project / "_site").exists()


def test_a_plain_build_always_gates(chain_project, gate_runs):
    arguments = ["--root", str(chain_project)]
    assert main(arguments) == 0 and main(arguments) == 0
    assert gate_runs == ["chain-01", "chain-01"]


def test_a_syntax_error_in_a_test_file_names_the_file_and_line(project):
    tests = project / "checkpoints/rag-01/tests/word_chunks.py"
    lines = tests.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = next(number for number, line in enumerate(lines) if line.startswith("def "))
    lines[broken] = lines[broken].replace("def ", "def (", 1)
    tests.write_text("".join(lines), encoding="utf-8")
    run = build(project)
    assert run.stderr == (f"checkpoints/rag-01/tests/word_chunks.py:{broken + 1}: "
                          "the tests cannot be loaded: SyntaxError: invalid syntax\n")
    assert run.returncode == 1


def test_an_exception_while_loading_a_test_file_names_the_file_and_line(project):
    tests = project / "checkpoints/rag-01/tests/word_chunks.py"
    text = tests.read_text(encoding="utf-8")
    tests.write_text(text + "helper = undefined_helper\n", encoding="utf-8")
    run = build(project)
    assert run.stderr == (f"checkpoints/rag-01/tests/word_chunks.py:{len(text.splitlines()) + 1}: "
                          "the tests cannot be loaded: NameError: name 'undefined_helper' is not defined\n")
    assert run.returncode == 1


def test_the_build_lists_every_gate_failure_one_line_each_and_keeps_the_previous_site(chain_project):
    """A known-wrong solution that passes, a correct one that fails: the gate answers in JSON
    (`python -m runner gate --json`), every failure is its own line with the test and its message,
    and the site of the previous good build stays as it was."""
    project = chain_project
    (project / "_site").mkdir()
    (project / "_site" / "index.html").write_text(OLD_SITE)
    lesson = project / "checkpoints" / "chain-01"
    (lesson / "wrong" / "longest_line__passes.py").write_text("# after: solution.py\n", encoding="utf-8")
    (lesson / "correct" / "forgets_lower.py").write_text(
        "# after: solution.py\n\ndef words(text):\n    return text.split()\n", encoding="utf-8")
    run = build(project)
    assert run.stderr.splitlines() == [
        "checkpoints/chain-01/correct/forgets_lower.py: should pass but fails words: "
        "test 'voorbeeld: De kat en de hond' (fail): De woorden van het voorbeeld kloppen niet. "
        "[at [0]: expected 'de', got 'De']",
        "checkpoints/chain-01/correct/forgets_lower.py: should pass but fails word_counts: "
        "test 'hetzelfde woord met en zonder hoofdletter' (fail): Een woord met en zonder hoofdletters "
        "is hetzelfde woord. [at ['kat']: expected 3, got 1]",
        "checkpoints/chain-01/wrong/longest_line__passes.py: known to be wrong, but passes checkpoint longest_line",
        "3 mistakes; nothing was written",
    ]
    assert run.returncode == 1
    assert (project / "_site" / "index.html").read_text() == OLD_SITE


def test_a_gate_that_cannot_run_is_reported_in_its_own_words(project):
    lesson = SimpleNamespace(checkpoints_shown_dir="checkpoints/rag-01",
                             checkpoints_dir=project / "checkpoints" / "rag-01")
    crashed = subprocess.CompletedProcess([], 1, stdout="", stderr="Traceback (most recent call last):\nBoom\n")
    assert [str(error) for error in verify_checkpoints.gate_errors(lesson, crashed)] == [
        "checkpoints/rag-01: quality gate: Traceback (most recent call last):"]


def test_a_bundle_that_cannot_load_at_render_names_the_file_and_line(project):
    """The render stage reads the shipped tests' hash for the index card; a test file that breaks
    between verify and render (or a gate skipped by the dev server) still gives `file:line`."""
    from builder.errors import BuildError
    from builder.lesson_progress import progress_facts
    from builder.load_lessons import load_lessons

    (lesson,) = load_lessons(project / "lessons", project / "checkpoints", root=project)
    tests = project / "checkpoints/rag-01/tests/word_chunks.py"
    text = tests.read_text(encoding="utf-8")
    tests.write_text(text + "helper = undefined_helper\n", encoding="utf-8")
    with pytest.raises(BuildError) as raised:
        progress_facts(lesson)
    assert str(raised.value) == (f"checkpoints/rag-01/tests/word_chunks.py:{len(text.splitlines()) + 1}: "
                                 "the tests cannot be loaded: NameError: name 'undefined_helper' is not defined")


def test_a_gate_cache_lets_a_later_build_skip_a_gate_that_passed_on_the_same_inputs(chain_project, gate_runs,
                                                                                     tmp_path):
    kept = tmp_path / "gates"
    arguments = ["--root", str(chain_project), "--gate-cache", str(kept)]
    assert main(arguments) == 0 and main(arguments) == 0
    assert gate_runs == ["chain-01"]
    # The report is kept, and nothing else: no lock file is left behind.
    assert [path.suffix for path in kept.iterdir()] == [".json"]
    # A copy of the project elsewhere has the same gate inputs.
    copy = tmp_path / "elsewhere"
    shutil.copytree(chain_project, copy, ignore=shutil.ignore_patterns("_site"))
    assert main(["--root", str(copy), "--gate-cache", str(kept)]) == 0
    assert gate_runs == ["chain-01"]
    assert (copy / "_site" / "chain-01" / "index.html").is_file()
    # A changed checkpoint file is a new input: gated again.
    correct = chain_project / "checkpoints/chain-01/solution.py"
    correct.write_text(correct.read_text(encoding="utf-8") + "\n# nagekeken\n", encoding="utf-8")
    assert main(arguments) == 0
    assert gate_runs == ["chain-01", "chain-01"]


def test_a_gate_that_fails_is_never_kept_and_a_damaged_kept_gate_is_ignored(chain_project, gate_runs, tmp_path,
                                                                            capsys):
    kept = tmp_path / "gates"
    arguments = ["--root", str(chain_project), "--gate-cache", str(kept)]
    wrong = chain_project / "checkpoints/chain-01/wrong/longest_line__passes.py"
    wrong.write_text("# after: solution.py\n", encoding="utf-8")
    assert main(arguments) == 1 and main(arguments) == 1
    assert capsys.readouterr().err.count("known to be wrong, but passes checkpoint longest_line") == 2
    assert list(kept.glob("*.json")) == []
    wrong.unlink()
    assert main(arguments) == 0
    (kept_report,) = kept.glob("*.json")
    kept_report.write_text('{"lesson": "chain-01", "failures": []', encoding="utf-8")  # cut short
    assert main(arguments) == 0
    assert gate_runs == ["chain-01"] * 4
