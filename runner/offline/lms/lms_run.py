"""One grading run of an LMS download: `prepare` reads it, chooses and stages each learner's file
and matches the class list; after grading, `write_lms_outputs` writes what goes back to the LMS,
and `report_section` adds the LMS's part to report.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from runner.offline.grading.grades import LearnerGrade, format_grade, format_points
from runner.offline.grading.records import ResultRecord
from runner.offline.lms.attempts import Chosen, Lateness, choose_attempts, match_class_list, stage
from runner.offline.lms.class_list import ClassList, ClassMember, read_class_list
from runner.offline.lms.download import Download, read_download
from runner.offline.lms.imports import (
    FEEDBACK_PACKAGES,
    IMPORT_FILES,
    LATENESS_NL,
    LmsGrade,
    brightspace_import,
    canvas_import,
    feedback_package,
    moodle_worksheet,
    overview_csv,
)
from runner.offline.outputs.html_kit import e
from runner.offline.outputs.reasons import reason_text


@dataclass
class LmsRun:
    download: Download
    chosen: list[Chosen]
    class_list: ClassList | None
    missing: list[ClassMember]
    unmatched: list[Chosen]
    staged: dict[int, Path]  # id(chosen) -> the file graded
    problems: dict[int, str]  # id(chosen) -> why there is nothing to grade
    deadline: datetime | None
    notes: list[str]

    def learner_of(self, submission_path: str) -> str | None:
        path = submission_path.split("#", 1)[0]
        for item in self.chosen:
            if str(self.staged[id(item)]) == path:
                return item.learner
        return None


def prepare(source: Path, lms: str, out_dir: Path, class_list_path: Path | None,
            deadline: datetime | None) -> LmsRun:
    """Read the download and the class list, choose the attempt per learner, and stage the file
    of each in `--out`."""
    download = read_download(source, lms)
    class_list = read_class_list(class_list_path, lms) if class_list_path is not None else None
    chosen = choose_attempts(download, deadline)
    missing, unmatched = match_class_list(chosen, class_list)
    staged, problems = {}, {}
    for item in chosen:
        path, problem = stage(item, out_dir)
        staged[id(item)] = path.resolve()
        if problem is not None:
            problems[id(item)] = problem
    notes = []
    if deadline is not None and lms == "canvas":
        notes.append("Canvas's download marks late work itself (_LATE_, by the due date set in Canvas); "
                     "--deadline is not used for it")
    if deadline is not None and lms == "moodle":
        notes.append("Moodle's download holds no submission time: lateness is not judged (see Moodle's own "
                     "grading table)")
    if download.ignored:
        shown = ", ".join(download.ignored[:5]) + (f" and {len(download.ignored) - 5} more"
                                                  if len(download.ignored) > 5 else "")
        notes.append(f"skipped {len(download.ignored)} entries that are no learner's file in a {lms} download: "
                     f"{shown}")
    for item in unmatched:
        notes.append(f"not on the class list: {item.attempt.name} ({item.attempt.entry})")
    for member in missing:
        notes.append(f"on the class list but nothing handed in: {member.name}")
    return LmsRun(download, chosen, class_list, missing, unmatched, staged, problems, deadline, notes)


def dutch_comment(grade: LearnerGrade | None, reason: str | None, lateness: Lateness) -> str:
    """The feedback comment that goes into the LMS's own comment field (Moodle's worksheet)."""
    if grade is None:
        text = f"Je inzending kon niet worden nagekeken: {reason}." if reason else "Geen cijfer."
    else:
        text = (f"Cijfer {format_grade(grade.grade, True)} ({'voldoende' if grade.passed else 'onvoldoende'}): "
                f"{format_points(grade.points, True)} van {grade.max_points} punten.")
    if lateness.status == "late":
        text += " Te laat ingeleverd."
    return text + " Zie de terugkoppeling in het bestand erbij."


def report_section(run: LmsRun, language: str) -> str:
    """A section for report.html: who is missing, which hand-in matched no one, lateness."""
    nl = language == "nl"
    lines = []
    rows = []
    for item in sorted(run.chosen, key=lambda c: (c.learner.casefold(), c.learner)):
        when = item.attempt.submitted_at.strftime("%Y-%m-%d %H:%M") if item.attempt.submitted_at else ""
        late = LATENESS_NL[item.lateness.status] if nl else item.lateness.status.replace("_", " ")
        rows.append(f"<tr><td>{e(item.learner)}</td><td>{e(item.attempt.key)}</td><td>{e(when)}</td>"
                    f"<td>{e(late)}</td><td class=\"num\">{len(item.attempts)}</td></tr>")
    head = (("Leerling", "LMS-id", "Ingeleverd op", "Te laat", "Pogingen") if nl else
            ("Learner", "LMS id", "Handed in", "Late", "Attempts"))
    if run.missing:
        label = "Op de klaslijst, niets ingeleverd" if nl else "On the class list, nothing handed in"
        lines.append(f"<p><b>{e(label)}:</b> {e(', '.join(member.name for member in run.missing))}</p>")
    if run.unmatched:
        label = "Niet op de klaslijst" if nl else "Not on the class list"
        lines.append(f"<p><b>{e(label)}:</b> {e(', '.join(item.attempt.entry for item in run.unmatched))}</p>")
    title = f"Uit {run.download.lms}" if nl else f"From {run.download.lms}"
    table = "".join(f"<th>{e(h)}</th>" for h in head)
    return (f"<h2>{e(title)}</h2>{''.join(lines)}<div class=\"table-scroll\"><table><thead><tr>{table}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>\n")


def write_lms_outputs(run: LmsRun, lessons: Sequence, out_dir: Path, options, item: str,
                      moodle_language: str) -> list[str]:
    """The LMS's import file, its feedback package and lms-overzicht.csv, beside the gradebook.
    `lessons`: runner.offline.outputs.LessonBatch, the same the other outputs were written from."""
    from runner.offline.grading import batch
    from runner.offline.outputs import write as outputs
    from runner.offline.outputs.class_view import class_view
    from runner.offline.outputs.feedback import FEEDBACK_DIR, feedback_file_names

    corrections = outputs.read_lesson_corrections(out_dir, [lesson.bundle for lesson in lessons])
    results: dict[str, ResultRecord] = {}
    grade_of: dict[str, LearnerGrade | None] = {}
    notes = []
    if len(lessons) == 1 and options.counted_lessons is None:
        grading = outputs.lesson_grading(lessons[0].bundle, corrections, options.pass_percent)
        for learner in class_view(lessons[0].results, grading).learners:
            results[learner.result.learner] = learner.result
            grade_of[learner.result.learner] = learner.grade
    else:
        module_run = outputs.module_totals(lessons, options, corrections)
        modules = module_run.totals
        for lesson in lessons:
            for learner in module_run.views[lesson.bundle.lesson].learners:
                results.setdefault(learner.result.learner, learner.result)
        if modules:
            grade_of = dict(modules[0].totals)
            if len(modules) > 1:
                notes.append(f"{IMPORT_FILES[run.download.lms]} carries the total of module "
                             f"{modules[0].counted.module} only")
    names = feedback_file_names(list(results))
    graded = []
    for chosen in run.chosen:
        own = results.get(chosen.learner)
        page = None
        if own is not None:
            try:
                page = (out_dir / FEEDBACK_DIR / names[chosen.learner]).read_bytes()
            except (OSError, KeyError):
                page = None
        reason = run.problems.get(id(chosen)) or (reason_text(own.message) if own is not None and
                                                   not own.graded else None)
        grade = grade_of.get(chosen.learner)
        graded.append(LmsGrade(chosen, grade, dutch_comment(grade, reason, chosen.lateness), page))
    lms = run.download.lms
    if lms == "brightspace":
        if run.class_list is None:
            notes.append(f"{IMPORT_FILES[lms]} not written: Brightspace imports need each learner's OrgDefinedId, "
                         "which only a class list has (--class-list: Grades > Export)")
        else:
            text, more = brightspace_import(graded, item)
            notes += more
            batch.write_atomically(out_dir / IMPORT_FILES[lms], text.encode("utf-8"))
    elif lms == "canvas":
        batch.write_atomically(out_dir / IMPORT_FILES[lms], canvas_import(graded, item).encode("utf-8"))
    else:
        batch.write_atomically(out_dir / IMPORT_FILES[lms],
                               moodle_worksheet(graded, run.class_list, moodle_language).encode("utf-8"))
    batch.write_atomically(out_dir / FEEDBACK_PACKAGES[lms], feedback_package(graded, run.download))
    batch.write_atomically(out_dir / "lms-overzicht.csv",
                           overview_csv(run.chosen, run.missing, run.unmatched, run.staged).encode("utf-8"))
    return notes
