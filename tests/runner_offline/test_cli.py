"""`python -m runner` as teachers and learners call it: exit codes, exact usage errors, outputs."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from offline_support import CORRECT_MINI, LESSONS, ROOT, needs_root

from runner.offline.grading import batch

LESSON_ARGS = ["--lesson", "mini-01", "--checkpoints-dir", str(LESSONS)]
FAST_LIMITS = ["--call-timeout", "3", "--submission-timeout", "30"]


def run_cli(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
    )


@pytest.mark.parametrize(("args", "message"), [
    (["grade", "--lesson", "rag-99", "--checkpoints-dir", str(LESSONS), "x", "--out", "o"],
     "error: unknown lesson 'rag-99' (known: mini-01)"),
    (["check", "x.py", "--lesson", "mini-01", "--checkpoints-dir", "/nonexistent"],
     "error: checkpoints directory not found: '/nonexistent'"),
    (["grade", *LESSON_ARGS, "tests/runner_offline/lessons"],
     "error: the following arguments are required: --out"),
    (["grade", *LESSON_ARGS, "nope", "--out", "o"],
     "error: no such file or directory: 'nope'"),
    (["grade", *LESSON_ARGS, "x", "--out", "o", "--jobs", "0"],
     "error: argument --jobs: must be at least 1: '0'"),
    (["grade", *LESSON_ARGS, "x", "--out", "o", "--call-timeout", "soon"],
     "error: argument --call-timeout: not a number: 'soon'"),
    (["check", "nope.py", *LESSON_ARGS], "error: no such file: 'nope.py'"),
    (["grades"], "error: argument command: invalid choice: 'grades' (choose from 'check', 'grade', 'merge', 'gate', 'mutate')"),
])
def test_usage_errors_are_one_exact_line_and_exit_2(args, message):
    completed = run_cli(*args)
    assert completed.returncode == 2
    assert completed.stderr == message + "\n"
    assert completed.stdout == ""


def test_unknown_lesson_lists_the_real_lessons():
    completed = run_cli("check", "x.py", "--lesson", "rag-99")
    assert completed.returncode == 2
    assert completed.stderr.startswith("error: unknown lesson 'rag-99' (known: ")
    assert "rag-01" in completed.stderr


def test_out_must_be_a_directory_and_paths_must_hold_submissions(tmp_path):
    not_a_dir = tmp_path / "out.txt"
    not_a_dir.write_text("")
    completed = run_cli("grade", *LESSON_ARGS, str(tmp_path), "--out", str(not_a_dir))
    assert completed.stderr == f"error: --out is not a directory: '{not_a_dir}'\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    completed = run_cli("grade", *LESSON_ARGS, str(empty), "--out", str(tmp_path / "o"))
    assert (completed.returncode, completed.stderr) == (
        2, "error: no .py or .json submissions found in the given paths\n")


def test_check_exit_code_and_dutch_view(tmp_path):
    good = tmp_path / "main.py"
    good.write_text(CORRECT_MINI)
    completed = run_cli("check", str(good), *LESSON_ARGS, *FAST_LIMITS)
    assert completed.returncode == 0, completed.stderr
    assert "3 van 3 checkpoints gehaald." in completed.stdout

    wrong = tmp_path / "fout.py"
    wrong.write_text(CORRECT_MINI.replace("2 * x", "x + 2"))
    completed = run_cli("check", str(wrong), *LESSON_ARGS, *FAST_LIMITS)
    assert completed.returncode == 1
    assert "✗ double" in completed.stdout
    assert "double(2) moet 4 zijn." not in completed.stdout  # 2 + 2 == 4: the example passes
    assert "Verdubbelen klopt niet voor negatieve getallen." in completed.stdout
    assert "2 van 3 checkpoints gehaald." in completed.stdout

    broken = tmp_path / "kapot.py"
    broken.write_text("def double(x)\n    return 2 * x\n")
    completed = run_cli("check", str(broken), *LESSON_ARGS, *FAST_LIMITS)
    assert completed.returncode == 1
    assert "syntaxfout op regel 1" in completed.stdout


class TagCollector(HTMLParser):
    """Every element name, and every attribute that could load something."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self.resource_attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.names.add(tag)
        self.resource_attributes += [(n, v) for n, v in attrs if n in ("src", "href") or n.startswith("on")]


