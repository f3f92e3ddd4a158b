"""The LMS round trip: a bulk download of Brightspace, Canvas and Moodle, as the teacher gets it,
through grading to the file each LMS imports and its feedback package, checked column by column.

The downloads are built here from the documented formats (docs/grading.md, "From and to
Brightspace, Canvas and Moodle"): several attempts, a late one, a non-ASCII name, a learner not
on the class list, a learner on it who handed in nothing."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT, english_words

from runner.offline import lms

WRONG_MINI = CORRECT_MINI.replace("2 * x", "x * x")  # 2 of 3 checkpoints: 6.7
BROKEN = "def double(x)\n    return 2 * x\n"  # a syntax error: no grade


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkpoints")
    shutil.copytree(MINI_LESSON, root / "mini-01")
    return root


def make_zip(path, entries: dict[str, str | bytes]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)


def grade(tree, out, *args: str) -> subprocess.CompletedProcess:
    completed = run_cli("grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree), "--out", str(out),
                        "--jobs", "2", "--call-timeout", "3", *args)
    assert completed.returncode == 0, completed.stderr
    return completed


def rows_of(path, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig")), delimiter=delimiter))


# ---- Brightspace ---------------------------------------------------------------------------

BRIGHTSPACE_CLASS = (
    "OrgDefinedId,Username,Last Name,First Name,Email,End-of-Line Indicator\n"
    "#400101,#avries,de Vries,Anna,anna@school.nl,#\n"
    "#400102,#zcelik,Çelik,Zoë,zoe@school.nl,#\n"
    "#400103,#bjansen,Jansen,Bram,bram@school.nl,#\n"
    "#400104,#dsmit,Smit,Daan,daan@school.nl,#\n"
)


def brightspace_download(path) -> None:
    make_zip(path, {
        "index.html": "<html><body>Opdracht 1</body></html>",
        # Anna: on time, then a worse attempt after the deadline; the one before it counts
        "88001-5001 - Anna de Vries - Nov 30, 2026 905 AM - main.py": CORRECT_MINI,
        "88002-5001 - Anna de Vries - Dec 1, 2026 1130 PM - main.py": WRONG_MINI,
        "88003-5001 - Zoë Çelik - Dec 1, 2026 1015 AM - main.py": WRONG_MINI,
        # Bram: his only attempt is late
        "88004-5001 - Bram Jansen - Dec 2, 2026 812 AM - main.py": CORRECT_MINI,
        "88005-5001 - Eva Onbekend - Dec 1, 2026 900 AM - main.py": BROKEN,
    })


def test_brightspace_download_to_its_grade_import_and_feedback_package(tree, tmp_path):
    download = tmp_path / "Opdracht 1 Download Dec 2, 2026 900 AM.zip"
    brightspace_download(download)
    (tmp_path / "klaslijst.csv").write_text(BRIGHTSPACE_CLASS, encoding="utf-8")
    out = tmp_path / "uit"
    completed = grade(tree, out, str(download), "--lms", "brightspace", "--class-list", str(tmp_path / "klaslijst.csv"),
                      "--deadline", "2026-12-01T17:00", "--lms-item", "Opdracht 1")
    assert "note: not on the class list: Eva Onbekend" in completed.stderr
    assert "note: on the class list but nothing handed in: Daan Smit" in completed.stderr
    assert "note: Eva Onbekend: not on the class list, so not in brightspace-cijfers.csv" in completed.stderr
    rows = rows_of(out / "brightspace-cijfers.csv")
    assert rows[0] == ["OrgDefinedId", "Username", "Opdracht 1 Points Grade <Numeric MaxPoints:10>",
                       "End-of-Line Indicator"]
    assert sorted(rows[1:]) == [["#400101", "#avries", "10.0", "#"],    # the attempt before the deadline
                                ["#400102", "#zcelik", "6.7", "#"],
                                ["#400103", "#bjansen", "10.0", "#"]]  # late: graded, marked late
    overview = {row[0]: row for row in rows_of(out / "lms-overzicht.csv")}
    assert overview["Anna de Vries"][3:6] == ["2026-11-30 09:05", "op tijd", "2026-11-30 09:05; 2026-12-01 23:30"]
    assert overview["Bram Jansen"][3:5] == ["2026-12-02 08:12", "te laat"]
    assert overview["Eva Onbekend"][6] == "nee" and overview["Zoë Çelik"][6] == "ja"
    assert overview["Daan Smit"][5:] == ["niets ingeleverd", "ja"]
    with zipfile.ZipFile(out / "brightspace-terugkoppeling.zip") as package:
        names = sorted(package.namelist())
        assert names == ["88001-5001 - Anna de Vries - Nov 30, 2026 905 AM/terugkoppeling.html",
                         "88003-5001 - Zoë Çelik - Dec 1, 2026 1015 AM/terugkoppeling.html",
                         "88004-5001 - Bram Jansen - Dec 2, 2026 812 AM/terugkoppeling.html",
                         "88005-5001 - Eva Onbekend - Dec 1, 2026 900 AM/terugkoppeling.html",
                         "index.html"]
        anna = package.read(names[0]).decode()
        assert "Voor <b>Anna de Vries</b>" in anna and "<b>10,0</b>cijfer (voldoende)" in anna
        eva = package.read(names[3]).decode()
        assert "<b>geen cijfer</b>ongeldig" in eva and "syntaxfout op regel 1" in eva
        for page in (anna, eva):
            assert english_words(page, allowed={"double", "words", "total"}) == []
    gradebook = {row[0]: row for row in rows_of(out / "gradebook.csv")}
    assert gradebook["Eva Onbekend"][2] == "ongeldig" and gradebook["Eva Onbekend"][7] == ""
    report = (out / "report.html").read_text()
    assert "<h2>Uit brightspace</h2>" in report and "Op de klaslijst, niets ingeleverd:</b> Daan Smit" in report
    assert english_words(report, allowed={"double", "words", "total", "brightspace"}) == []


def test_brightspace_folder_layout_and_no_deadline(tree, tmp_path):
    folder = tmp_path / "Opdracht 1 Download"
    (folder / "Opdracht 1" / "88001-5001 - Anna de Vries - Nov 30, 2026 905 AM").mkdir(parents=True)
    (folder / "Opdracht 1" / "88001-5001 - Anna de Vries - Nov 30, 2026 905 AM" / "main.py").write_text(CORRECT_MINI)
    (folder / "Opdracht 1" / "88002-5001 - Anna de Vries - Dec 1, 2026 1130 PM").mkdir()
    (folder / "Opdracht 1" / "88002-5001 - Anna de Vries - Dec 1, 2026 1130 PM" / "main.py").write_text(WRONG_MINI)
    (folder / "Opdracht 1" / "index.html").write_text("<html></html>")
    out = tmp_path / "uit"
    completed = grade(tree, out, str(folder), "--lms", "brightspace")
    assert "brightspace-cijfers.csv not written: Brightspace imports need each learner's OrgDefinedId" in \
        completed.stderr.replace("\n", " ")
    overview = rows_of(out / "lms-overzicht.csv")
    # without a deadline the newest attempt counts
    assert overview[1][:5] == ["Anna de Vries", "Anna de Vries", overview[1][2], "2026-12-01 23:30",
                               "geen deadline opgegeven"]
    assert re.search(r"lms-inzendingen/brightspace-Anna-de-Vries-[0-9a-f]{8}/20261201-2330-main\.py$", overview[1][2])
    with zipfile.ZipFile(out / "brightspace-terugkoppeling.zip") as package:
        assert sorted(package.namelist()) == [
            "88002-5001 - Anna de Vries - Dec 1, 2026 1130 PM/terugkoppeling.html", "index.html"]


# ---- Canvas --------------------------------------------------------------------------------

CANVAS_CLASS = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Opdracht 1 (77)\n"
    "    Points Possible,,,,,10\n"
    "\"de Vries, Anna\",4001,S101,avries,Klas 3A,\n"
    "\"Çelik, Zoë\",4002,S102,zcelik,Klas 3A,\n"
    "\"Jansen, Bram\",4003,S103,bjansen,Klas 3B,\n"
    "\"Smit, Daan\",4004,S104,dsmit,Klas 3B,\n"
)


def test_canvas_download_to_its_gradebook_import_and_reupload_package(tree, tmp_path):
    download = tmp_path / "submissions.zip"
    make_zip(download, {
        "devriesanna_4001_9001_main.py": CORRECT_MINI,
        "çelikzoë_LATE_4002_9002_main.py": WRONG_MINI,
        # Bram's export claims to be Anna's: Canvas says whose it is
        "jansenbram_4003_9003_mini-01-anna.json": json.dumps(
            {"lesson": "mini-01", "learner": "Anna de Vries", "code": WRONG_MINI}),
        "onbekend_4999_9999_main.py": CORRECT_MINI,
        "devriesanna_4001_text.html": "<p>tekst</p>",
    })
    (tmp_path / "cijfers.csv").write_text(CANVAS_CLASS, encoding="utf-8")
    out = tmp_path / "uit"
    completed = grade(tree, out, str(download), "--lms", "canvas", "--class-list", str(tmp_path / "cijfers.csv"),
                      "--lms-item", "Opdracht 1 (77)", "--deadline", "2026-12-01T17:00")
    assert "note: Canvas's download marks late work itself" in completed.stderr
    assert ("note: skipped 1 entries that are no learner's file in a canvas download: devriesanna_4001_text.html"
            in completed.stderr)
    rows = rows_of(out / "canvas-cijfers.csv")
    assert rows[:2] == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Opdracht 1 (77)"],
                        ["    Points Possible", "", "", "", "", "10"]]
    assert sorted(rows[2:], key=lambda row: row[1]) == [
        ["de Vries, Anna", "4001", "S101", "avries", "Klas 3A", "10.0"],
        ["Çelik, Zoë", "4002", "S102", "zcelik", "Klas 3A", "6.7"],
        ["Jansen, Bram", "4003", "S103", "bjansen", "Klas 3B", "6.7"],  # his own work, not the name it claims
        ["onbekend", "4999", "", "", "", "10.0"],
    ]
    overview = {row[0]: row for row in rows_of(out / "lms-overzicht.csv")}
    assert overview["Çelik, Zoë"][4] == "te laat" and overview["de Vries, Anna"][4] == "op tijd"
    assert overview["Smit, Daan"][5] == "niets ingeleverd"
    with zipfile.ZipFile(out / "canvas-terugkoppeling.zip") as package:
        assert sorted(package.namelist()) == ["devriesanna_4001_9001_terugkoppeling.html",
                                              "jansenbram_4003_9003_terugkoppeling.html",
                                              "onbekend_4999_9999_terugkoppeling.html",
                                              "çelikzoë_LATE_4002_9002_terugkoppeling.html"]
        bram = package.read("jansenbram_4003_9003_terugkoppeling.html").decode()
        assert "Voor <b>Jansen, Bram</b>" in bram


# ---- Moodle --------------------------------------------------------------------------------

MOODLE_WORKSHEET_NL = (
    "\ufeffIdentificatie,\"Volledige naam\",E-mailadres,Status,Cijfer,Maximumcijfer,"
    "\"Beoordeling kan gewijzigd worden\",\"Laatst gewijzigd (inzending)\",\"Laatst gewijzigd (beoordeling)\","
    "\"Feedback als opmerking\"\n"
    "\"Deelnemer 1183614\",\"Anna de Vries\",anna@school.nl,\"Ingestuurd voor beoordeling\",,\"10,00\",Ja,"
    "\"maandag 30 november 2026, 09:05\",-,\n"
    "\"Deelnemer 1183615\",\"Zoë Çelik\",zoe@school.nl,\"Ingestuurd voor beoordeling\",,\"10,00\",Ja,"
    "\"dinsdag 1 december 2026, 10:15\",-,\n"
    "\"Deelnemer 1183617\",\"Daan Smit\",daan@school.nl,\"Geen inzending\",,\"10,00\",Ja,-,-,\n"
)


def test_moodle_download_to_its_worksheet_in_the_teachers_language_and_feedback_zip(tree, tmp_path):
    download = tmp_path / "KLAS3-Opdracht 1-42.zip"
    make_zip(download, {
        "Anna de Vries_1183614_assignsubmission_file/main.py": CORRECT_MINI,
        "Zoë Çelik_1183615_assignsubmission_file_/main.py": WRONG_MINI,  # before Moodle 4.1
        "Bram Jansen_1183616_assignsubmission_onlinetext/onlinetext.html": "<p>geen code</p>",
        "Eva Onbekend_1183699_assignsubmission_file/main.py": BROKEN,
    })
    worksheet = tmp_path / "Grades-KLAS3-Opdracht 1-42.csv"
    worksheet.write_text(MOODLE_WORKSHEET_NL, encoding="utf-8")
    out = tmp_path / "uit"
    completed = grade(tree, out, str(download), "--lms", "moodle", "--class-list", str(worksheet),
                      "--deadline", "2026-12-01T17:00")
    assert "note: Moodle's download holds no submission time: lateness is not judged" in completed.stderr
    data = (out / "moodle-beoordelingsblad.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfIdentificatie,Volledige naam,")
    rows = rows_of(out / "moodle-beoordelingsblad.csv")
    assert rows[0] == ["Identificatie", "Volledige naam", "E-mailadres", "Status", "Cijfer", "Maximumcijfer",
                       "Beoordeling kan gewijzigd worden", "Laatst gewijzigd (inzending)",
                       "Laatst gewijzigd (beoordeling)", "Feedback als opmerking"]
    assert rows[1][:5] == ["Deelnemer 1183614", "Anna de Vries", "anna@school.nl", "Ingestuurd voor beoordeling",
                           "10,0"]
    assert rows[1][5:9] == ["10,00", "Ja", "maandag 30 november 2026, 09:05", "-"]  # the worksheet's own
    assert rows[1][9] == ("Cijfer 10,0 (voldoende): 3 van 3 punten. Zie de terugkoppeling in het bestand erbij.")
    assert rows[2][4] == "6,7"
    assert rows[3][0] == "Deelnemer 1183617" and rows[3][4] == "" and rows[3][9] == ""  # handed in nothing
    assert len(rows) == 4  # Eva is not on the worksheet: Moodle could not take her grade
    overview = {row[0]: row for row in rows_of(out / "lms-overzicht.csv")}
    assert overview["Eva Onbekend"][6] == "nee"
    assert overview["Anna de Vries"][4] == "onbekend: Moodle geeft geen inlevertijd"
    with zipfile.ZipFile(out / "moodle-terugkoppeling.zip") as package:
        assert sorted(package.namelist()) == [
            "Anna de Vries_1183614_assignsubmission_file/terugkoppeling.html",
            "Eva Onbekend_1183699_assignsubmission_file/terugkoppeling.html",
            "Zoë Çelik_1183615_assignsubmission_file_/terugkoppeling.html"]


def test_moodle_worksheet_without_a_class_list_in_english(tree, tmp_path):
    download = tmp_path / "moodle.zip"
    make_zip(download, {"Anna de Vries_1183614_assignsubmission_file/main.py": WRONG_MINI})
    out = tmp_path / "uit"
    grade(tree, out, str(download), "--lms", "moodle", "--moodle-language", "en")
    rows = rows_of(out / "moodle-beoordelingsblad.csv")
    assert rows == [["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)", "Feedback comments"],
                    ["Participant 1183614", "Anna de Vries", "6.7", "10.0", "",
                     "Cijfer 6,7 (voldoende): 2 van 3 punten. Zie de terugkoppeling in het bestand erbij."]]


# ---- hostile downloads, usage errors, regrading one learner ---------------------------------


def test_a_hostile_download_is_read_as_data(tree, tmp_path):
    download = tmp_path / "submissions.zip"
    with zipfile.ZipFile(download, "w") as archive:
        archive.writestr("devriesanna_4001_9001_main.py", CORRECT_MINI)
        archive.writestr("../../ontsnapt_4002_9002_main.py", CORRECT_MINI)
        link = zipfile.ZipInfo("linkje_4003_9003_main.py")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, "/etc/shadow")
    out = tmp_path / "uit"
    grade(tree, out, str(download), "--lms", "canvas")
    assert not (tmp_path.parent / "ontsnapt_4002_9002_main.py").exists()
    overview = rows_of(out / "lms-overzicht.csv")
    assert [row[1] for row in overview[1:]] == ["4001"]


@pytest.mark.parametrize(("args", "message"), [
    (["--lms", "canvas", "--shard", "1/2"], "error: --lms and --shard do not go together: grade the download on one "
                                              "machine\n"),
    (["--deadline", "morgen"], "error: argument --deadline: not an ISO date and time such as 2026-12-01T17:00: "
                               "'morgen'\n"),
    (["--class-list", "x.csv"], "error: --class-list, --deadline and --lms-item need --lms (the download's LMS)\n"),
])
def test_lms_usage_errors_are_one_line(tree, tmp_path, args, message):
    download = tmp_path / "submissions.zip"
    make_zip(download, {"devriesanna_4001_9001_main.py": CORRECT_MINI})
    completed = run_cli("grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree), "--out", str(tmp_path / "o"),
                        str(download), *args)
    assert (completed.returncode, completed.stderr) == (2, message)


def test_a_download_of_another_lms_is_one_line(tree, tmp_path):
    download = tmp_path / "submissions.zip"
    make_zip(download, {"devriesanna_4001_9001_main.py": CORRECT_MINI})
    completed = run_cli("grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree), "--out", str(tmp_path / "o"),
                        str(download), "--lms", "moodle")
    assert completed.returncode == 2
    assert completed.stderr.startswith(f"error: '{download}' holds no submission named as a moodle download names them")


def test_only_regrades_one_learner_and_rewrites_the_outputs(tree, tmp_path):
    download = tmp_path / "submissions.zip"
    make_zip(download, {"devriesanna_4001_9001_main.py": CORRECT_MINI, "çelikzoë_4002_9002_main.py": WRONG_MINI,
                        "jansenbram_4003_9003_main.py": WRONG_MINI})
    out = tmp_path / "uit"
    grade(tree, out, str(download), "--lms", "canvas")
    before = {json.loads(line)["learner"]: json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()}
    (out / "corrections.csv").write_text("learner,lesson,checkpoint,points,comment\nçelikzoë,mini-01,double,1,goed\n")
    again = grade(tree, out, str(download), "--lms", "canvas", "--only", "çelikzoë")
    assert "3 submissions: 3 graded, 0 invalid; 1 new this run, 2 kept from an earlier run" in again.stdout
    after = {json.loads(line)["learner"]: json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()}
    assert after["devriesanna"] == before["devriesanna"] and after["jansenbram"] == before["jansenbram"]
    rows = {row[1]: row for row in rows_of(out / "canvas-cijfers.csv")[2:]}
    assert (rows["4001"][5], rows["4002"][5], rows["4003"][5]) == ("10.0", "10.0", "6.7")
    wrong = run_cli("grade", "--lesson", "mini-01", "--checkpoints-dir", str(tree), "--out", str(out), str(download),
                    "--lms", "canvas", "--only", "niemand")
    assert (wrong.returncode, wrong.stderr) == (2, "error: --only 'niemand': no learner or file of that name in this "
                                                   "batch\n")


def test_only_works_without_an_lms_too(tree, tmp_path):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "anna.py").write_text(CORRECT_MINI)
    (folder / "bram.py").write_text(WRONG_MINI)
    out = tmp_path / "uit"
    grade(tree, out, str(folder))
    (folder / "bram.py").write_text(CORRECT_MINI)
    (folder / "anna.py").write_text(WRONG_MINI)  # changed too, but not asked for: keeps its old result
    again = grade(tree, out, str(folder), "--only", "bram.py")
    assert "1 new this run" in again.stdout
    assert "note: --only bram.py: kept the earlier result of anna.py, whose file changed since" in again.stderr
    rows = {row[0]: row for row in rows_of(out / "gradebook.csv")}
    assert (rows["anna"][7], rows["bram"][7]) == ("10.0", "10.0")


def test_attempt_choice_follows_the_documented_rule():
    def attempt(key: str, when: str) -> lms.Attempt:
        from datetime import datetime
        return lms.Attempt("brightspace", key, key, f"{key} {when}", datetime.fromisoformat(when))
    from datetime import datetime
    download = lms.Download("brightspace", [attempt("a", "2026-12-01T16:59"), attempt("a", "2026-12-01T17:01"),
                                            attempt("b", "2026-12-01T17:00"), attempt("c", "2026-12-02T09:00"),
                                            attempt("c", "2026-12-03T09:00")], [])
    chosen = {c.attempt.key: c for c in lms.choose_attempts(download, datetime.fromisoformat("2026-12-01T17:00"))}
    assert (chosen["a"].attempt.submitted_at.hour, chosen["a"].lateness.status) == (16, "on_time")
    assert chosen["b"].lateness.status == "on_time"  # at the deadline is in time
    assert (chosen["c"].attempt.submitted_at.day, chosen["c"].lateness.status) == (3, "late")


def test_moodle_and_canvas_downloads_unpacked_into_a_folder(tree, tmp_path):
    moodle = tmp_path / "KLAS3-Opdracht 1-42"
    (moodle / "KLAS3-Opdracht 1-42" / "Zoë Çelik_1183615_assignsubmission_file").mkdir(parents=True)
    (moodle / "KLAS3-Opdracht 1-42" / "Zoë Çelik_1183615_assignsubmission_file" / "main.py").write_text(CORRECT_MINI)
    grade(tree, tmp_path / "m", str(moodle), "--lms", "moodle")
    assert rows_of(tmp_path / "m" / "moodle-beoordelingsblad.csv")[1][:3] == ["Deelnemer 1183615", "Zoë Çelik", "10,0"]
    canvas = tmp_path / "submissions"
    canvas.mkdir()
    (canvas / "çelikzoë_LATE_4002_9002_main.py").write_text(WRONG_MINI)
    grade(tree, tmp_path / "c", str(canvas), "--lms", "canvas")
    assert rows_of(tmp_path / "c" / "canvas-cijfers.csv")[2] == ["çelikzoë", "4002", "", "", "", "6.7"]
    assert rows_of(tmp_path / "c" / "lms-overzicht.csv")[1][4] == "te laat"
