"""A lesson's [settings] in the offline grader, with real processes: its time limits (flags override
them), the page's check limit per checkpoint, and its import allow-list with a Dutch refusal."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT

from runner.core.lesson_config import LessonSettings
from runner.offline.commands.arguments import build_parser, limits_from

# Every call of double takes 0.4 s: 5 calls in its 3 tests, 2 s together, each far below a call limit.
SLOW_DOUBLE = "import time\n" + CORRECT_MINI.replace("    return 2 * x", "    time.sleep(0.4)\n    return 2 * x")
# Only double(2), the visible example, takes 1.5 s.
ONE_SLOW_CALL = "import time\n" + CORRECT_MINI.replace(
    "    return 2 * x", "    if x == 2:\n        time.sleep(1.5)\n    return 2 * x")
USES_SQLITE = "import sqlite3\n" + CORRECT_MINI.replace(
    "    return 2 * x", "    return sqlite3.connect(':memory:').execute('select 2 * ?', (x,)).fetchone()[0]")
REFUSED = "de module '{}' is niet beschikbaar in deze les"


def lesson_with(tmp_path: Path, settings: str) -> Path:
    """mini-01 with these [settings]; returns the checkpoints tree holding it."""
    tree = tmp_path / "checkpoints"
    shutil.copytree(MINI_LESSON, tree / "mini-01")
    toml = tree / "mini-01" / "checkpoints.toml"
    text = toml.read_text(encoding="utf-8").replace('lesson = "mini-01"\n', f'lesson = "mini-01"\n\n[settings]\n{settings}\n')
    toml.write_text(text, encoding="utf-8")
    return tree


def check(tree: Path, tmp_path: Path, source: str, *flags: str) -> subprocess.CompletedProcess:
    main = tmp_path / "leerling" / "main.py"
    main.parent.mkdir(exist_ok=True)
    main.write_text(source, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "runner", "check", str(main), "--lesson", "mini-01", "--checkpoints-dir", str(tree), *flags],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )


def test_the_lessons_check_limit_makes_a_slow_but_correct_solution_a_timeout(tmp_path):
    tree = lesson_with(tmp_path, "check_seconds = 1")
    completed = check(tree, tmp_path, SLOW_DOUBLE)
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert "⏱ double — Verdubbelen  te traag, 1/3 tests" in lines
    assert ("    negatieve getallen: double was te traag: de tests van dit checkpoint mogen samen 1 seconde "
            "rekenen, net als in de browser.") in lines
    assert "✓ words — Woorden  gehaald, 3/3 tests" in lines
    # The flag overrides the lesson's limit; and with the default limit (5 s) it passes as well.
    assert check(tree, tmp_path, SLOW_DOUBLE, "--check-timeout", "5").returncode == 0
    assert check(lesson_with(tmp_path / "default", "run_seconds = 10"), tmp_path, SLOW_DOUBLE).returncode == 0


def test_the_lessons_call_limit_applies_and_the_flag_overrides_it(tmp_path):
    tree = lesson_with(tmp_path, "offline_call_seconds = 1\ncheck_seconds = 30")
    completed = check(tree, tmp_path, ONE_SLOW_CALL)
    assert completed.returncode == 1
    assert "⏱ double — Verdubbelen  te traag, 0/3 tests" in completed.stdout.splitlines()
    assert "    voorbeeld: double(2): double was niet binnen de tijdslimiet klaar (een oneindige lus?)." in (
        completed.stdout.splitlines())
    assert check(tree, tmp_path, ONE_SLOW_CALL, "--call-timeout", "3").returncode == 0


def test_an_import_the_lesson_does_not_allow_is_refused_in_dutch(tmp_path):
    tree = lesson_with(tmp_path, "run_seconds = 10")
    completed = check(tree, tmp_path, USES_SQLITE)
    assert completed.returncode == 1
    assert completed.stdout.splitlines()[1] == (
        f"Je code stopte tijdens het laden met ModuleNotFoundError op regel 1: {REFUSED.format('sqlite3')}. "
        "Er is nog niets getest.")
    dynamic = check(tree, tmp_path, "import importlib\nimportlib.import_module('xml.dom')\n" + CORRECT_MINI)
    assert f"ModuleNotFoundError op regel 2: {REFUSED.format('xml')}." in dynamic.stdout


def test_the_lessons_offline_modules_are_importable(tmp_path):
    tree = lesson_with(tmp_path, 'offline_modules = ["sqlite3"]')
    completed = check(tree, tmp_path, USES_SQLITE)
    assert completed.returncode == 0, completed.stdout
    assert "3 van 3 checkpoints gehaald. Alles in orde!" in completed.stdout


def test_a_batch_grades_with_the_lessons_settings(tmp_path):
    tree = lesson_with(tmp_path, 'check_seconds = 1\noffline_modules = ["sqlite3"]')
    submissions = tmp_path / "klas"
    submissions.mkdir()
    (submissions / "traag.py").write_text(SLOW_DOUBLE, encoding="utf-8")
    (submissions / "sqlite.py").write_text(USES_SQLITE, encoding="utf-8")
    (submissions / "xml.py").write_text("import xml.dom\n" + CORRECT_MINI, encoding="utf-8")
    out = tmp_path / "uit"
    completed = subprocess.run(
        [sys.executable, "-m", "runner", "grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree),
         str(submissions), "--out", str(out), "--jobs", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    results = {Path(result["submission"]).name: result
               for result in map(json.loads, (out / "results.jsonl").read_text(encoding="utf-8").splitlines())}
    statuses = {name: [checkpoint["status"] for checkpoint in result["checkpoints"]] for name, result in results.items()}
    assert statuses == {"traag.py": ["timeout", "pass", "pass"], "sqlite.py": ["pass", "pass", "pass"],
                        "xml.py": ["error", "error", "error"]}
    load_message = results["xml.py"]["checkpoints"][0]["tests"][0]["message"]
    assert REFUSED.format("xml") in load_message


@pytest.mark.parametrize("flags, expected", [
    ([], (7, 70, None)),
    (["--call-timeout", "2"], (2, 70, None)),
    (["--submission-timeout", "9", "--check-timeout", "4"], (7, 9, 4)),
])
def test_flags_override_the_lessons_limits(flags, expected):
    args = build_parser().parse_args(["check", "main.py", "--lesson", "mini-01", *flags])
    limits = limits_from(args, LessonSettings(offline_call_seconds=7, offline_submission_seconds=70))
    assert (limits.call_seconds, limits.submission_seconds, limits.check_seconds) == expected


def test_the_gate_refuses_a_reference_too_slow_for_the_lessons_check_limit(tmp_path):
    from runner.offline.gates.quality_gate import check_quality_gate

    lesson = lesson_with(tmp_path, "check_seconds = 1") / "mini-01"
    (lesson / "solution.py").write_text(SLOW_DOUBLE, encoding="utf-8")
    failures = check_quality_gate(lesson)
    assert [(failure.path.name, failure.reason) for failure in failures] == [(
        "solution.py", "solution.py fails its own test of double: test 'negatieve getallen' (timeout): double was te traag: "
                       "de tests van dit checkpoint mogen samen 1 seconde rekenen, net als in de browser.")]
    # Within the default limit (5 s) the same reference passes.
    default = lesson_with(tmp_path / "default", "run_seconds = 10") / "mini-01"
    (default / "solution.py").write_text(SLOW_DOUBLE, encoding="utf-8")
    assert check_quality_gate(default) == []