HOSTILE_NAME = '<script>alert("naam")</script>'
HOSTILE_MESSAGE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def graded_batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    (folder / "anna.py").write_text(CORRECT_MINI)
    (folder / "bram.py").write_text(CORRECT_MINI.replace("2 * x", "x * x"))
    (folder / "kapot.py").write_text("def double(x)\n    return 2 * x\n")
    (folder / "xss.json").write_text(json.dumps({
        "lesson": "mini-01", "learner": HOSTILE_NAME,
        "code": f"def double(x):\n    raise ValueError({HOSTILE_MESSAGE!r})\n",
        "browser_verdicts": {"double": "pass"},
    }))
    (folder / "formula.json").write_text(json.dumps({
        "lesson": "mini-01", "learner": '=HYPERLINK("http://x","klik")', "code": CORRECT_MINI,
    }))
    (folder / "andere-les.json").write_text(json.dumps({"lesson": "rag-01", "learner": "c", "code": "x"}))
    (folder / "notities.txt").write_text("not a submission")
    out = tmp_path_factory.mktemp("out")
    completed = run_cli("grade", *LESSON_ARGS, *FAST_LIMITS, str(folder), "--out", str(out), "--jobs", "2")
    return folder, out, completed


def test_grade_writes_results_gradebook_and_report(graded_batch):
    folder, out, completed = graded_batch
    assert completed.returncode == 0, completed.stderr
    assert "6 submissions: 4 graded, 2 invalid; 6 new this run, 0 kept from an earlier run" in completed.stdout
    assert "Invalid (reasons in the report): andere-les.json, kapot.py\n" in completed.stdout
    assert "note: skipped 1 file that is not .py or .json: notities.txt" in completed.stderr
    umask = os.umask(0)
    os.umask(umask)
    for name in ("results.jsonl", "gradebook.csv", "report.html"):  # readable as any file the teacher makes
        assert (out / name).stat().st_mode & 0o777 == 0o666 & ~umask
    lines = (out / "results.jsonl").read_text().splitlines()
    results = {json.loads(line)["submission"]: json.loads(line) for line in lines}
    assert len(lines) == len(results) == 6
    anna = results[str(folder / "anna.py")]
    assert (anna["status"], anna["score"], anna["max_score"], anna["learner"]) == ("graded", 3, 3, "anna")
    assert [c["id"] for c in anna["checkpoints"]] == ["double", "words", "total"]
    assert {"name", "status", "message", "duration_ms"} <= set(anna["checkpoints"][0]["tests"][0])
    for key in ("lesson", "code_sha256", "runner_version", "bundle_sha256", "graded_at"):
        assert anna[key]
    bram = results[str(folder / "bram.py")]
    assert [c["status"] for c in bram["checkpoints"]] == ["fail", "pass", "pass"]
    broken = results[str(folder / "kapot.py")]
    assert (broken["status"], broken["message"]) == ("invalid", "syntax error on line 1: expected ':'")
    other = results[str(folder / "andere-les.json")]
    assert other["message"] == "submission is for lesson 'rag-01', not 'mini-01'"


def test_gradebook_has_one_row_per_learner_and_no_formulas(graded_batch):
    _, out, _ = graded_batch
    rows = list(csv.DictReader((out / "gradebook.csv").open(newline="")))
    by_learner = {row["leerling"]: row for row in rows}
    assert len(rows) == 6
    assert by_learner["anna"]["double"] == "gehaald" and by_learner["anna"]["checkpoints gehaald"] == "3"
    assert "'=HYPERLINK(\"http://x\",\"klik\")" in by_learner
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def test_report_is_self_contained_and_escapes_learner_text(graded_batch):
    _, out, _ = graded_batch
    report = (out / "report.html").read_text()
    assert HOSTILE_NAME not in report and HOSTILE_MESSAGE not in report
    assert "&lt;script&gt;alert(&quot;naam&quot;)&lt;/script&gt;" in report
    assert "&lt;img src=x onerror=alert(1)&gt;" in report
    tags = TagCollector()
    tags.feed(report)
    assert not {"script", "link", "img", "iframe", "object"} & tags.names
    assert not tags.resource_attributes
    assert "url(" not in report and "@import" not in report
    assert "<svg" in report and "browser zei pass" in report
    assert "de inzending is voor les &#x27;rag-01&#x27;, niet voor &#x27;mini-01&#x27;" in report


def test_check_never_sends_terminal_escapes_from_learner_text(tmp_path):
    hostile = tmp_path / "main.py"
    hostile.write_text(CORRECT_MINI.replace("return 2 * x", "raise ValueError('\\x1b[2J\\x1b]0;pwned\\x07')"))
    completed = run_cli("check", str(hostile), *LESSON_ARGS, *FAST_LIMITS)
    assert completed.returncode == 1
    assert "\x1b" not in completed.stdout and "\x07" not in completed.stdout
    assert "\\x1b[2J" in completed.stdout


