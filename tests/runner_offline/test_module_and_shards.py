"""A whole module in one run (no --lesson), and shards graded as separate processes then merged:
equal to one run, also when a shard was killed half way and resumed."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT

from runner.offline.grading.records import read_results
from runner.offline.outputs.feedback import feedback_file_name


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """Two lessons: mini-01, and mini-02 (the same checkpoints, worth 2 points each)."""
    root = tmp_path_factory.mktemp("checkpoints")
    shutil.copytree(MINI_LESSON, root / "mini-01")
    shutil.copytree(MINI_LESSON, root / "mini-02")
    config = (root / "mini-02" / "checkpoints.toml").read_text().replace('lesson = "mini-01"', 'lesson = "mini-02"')
    (root / "mini-02" / "checkpoints.toml").write_text(config.replace('hint = "`sum`"', 'hint = "`sum`"\npoints = 4'))
    return root


def module_export(learner: str, codes: dict[str, str]) -> str:
    return json.dumps({"module": "mini", "learner": learner, "created_at": "2026-11-30T09:00:00Z",
                       "lessons": [{"lesson": lesson, "code": code, "browser_verdicts": {}}
                                   for lesson, code in codes.items()]})


def make_module_class(folder) -> None:
    wrong = CORRECT_MINI.replace("2 * x", "x * x")
    (folder / "anna.json").write_text(module_export("anna", {"mini-01": CORRECT_MINI, "mini-02": CORRECT_MINI}))
    (folder / "bram.json").write_text(module_export("bram", {"mini-01": wrong, "mini-02": CORRECT_MINI}))
    (folder / "cas.json").write_text(module_export("cas", {"mini-02": wrong}))  # nothing for mini-01
    (folder / "daan.json").write_text(json.dumps({"lesson": "mini-01", "learner": "daan", "code": CORRECT_MINI}))
    (folder / "els.json").write_text(json.dumps({"lesson": "rag-77", "learner": "els", "code": CORRECT_MINI}))
    (folder / "losse.py").write_text(CORRECT_MINI)


def gradebook_rows(path) -> dict[str, dict]:
    return {row["leerling"]: row for row in csv.DictReader(path.open(newline="", encoding="utf-8"))}


def test_a_module_in_one_run_has_a_column_per_lesson_and_a_total(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    make_module_class(folder)
    out = tmp_path / "out"
    completed = run_cli("grade", "--checkpoints-dir", str(tree), str(folder), "--out", str(out), "--jobs", "2",
                        "--call-timeout", "3", "--feedback")
    assert completed.returncode == 0, completed.stderr
    assert "8 submissions: 6 graded, 2 invalid" in completed.stdout
    rows = gradebook_rows(out / "gradebook.csv")
    assert list(rows["anna"]) == ["leerling", "mini-01 punten", "mini-01 cijfer", "mini-02 punten", "mini-02 cijfer",
                                  "punten", "max punten", "cijfer", "voldoende"]
    assert [rows["anna"][k] for k in ("mini-01 cijfer", "mini-02 cijfer", "punten", "max punten", "cijfer")] == [
        "10.0", "10.0", "9", "9", "10.0"]
    # bram: 2 of 3 and 6 of 6 points; cas: nothing for mini-01 (empty, 0 in the total), 5 of 6 for mini-02
    assert [rows["bram"][k] for k in ("mini-01 punten", "punten", "cijfer")] == ["2", "8", "8.9"]
    assert [rows["cas"][k] for k in ("mini-01 punten", "mini-01 cijfer", "mini-02 punten", "punten")] == [
        "", "", "5", "5"]
    # losse.py names no lesson: no grade, no total, an empty row
    assert [rows["losse"][k] for k in ("mini-01 cijfer", "punten", "max punten", "cijfer", "voldoende")] == [
        "", "", "9", "", ""]
    results = {r.submission: r for r in read_results(out / "results.jsonl").results.values()}
    assert results[str(folder / "losse.py")].message == (
        "a .py file does not say which lesson it is for: grade it with --lesson")
    assert "which this checkpoints tree does not have" in results[str(folder / "els.json")].message
    assert results[f"{folder / 'bram.json'}#mini-01"].score == 2
    assert (out / "gradebook-mini-01.csv").is_file() and (out / "gradebook-mini-02.csv").is_file()
    report = (out / "report.html").read_text()
    assert "<h2>Cijfers per les</h2>" in report and "Les mini-01" in report and "Les mini-02" in report
    assert "<h2>Inzendingen zonder bekende les</h2>" in report
    assert ("Module mini: mini-01, mini-02: de lessen van deze module in de checkpoints-map (er zijn geen "
            "lesbestanden).") in report
    assert "een .py-bestand zegt niet voor welke les het is: je docent moet de les erbij opgeven" in report
    anna = (out / "feedback" / feedback_file_name("anna")).read_text()
    assert "<h2>Les mini-01</h2>" in anna and "<h2>Les mini-02</h2>" in anna
    assert "<b>10,0</b>cijfer voor module mini (voldoende): 9 van 9 punten over mini-01, mini-02" in anna
    cas = (out / "feedback" / feedback_file_name("cas")).read_text()
    assert "Niets ingeleverd voor mini-01: die les telt mee met 0 punten." in cas


def stray_class(folder) -> None:
    """The issue's case: a learner who passed both her lessons, and a classmate whose export also
    holds an untouched third lesson."""
    (folder / "anna.json").write_text(module_export("anna", {"mini-01": CORRECT_MINI, "mini-02": CORRECT_MINI}))
    (folder / "bram.json").write_text(module_export("bram", {"mini-01": CORRECT_MINI, "mini-02": CORRECT_MINI,
                                                             "mini-03": "def double(x):\n    pass\n"}))


@pytest.fixture(scope="module")
def three_lessons(tree, tmp_path_factory):
    """mini-01..03 in a project with lesson files: mini-01 and mini-02 published in module mini,
    mini-03 without a lesson file (not published); tekst-01 in a second module."""
    project = tmp_path_factory.mktemp("project")
    checkpoints = project / "checkpoints"
    for name in ("mini-01", "mini-02"):
        shutil.copytree(tree / name, checkpoints / name)
    for name in ("mini-03", "tekst-01"):
        shutil.copytree(MINI_LESSON, checkpoints / name)
        config = checkpoints / name / "checkpoints.toml"
        config.write_text(config.read_text().replace('lesson = "mini-01"', f'lesson = "{name}"'))
    (project / "lessons").mkdir()
    for name, module in (("mini-01", "mini"), ("mini-02", "mini"), ("tekst-01", "tekst")):
        (project / "lessons" / f"{name}.md").write_text(
            f"---\nid: {name}\nmodule: {{id: {module}, number: 1, title: Mini}}\nlesson: 1\n---\n# Les\n")
    return checkpoints


def test_a_lesson_only_a_classmate_names_is_never_in_anyones_total(three_lessons, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    stray_class(folder)
    out = tmp_path / "out"
    completed = run_cli("grade", "--checkpoints-dir", str(three_lessons), str(folder), "--out", str(out),
                        "--jobs", "2", "--call-timeout", "3", "--feedback")
    assert completed.returncode == 0, completed.stderr
    rows = gradebook_rows(out / "gradebook.csv")
    assert "mini-03 punten" not in rows["anna"]
    for learner in ("anna", "bram"):
        assert [rows[learner][k] for k in ("punten", "max punten", "cijfer", "voldoende")] == ["9", "9", "10.0", "ja"]
    report = (out / "report.html").read_text()
    assert ("Module mini: mini-01, mini-02: de gepubliceerde lessen van deze module (volgens de lesbestanden).") in report
    assert "Nagekeken maar niet meegeteld: mini-03." in report
    assert (out / "gradebook-mini-03.csv").is_file()
    bram = (out / "feedback" / feedback_file_name("bram")).read_text()
    assert "telt niet mee voor een totaalcijfer" in bram and "<b>10,0</b>cijfer voor module mini" in bram


def test_the_teacher_lists_the_lessons_that_count(three_lessons, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    stray_class(folder)
    out = tmp_path / "out"
    completed = run_cli("grade", "--checkpoints-dir", str(three_lessons), str(folder), "--out", str(out),
                        "--jobs", "2", "--call-timeout", "3", "--lessons", "mini-01,mini-03")
    assert completed.returncode == 0, completed.stderr
    rows = gradebook_rows(out / "gradebook.csv")
    assert list(rows["anna"])[1:5] == ["mini-01 punten", "mini-01 cijfer", "mini-03 punten", "mini-03 cijfer"]
    # anna handed in nothing for mini-03: 3 of 6 points; bram's untouched mini-03 scores 0 of its 3
    assert [rows["anna"][k] for k in ("mini-03 cijfer", "punten", "max punten")] == ["", "3", "6"]
    assert [rows["bram"][k] for k in ("mini-03 punten", "punten", "max punten")] == ["0", "3", "6"]
    assert "Nagekeken maar niet meegeteld: mini-02." in (out / "report.html").read_text()
    wrong = run_cli("grade", "--checkpoints-dir", str(three_lessons), str(folder), "--out", str(out),
                    "--lessons", "mini-01,mini-9")
    assert wrong.returncode == 2
    assert wrong.stderr.startswith("error: --lessons names 'mini-9', which ")


def test_two_modules_in_one_folder_get_a_total_and_a_gradebook_each(three_lessons, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "anna.json").write_text(module_export("anna", {"mini-01": CORRECT_MINI, "mini-02": CORRECT_MINI}))
    (folder / "anna-tekst.json").write_text(json.dumps({"lesson": "tekst-01", "learner": "anna", "code": CORRECT_MINI}))
    (folder / "bram.json").write_text(json.dumps({"lesson": "tekst-01", "learner": "bram", "code": CORRECT_MINI}))
    out = tmp_path / "out"
    completed = run_cli("grade", "--checkpoints-dir", str(three_lessons), str(folder), "--out", str(out),
                        "--jobs", "2", "--call-timeout", "3", "--excel")
    assert completed.returncode == 0, completed.stderr
    text = (out / "gradebook.csv").read_text(encoding="utf-8-sig")
    rows = {row["leerling"]: row for row in csv.DictReader(text.splitlines(), delimiter=";")}
    assert [rows["anna"][k] for k in ("mini punten", "mini max punten", "mini cijfer", "tekst cijfer")] == [
        "9", "9", "10,0", "10,0"]
    # bram handed in nothing for module mini: no total there, not a 1,0
    assert [rows["bram"][k] for k in ("mini punten", "mini cijfer", "mini voldoende", "tekst cijfer")] == [
        "", "", "", "10,0"]
    mini = (out / "gradebook-module-mini.csv").read_text(encoding="utf-8-sig").splitlines()
    assert mini[0] == "leerling;mini-01 punten;mini-01 cijfer;mini-02 punten;mini-02 cijfer;punten;max punten;cijfer;voldoende"
    assert [line.split(";")[0] for line in mini[1:]] == ["anna"]
    assert (out / "gradebook-module-tekst.csv").is_file()


def test_a_module_export_with_lesson_grades_only_that_lesson(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    make_module_class(folder)
    (folder / "losse.py").unlink()
    (folder / "els.json").unlink()
    out = tmp_path / "out"
    completed = run_cli("grade", "--lesson", "mini-02", "--checkpoints-dir", str(tree), str(folder), "--out", str(out),
                        "--jobs", "1", "--call-timeout", "3")
    assert completed.returncode == 0, completed.stderr
    results = {r.submission: r for r in read_results(out / "results.jsonl").results.values()}
    assert sorted(results) == sorted([f"{folder / name}.json#mini-02" for name in ("anna", "bram", "cas")]
                                     + [str(folder / "daan.json")])
    assert results[str(folder / "daan.json")].message == "submission is for lesson 'mini-01', not 'mini-02'"


def make_batch(folder, count: int = 12, slow: bool = False) -> None:
    for index in range(count):
        code = ("import time\ntime.sleep(0.3)\n" if slow else "") + CORRECT_MINI
        if index % 3 == 1:
            code = code.replace("2 * x", "x + x + 1")
        if index % 5 == 3:  # invalid ones in several shards: the report lists them in path order
            (folder / f"leerling{index:02d}.json").write_text('{"lesson": "mini-01", "learner": "kapot", "co')
        elif index % 4 == 2:
            (folder / f"leerling{index:02d}.json").write_text(module_export(f"leerling{index:02d}",
                                                                           {"mini-01": code, "mini-02": code}))
        else:
            (folder / f"leerling{index:02d}.json").write_text(json.dumps(
                {"lesson": "mini-0" + str(1 + index % 2), "learner": f"leerling{index:02d}", "code": code}))


def grade_args(tree, folder, out, *extra: str) -> list[str]:
    return [sys.executable, "-m", "runner", "grade", "--checkpoints-dir", str(tree), str(folder), "--out", str(out),
            "--jobs", "1", "--call-timeout", "5", "--feedback", *extra]


def comparable_results(out) -> list[dict]:
    """results.jsonl without what differs between any two runs: timings and timestamps."""
    found = []
    for line in (out / "results.jsonl").read_text().splitlines():
        record = json.loads(line)
        record.pop("graded_at")
        for checkpoint in record["checkpoints"]:
            for test in checkpoint["tests"]:
                test.pop("duration_ms")
        found.append(record)
    return found


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d \(UTC[+-]\d\d:\d\d\)|\d{4}-\d\d-\d\d")


def same_outputs(first, second) -> None:
    assert comparable_results(first) == comparable_results(second)
    assert (first / "gradebook.csv").read_bytes() == (second / "gradebook.csv").read_bytes()
    assert TIMESTAMP.sub("T", (first / "report.html").read_text()) == TIMESTAMP.sub("T", (second / "report.html").read_text())
    pages = sorted(path.name for path in (first / "feedback").iterdir())
    assert pages == sorted(path.name for path in (second / "feedback").iterdir()) and pages
    for name in pages:
        assert TIMESTAMP.sub("T", (first / "feedback" / name).read_text()) == \
            TIMESTAMP.sub("T", (second / "feedback" / name).read_text())


def test_four_shards_in_separate_processes_merge_into_exactly_one_run(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    make_batch(folder)
    whole = tmp_path / "whole"
    subprocess.run(grade_args(tree, folder, whole), cwd=ROOT, check=True, capture_output=True, timeout=300)
    shards = [tmp_path / f"shard-{number}" for number in range(1, 5)]
    running = [subprocess.Popen(grade_args(tree, folder, out, "--shard", f"{number}/4"), cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for number, out in enumerate(shards, start=1)]
    for process in running:
        _stdout, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr
    counts = [len((out / "results.jsonl").read_text().splitlines()) for out in shards]
    assert sum(counts) == len((whole / "results.jsonl").read_text().splitlines()) and min(counts) > 0
    merged = tmp_path / "merged"
    completed = run_cli("merge", *map(str, shards), "--out", str(merged), "--checkpoints-dir", str(tree), "--feedback")
    assert completed.returncode == 0, completed.stderr
    same_outputs(merged, whole)


def test_a_shard_killed_half_way_resumes_and_the_merge_still_equals_one_run(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    make_batch(folder, count=10, slow=True)
    whole = tmp_path / "whole"
    subprocess.run(grade_args(tree, folder, whole), cwd=ROOT, check=True, capture_output=True, timeout=300)
    first, second = tmp_path / "shard-1", tmp_path / "shard-2"
    killed = subprocess.Popen(grade_args(tree, folder, first, "--shard", "1/2"), cwd=ROOT, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = first / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"\n") >= 2):
        time.sleep(0.05)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    partial = len(read_results(log).results)
    assert 2 <= partial
    resumed = subprocess.run(grade_args(tree, folder, first, "--shard", "1/2"), cwd=ROOT, capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{partial} kept from an earlier run" in resumed.stdout
    subprocess.run(grade_args(tree, folder, second, "--shard", "2/2"), cwd=ROOT, check=True, capture_output=True,
                   timeout=300)
    merged = tmp_path / "merged"
    completed = run_cli("merge", str(first), str(second), "--out", str(merged), "--checkpoints-dir", str(tree),
                        "--feedback")
    assert completed.returncode == 0, completed.stderr
    same_outputs(merged, whole)


def test_shard_and_merge_usage_errors(tree, tmp_path):
    completed = run_cli("grade", "--checkpoints-dir", str(tree), str(tmp_path), "--out", "o", "--shard", "5/4")
    assert (completed.returncode, completed.stderr) == (
        2, "error: argument --shard: must be K/N with 1 <= K <= N, such as 2/4: '5/4'\n")
    completed = run_cli("merge", str(tmp_path), "--out", str(tmp_path / "m"), "--checkpoints-dir", str(tree))
    assert (completed.returncode, completed.stderr) == (2, f"error: no results.jsonl in '{tmp_path}'\n")


def test_merge_errors_show_a_learners_file_name_escaped(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    sly = folder / "anna\x1b[2J\u202eyp.py"
    sly.write_text(CORRECT_MINI)
    for shard in ("s1", "s2"):
        completed = run_cli("grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree), str(folder),
                            "--out", str(tmp_path / shard), "--jobs", "1", "--call-timeout", "3")
        assert completed.returncode == 0, completed.stderr
        sly.write_text(CORRECT_MINI.replace("2 * x", "x * x"))  # the second shard saw another file
    merged = run_cli("merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m"),
                     "--checkpoints-dir", str(tree))
    assert merged.returncode == 2
    assert "\x1b" not in merged.stderr and "\u202e" not in merged.stderr
    assert merged.stderr.startswith(f"error: {folder}/anna\\x1b[2J\\u202eyp.py was graded differently in ")
