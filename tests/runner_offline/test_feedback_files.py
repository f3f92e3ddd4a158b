"""`grade --feedback`, points and grades, and corrections.csv through the command line."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT

from runner.offline.outputs.feedback import feedback_file_name

STARTER = "def double(x):\n    raise NotImplementedError\n\ndef words(text):\n    raise NotImplementedError\n\n" \
          "def total(numbers):\n    raise NotImplementedError\n"
HOSTILE = '<script>alert("x")</script>'


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=180)


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    """mini-01 with points (double is worth 2), a pass mark of 60 % and a starter."""
    tree = tmp_path_factory.mktemp("checkpoints")
    lesson_dir = tree / "mini-01"
    shutil.copytree(MINI_LESSON, lesson_dir)
    config = (lesson_dir / "checkpoints.toml").read_text()
    config = config.replace('lesson = "mini-01"\n', 'lesson = "mini-01"\n\n[settings]\npass_percent = 60\n')
    config = config.replace('hint = "Vermenigvuldig met 2."', 'hint = "Vermenigvuldig met 2."\npoints = 2')
    (lesson_dir / "checkpoints.toml").write_text(config)
    (lesson_dir / "starter.py").write_text(STARTER)
    return tree


@pytest.fixture(scope="module")
def graded(lesson, tmp_path_factory):
    folder = tmp_path_factory.mktemp("klas")
    (folder / "anna.py").write_text(CORRECT_MINI)
    (folder / "bram.py").write_text(CORRECT_MINI.replace("2 * x", "x * x"))
    (folder / "cor.py").write_text("# nog niks gedaan\n" + STARTER)
    (folder / "xss.json").write_text(json.dumps({
        "lesson": "mini-01", "learner": HOSTILE,
        "code": CORRECT_MINI.replace("return 2 * x", "return 2 * x  # </td></pre><script>alert(1)</script>"),
    }))
    out = tmp_path_factory.mktemp("out")
    args = ["grade", "--lesson", "mini-01", "--checkpoints-dir", str(lesson), str(folder), "--out", str(out),
            "--jobs", "2", "--call-timeout", "3", "--feedback"]
    completed = run_cli(*args)
    assert completed.returncode == 0, completed.stderr
    return folder, out, args


def gradebook(out) -> dict[str, dict]:
    return {row["leerling"]: row for row in csv.DictReader((out / "gradebook.csv").open(newline=""))}


def test_gradebook_has_points_and_grades_from_the_lesson(graded):
    _, out, _ = graded
    rows = gradebook(out)
    assert (rows["anna"]["punten"], rows["anna"]["max punten"], rows["anna"]["cijfer"], rows["anna"]["voldoende"]) == (
        "4", "4", "10.0", "ja")
    # bram passes words and total: 2 of 4 points, below 60 %: 1 + 4.5 * 0.5 / 0.6 = 4.75 -> 4.8
    assert (rows["bram"]["punten"], rows["bram"]["cijfer"], rows["bram"]["voldoende"]) == ("2", "4.8", "nee")
    assert rows["cor"]["cijfer"] == "1.0"  # graded (the starter): a real 1.0


def test_one_escaped_self_contained_feedback_page_per_learner(graded):
    _, out, _ = graded
    pages = sorted(path.name for path in (out / "feedback").iterdir())
    assert pages == sorted(feedback_file_name(name) for name in ("anna", "bram", "cor", HOSTILE))
    assert feedback_file_name(HOSTILE).startswith("script-alert-x-script-")
    bram = (out / "feedback" / feedback_file_name("bram")).read_text()
    assert '<html lang="nl">' in bram and "<b>4,8</b>cijfer (onvoldoende)" in bram
    assert "Wat nog niet goed ging" in bram and 'class="ln">3</td><td>    return x * x</td>' in bram
    hostile = (out / "feedback" / feedback_file_name(HOSTILE)).read_text()
    assert "<script" not in hostile and "</pre>" not in hostile and "</td></pre>" not in hostile
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in hostile
    assert "src=" not in hostile and "href=" not in hostile
    assert "Niet begonnen" in (out / "feedback" / feedback_file_name("cor")).read_text()


def test_the_dutch_report_shows_grades_and_who_did_not_start(graded):
    _, out, _ = graded
    report = (out / "report.html").read_text()
    assert "<h2>Cijfers</h2>" in report and "5,5 bij 60% van de punten" in report
    assert report.split("<h2>Niet begonnen</h2>")[1].split("<h2>")[0].count("cor") == 1
    assert "<script" not in report


def test_corrections_survive_a_regrade_and_show_everywhere(graded):
    _, out, args = graded
    (out / "corrections.csv").write_text(
        "learner,lesson,checkpoint,points,comment\n"
        "bram,mini-01,double,+1,\"goed idee, <i>kleine</i> fout\"\n"
        "niemand,mini-01,words,1,typfout in de naam\n")
    completed = run_cli(*args, "--regrade")
    assert completed.returncode == 0, completed.stderr
    assert f"{out / 'corrections.csv'}:3: no learner 'niemand' in this batch; the line changes nothing" in \
        completed.stderr.replace("\n", "")
    assert (out / "corrections.csv").read_text().startswith("learner,lesson")  # never rewritten
    for rerun in ([], ["--regrade"]):  # resumed (nothing new to grade) and graded again: the same
        completed = run_cli(*args, *rerun)
        assert completed.returncode == 0, completed.stderr
        rows = gradebook(out)
        assert (rows["bram"]["punten"], rows["bram"]["cijfer"]) == ("3", "7.2")  # 5.5 + 4.5 * 0.15 / 0.4 = 7.19
        assert rows["bram"]["correcties"] == "double +1: goed idee, <i>kleine</i> fout"
    feedback = (out / "feedback" / feedback_file_name("bram")).read_text()
    assert "Opmerkingen van je docent" in feedback and "goed idee, &lt;i&gt;kleine&lt;/i&gt; fout" in feedback
    report = (out / "report.html").read_text()
    assert "goed idee, &lt;i&gt;kleine&lt;/i&gt; fout" in report.split("<h2>Correcties van de docent</h2>")[1]


def test_a_mistake_in_corrections_stops_before_grading(graded, tmp_path):
    folder, _, args = graded
    out = tmp_path / "out"
    out.mkdir()
    (out / "corrections.csv").write_text("learner,lesson,checkpoint,points,comment\nanna,mini-01,dubble,1,x\n")
    changed = [str(out) if value == args[args.index("--out") + 1] else value for value in args]
    completed = run_cli(*changed)
    assert completed.returncode == 2
    assert completed.stderr == (f"error: {out / 'corrections.csv'}:2: lesson mini-01 has no checkpoint 'dubble' "
                                "(did you mean 'double'?)\n")
    assert not (out / "results.jsonl").exists()


def test_a_corrections_field_over_the_csv_limit_is_one_line_and_exit_2(graded, tmp_path):
    _, _, args = graded
    out = tmp_path / "out"
    out.mkdir()
    (out / "corrections.csv").write_text("learner,lesson,checkpoint,points,comment\n"
                                         f"anna,mini-01,double,1,\"{'x' * 200_000}\"\n")
    changed = [str(out) if value == args[args.index("--out") + 1] else value for value in args]
    completed = run_cli(*changed)
    assert completed.returncode == 2
    assert completed.stderr == (f"error: {out / 'corrections.csv'}:2: not a readable CSV line (field larger than "
                                "field limit (131072))\n")
    assert not (out / "results.jsonl").exists()


def test_a_page_that_cannot_be_made_is_one_note_and_every_other_page_is_written(graded, tmp_path, monkeypatch):
    """A fault that meets one learner's data (a bug, a value nobody foresaw) costs that learner's
    page only: a short Dutch page says so, the teacher gets a note, the rest is written."""
    from runner.core.bundle import load_bundle
    from runner.offline.grading.records import read_results
    from runner.offline.outputs import write

    folder, out, args = graded
    lesson_tree = Path(args[args.index("--checkpoints-dir") + 1])
    results = list(read_results(out / "results.jsonl").results.values())
    real_render = write.render_feedback

    def failing_for_bram(result, *rest):
        if result.learner == "bram":
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        return real_render(result, *rest)

    monkeypatch.setattr(write, "render_feedback", failing_for_bram)
    bundle = load_bundle(lesson_tree / "mini-01", include_offline=True)
    notes = write.write_outputs([write.LessonBatch(bundle, lesson_tree / "mini-01", results)], tmp_path,
                                write.OutputOptions(feedback=True))
    assert notes == ["the feedback page of 'bram' could not be made (UnicodeEncodeError: 'utf-8' codec can't "
                     "encode character '\\ud800' in position 0: surrogates not allowed); it says so instead"]
    pages = {path.name: path.read_text() for path in (tmp_path / "feedback").iterdir()}
    assert len(pages) == 4
    assert "Deze pagina kon niet worden gemaakt." in pages[feedback_file_name("bram")]
    assert "<b>10,0</b>" in pages[feedback_file_name("anna")]
    assert (tmp_path / "report.html").is_file() and (tmp_path / "gradebook.csv").is_file()