def test_lone_surrogates_in_learner_text_never_stop_the_outputs(tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "melding.py").write_text('def double(x):\n    raise RuntimeError("kapot \\ud800 hier")\n')
    (folder / "naam.json").write_text(json.dumps({"lesson": "mini-01", "learner": "x\udcff", "code": CORRECT_MINI}))
    with open(os.path.join(os.fsencode(folder), b"bad\xffname.py"), "w") as handle:
        handle.write(CORRECT_MINI)
    out = tmp_path / "out"
    completed = run_cli("grade", *LESSON_ARGS, *FAST_LIMITS, str(folder), "--out", str(out), "--jobs", "1")
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "kapot \\ud800 hier" in report and "x\\udcff" in report and "bad\\udcffname.py" in report
    assert "x\\udcff" in (out / "gradebook.csv").read_text(encoding="utf-8")
    checked = run_cli("check", str(folder / "melding.py"), *LESSON_ARGS, *FAST_LIMITS)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    assert "kapot \\ud800 hier" in checked.stdout


def test_private_folders_cover_the_tests_the_results_the_class_and_the_history(tmp_path):
    lesson_dir = ROOT / "checkpoints" / "rag-01"
    hidden = batch.private_folders(lesson_dir, tmp_path / "out", [str(tmp_path / "klas" / "anna.py")])
    assert hidden == sorted([str(ROOT / "checkpoints"), str(tmp_path / "out"), str(tmp_path / "klas"),
                             str(ROOT / ".git"), str(ROOT)])


@needs_root
def test_a_submission_cannot_borrow_the_reference_solution(tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    solution = LESSONS / "mini-01" / "solution.py"
    (folder / "leentjes.py").write_text(
        f"def _reference():\n    namespace = {{}}\n    exec(open({str(solution)!r}).read(), namespace)\n"
        "    return namespace\n\n"
        "def double(x):\n    return _reference()['double'](x)\n\n"
        "def words(text):\n    return _reference()['words'](text)\n\n"
        "def total(numbers):\n    return _reference()['total'](numbers)\n"
    )
    completed = run_cli("check", str(folder / "leentjes.py"), *LESSON_ARGS, *FAST_LIMITS)
    assert completed.returncode == 1
    assert "FileNotFoundError" in completed.stdout


def test_excel_gradebook_uses_semicolons_and_a_byte_order_mark(tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "zoë.py").write_text(CORRECT_MINI)
    out = tmp_path / "out"
    completed = run_cli("grade", *LESSON_ARGS, *FAST_LIMITS, str(folder), "--out", str(out), "--jobs", "1", "--excel")
    assert completed.returncode == 0, completed.stderr
    data = (out / "gradebook.csv").read_bytes()
    assert data.startswith("\ufeffleerling;inzending;status;checkpoints gehaald;checkpoints;punten;max punten;cijfer;"
                           "voldoende;".encode())
    assert "\nzoë;" in data.decode("utf-8-sig")


@needs_root
def test_every_result_says_which_protections_held_and_the_teacher_is_warned_when_one_did_not(tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "anna.py").write_text(CORRECT_MINI)
    command = ["grade", *LESSON_ARGS, *FAST_LIMITS, str(folder), "--jobs", "1", "--out"]
    full = run_cli(*command, str(tmp_path / "out"))
    assert full.returncode == 0 and "warning" not in full.stderr
    result = json.loads((tmp_path / "out" / "results.jsonl").read_text())
    assert result["sandbox"] == {"sandbox_user": True, "private_filesystem": True, "network_isolation": True}
    # Root without CAP_SYS_ADMIN (as in a default container): no namespaces, so say so.
    weakened = subprocess.run(
        ["setpriv", "--bounding-set", "-sys_admin", sys.executable, "-m", "runner", *command, str(tmp_path / "zwak")],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert weakened.returncode == 0, weakened.stderr
    assert "warning: learner code ran without network_isolation, private_filesystem (see docs" in weakened.stderr
    assert 'class="warning"' in (tmp_path / "zwak" / "report.html").read_text()


def test_a_worktree_hides_the_repository_that_holds_its_history(tmp_path):
    main = tmp_path / "main"
    (main / ".git" / "worktrees" / "wt").mkdir(parents=True)
    (main / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    worktree = tmp_path / "wt"
    (worktree / "checkpoints" / "rag-01").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'wt'}\n")
    hidden = batch.private_folders(worktree / "checkpoints" / "rag-01", tmp_path / "out", [])
    assert str(main / ".git") in hidden and str(main / ".git" / "worktrees" / "wt") in hidden
