"""Writing a batch's outputs from its result records: for one lesson or a whole module, after
`grade` and after `merge` (which is why they depend on the records and the lessons only).

One lesson: `results.jsonl`, `gradebook.csv`, `report.html`, with `--feedback` `feedback/*.html`.
Several lessons (a module run, or submissions that name no known lesson): the same files, where
`gradebook.csv` has a column per lesson and a total, `gradebook-<lesson>.csv` each lesson's full
gradebook, `report.html` the grades per lesson and each lesson's report, and a feedback page per
learner covers every lesson they handed in. Points, grades, corrections and the similarity check
are worked out here, every time, from the records (docs/grading.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import runner
from runner.core.bundle import Bundle, load_bundle
from runner.core.lesson_config import DEFAULT_GRADING
from runner.offline.grading import batch
from runner.offline.grading.corrections import CORRECTIONS_FILE, Correction, read_corrections, unknown_learners
from runner.offline.grading.grades import LearnerGrade, LessonGrading, total_grade
from runner.offline.grading.modules import CountedModule, counted_modules, stray_lessons
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.class_view import ClassView, class_view
from runner.offline.outputs.feedback import (
    FEEDBACK_DIR,
    FeedbackCheckpoint,
    LessonFeedback,
    ModuleFeedbackTotal,
    feedback_file_names,
    feedback_unavailable,
    render_feedback,
    render_module_feedback,
)
from runner.offline.outputs.gradebook import gradebook_csv, module_gradebook_csv
from runner.offline.outputs.module_report import LessonPart, render_module_report
from runner.offline.outputs.report import CheckpointInfo, ReportInputs, render_report
from runner.offline.outputs.similarity import SimilarPair, find_similar


@dataclass(frozen=True)
class OutputOptions:
    excel: bool = False
    feedback: bool = False
    pass_percent: int | None = None  # None: the lesson's
    language: str = "nl"
    lessons_dir: Path | None = None  # lesson files that say each lesson's module (None: beside the checkpoints)
    counted_lessons: tuple[str, ...] | None = None  # --lessons: the one total counts exactly these
    report_extra: str = ""  # a section of our own HTML at the end of report.html (the LMS's)


@dataclass
class LessonBatch:
    """One lesson of a run: its tests, its folder (for the starter) and its results."""

    bundle: Bundle
    lesson_dir: Path
    results: list[ResultRecord]


def utf8_safe(text: str) -> str:
    """Lone surrogates (from a learner's exception message, a JSON name, a non-UTF-8 file name)
    cannot be written as UTF-8: they become visible \\udXXX escapes instead of a crash."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def read_lesson_corrections(out_dir: Path, bundles: Sequence[Bundle]) -> tuple[Correction, ...]:
    """The teacher's corrections beside the outputs, checked against these lessons."""
    return read_corrections(out_dir / CORRECTIONS_FILE, {bundle.lesson: bundle.function_names for bundle in bundles})


def lesson_grading(bundle: Bundle, corrections: Sequence[Correction], pass_percent: int | None) -> LessonGrading:
    """Points and pass mark of the lesson, with the teacher's corrections for it."""
    return LessonGrading(
        lesson=bundle.lesson,
        points={c.id: c.points for c in bundle.checkpoints},
        pass_percent=bundle.grading.pass_percent if pass_percent is None else pass_percent,
        corrections=tuple(c for c in corrections if c.lesson == bundle.lesson),
    )


def read_starter(lesson_dir: Path) -> str | None:
    try:
        return (lesson_dir / "starter.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _similar(view: ClassView, starter: str | None, notes: list[str]) -> list[SimilarPair]:
    """The report's similar pairs (of each learner's latest submission that is not the untouched
    starter); what the check had to leave out becomes a note, never a stopped report."""
    codes = {learner.result.submission: learner.result.code for learner in view.learners
             if learner.result.code is not None and not learner.not_started}
    pairs, problems = find_similar(codes, starter)
    notes.extend(problems)
    return pairs


def _gradebook_bytes(text: str, excel: bool) -> bytes:
    # Excel with comma-decimal settings splits on ';' and reads UTF-8 only after a BOM.
    return utf8_safe(text).encode("utf-8-sig" if excel else "utf-8")


def write_outputs(lessons: Sequence[LessonBatch], out_dir: Path, options: OutputOptions = OutputOptions(),
                  unplaced: Sequence[ResultRecord] = ()) -> list[str]:
    """Every output of the run; returns notes for the teacher (corrections that change nothing).
    `unplaced`: results of submissions that name no lesson of the checkpoints tree."""
    # In path order, however the results arrived (one run, or shards read one after another), so
    # a merge writes exactly what one run writes.
    lessons = [LessonBatch(lesson.bundle, lesson.lesson_dir, sorted(lesson.results, key=lambda r: r.submission))
               for lesson in lessons]
    unplaced = sorted(unplaced, key=lambda r: r.submission)
    every = [result for lesson in lessons for result in lesson.results] + list(unplaced)
    batch.finish_batch(every, out_dir)
    corrections = read_lesson_corrections(out_dir, [lesson.bundle for lesson in lessons])
    generated_at = batch.now_utc()
    notes: list[str] = []
    if len(lessons) == 1 and not unplaced and options.counted_lessons is None:
        _write_lesson(lessons[0], out_dir, options, corrections, generated_at, notes)
    else:
        _write_module(lessons, unplaced, out_dir, options, corrections, generated_at, notes)
    learners = {result.learner for result in every}
    return notes + [f"{out_dir / CORRECTIONS_FILE}:{c.line}: no learner {c.learner!r} in this batch; the line "
                    "changes nothing" for c in unknown_learners(corrections, learners)]


def _write_lesson(lesson: LessonBatch, out_dir: Path, options: OutputOptions, corrections: Sequence[Correction],
                  generated_at: str, notes: list[str]) -> None:
    bundle, results = lesson.bundle, lesson.results
    grading = lesson_grading(bundle, corrections, options.pass_percent)
    checkpoint_ids = [c.id for c in bundle.checkpoints]
    starter = read_starter(lesson.lesson_dir)
    view = class_view(results, grading, starter)  # once, for the gradebook, the report and the feedback
    gradebook = gradebook_csv(results, checkpoint_ids, delimiter=";" if options.excel else ",", grading=grading,
                              language=options.language, view=view)
    batch.write_atomically(out_dir / batch.GRADEBOOK_FILE, _gradebook_bytes(gradebook, options.excel))
    html = render_report(
        results,
        lesson=bundle.lesson,
        checkpoints=[CheckpointInfo(c.id, c.title) for c in bundle.checkpoints],
        runner_version=runner.__version__,
        bundle_sha256=bundle.bundle_sha256,
        generated_at=generated_at,
        inputs=ReportInputs(grading=grading, starter=starter, language=options.language,
                            similar=_similar(view, starter, notes), view=view),
    )
    html = html.replace("</body>", options.report_extra + "</body>") if options.report_extra else html
    batch.write_atomically(out_dir / batch.REPORT_FILE, utf8_safe(html).encode("utf-8"))
    if not options.feedback:
        return
    names = feedback_file_names([learner.result.learner for learner in view.learners])
    checkpoints = [FeedbackCheckpoint(c.id, c.title) for c in bundle.checkpoints]
    pages = {names[learner.result.learner]: _one_page(
                 learner.result.learner, notes,
                 lambda learner=learner: render_feedback(learner.result, bundle.lesson, checkpoints, learner.grade,
                                                         generated_at, learner.not_started))
             for learner in view.learners}
    _write_feedback_folder(out_dir, pages)


def _one_page(learner: str, notes: list[str], render: Callable[[], str]) -> str:
    """One learner's feedback page. A page that cannot be made (a fault meeting one learner's
    data) becomes a short page that says so and a note for the teacher: every other learner still
    gets theirs, and the report and gradebook are written all the same."""
    try:
        return render()
    except Exception as error:  # one learner's page must never stop the class's
        notes.append(f"the feedback page of {learner!r} could not be made ({type(error).__name__}: {error}); "
                     "it says so instead")
        return feedback_unavailable(learner)


def _write_feedback_folder(out_dir: Path, pages: dict[str, str]) -> None:
    """feedback/<name>.html; pages of learners no longer in the batch are removed, so the folder
    can be handed out as it is."""
    folder = out_dir / FEEDBACK_DIR
    folder.mkdir(exist_ok=True)
    for name, page in pages.items():
        replace_file(folder / name, utf8_safe(page).encode("utf-8"))
    for stale in folder.glob("*.html"):
        if stale.name not in pages:
            stale.unlink()


def replace_file(path: Path, data: bytes) -> None:
    """Like batch.write_atomically (a reader sees the old page or the new) but without an fsync per
    file: the pages are made again from results.jsonl by any run, and a thousand fsyncs were a
    quarter of the time of the outputs."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        # Never through a link (as batch.write_atomically); the mode honours the umask.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def module_pass_percent(bundles: Sequence[Bundle], override: int | None) -> int:
    """The pass mark of a module's total: the flag, else the lessons' when they agree, else 55."""
    if override is not None:
        return override
    marks = {bundle.grading.pass_percent for bundle in bundles}
    return marks.pop() if len(marks) == 1 else DEFAULT_GRADING.pass_percent


@dataclass(frozen=True)
class ModuleTotal:
    """One module's total in a run: the lessons that count (fixed before any submission is read,
    runner.offline.grading.modules), its pass mark, and each learner's total (None: no gradable work)."""

    counted: CountedModule
    pass_percent: int
    max_points: int
    totals: dict[str, LearnerGrade | None]


@dataclass(frozen=True)
class ModuleRun:
    """What every output of a module run starts from, computed once."""

    totals: list[ModuleTotal]
    gradings: dict[str, LessonGrading]  # every lesson involved, counted lessons nobody handed in included
    strays: list[str]  # graded lessons no total counts
    views: dict[str, ClassView]  # per lesson handed in: its class view (with its grading and starter)


def module_totals(lessons: Sequence[LessonBatch], options: OutputOptions, corrections: Sequence[Correction],
                  starters: dict[str, str | None] | None = None) -> ModuleRun:
    """The totals of a module run, the grading of every lesson involved (counted lessons nobody
    handed in included: their points are part of the maximum), the stray lessons and each
    lesson's class view (`starters` per lesson, to tell who did not begin)."""
    checkpoints_dir = lessons[0].lesson_dir.parent
    tree = sorted(p.parent.name for p in checkpoints_dir.glob("*/checkpoints.toml"))
    named = [lesson.bundle.lesson for lesson in lessons]
    lessons_dir = options.lessons_dir if options.lessons_dir is not None else checkpoints_dir.parent / "lessons"
    counted = counted_modules(named, tree, lessons_dir if lessons_dir.is_dir() else None, options.counted_lessons)
    bundles = {lesson.bundle.lesson: lesson.bundle for lesson in lessons}
    for module in counted:
        for name in module.lessons:
            if name not in bundles:
                bundles[name] = load_bundle(checkpoints_dir / name, include_offline=True)
    gradings = {name: lesson_grading(bundle, corrections, options.pass_percent) for name, bundle in bundles.items()}
    views = {lesson.bundle.lesson: class_view(lesson.results, gradings[lesson.bundle.lesson],
                                              (starters or {}).get(lesson.bundle.lesson)) for lesson in lessons}
    latest = {name: {learner.result.learner: learner for learner in view.learners} for name, view in views.items()}
    found = []
    for module in counted:
        pass_percent = module_pass_percent([bundles[name] for name in module.lessons], options.pass_percent)
        maximum = sum(gradings[name].max_points for name in module.lessons)
        learners = {learner for name in module.lessons for learner in latest.get(name, {})}
        totals = {}
        for learner in learners:
            own = [latest.get(name, {}).get(learner) for name in module.lessons]
            grades = [view.grade if view is not None else None for view in own]
            totals[learner] = total_grade(grades, [gradings[name].max_points for name in module.lessons],
                                          pass_percent)
        found.append(ModuleTotal(module, pass_percent, maximum, totals))
    return ModuleRun(found, gradings, stray_lessons(named, counted), views)


def _write_module(lessons: Sequence[LessonBatch], unplaced: Sequence[ResultRecord], out_dir: Path,
                  options: OutputOptions, corrections: Sequence[Correction], generated_at: str,
                  notes: list[str]) -> None:
    delimiter = ";" if options.excel else ","
    starters = {lesson.bundle.lesson: read_starter(lesson.lesson_dir) for lesson in lessons}
    run = module_totals(lessons, options, corrections, starters)  # the class views, once
    modules, gradings, strays, views = run.totals, run.gradings, run.strays, run.views
    latest = {name: {learner.result.learner: learner for learner in view.learners} for name, view in views.items()}
    learners = sorted({learner for found in latest.values() for learner in found} | {r.learner for r in unplaced},
                      key=lambda name: (name.casefold(), name))
    grades: dict[str, dict[str, LearnerGrade | None]] = {
        name: {learner: view.grade for learner, view in found.items()} for name, found in latest.items()}
    batch.write_atomically(out_dir / batch.GRADEBOOK_FILE, _gradebook_bytes(
        module_gradebook_csv(learners, modules, grades, delimiter, options.language), options.excel))
    if len(modules) > 1:
        for module in modules:
            members = sorted(module.totals, key=lambda name: (name.casefold(), name))
            batch.write_atomically(out_dir / f"gradebook-module-{module.counted.module}.csv", _gradebook_bytes(
                module_gradebook_csv(members, [module], grades, delimiter, options.language), options.excel))
    for lesson in lessons:
        name = lesson.bundle.lesson
        text = gradebook_csv(lesson.results, [c.id for c in lesson.bundle.checkpoints], delimiter, gradings[name],
                             options.language, views[name])
        batch.write_atomically(out_dir / f"gradebook-{name}.csv", _gradebook_bytes(text, options.excel))
    parts = [LessonPart(
        lesson=lesson.bundle.lesson, results=lesson.results,
        checkpoints=[CheckpointInfo(c.id, c.title) for c in lesson.bundle.checkpoints],
        bundle_sha256=lesson.bundle.bundle_sha256,
        inputs=ReportInputs(grading=gradings[lesson.bundle.lesson], starter=starters[lesson.bundle.lesson],
                            language=options.language,
                            similar=_similar(views[lesson.bundle.lesson], starters[lesson.bundle.lesson], notes),
                            view=views[lesson.bundle.lesson]),
    ) for lesson in lessons]
    html = render_module_report(parts, unplaced, modules, strays, grades, learners, runner.__version__,
                                generated_at, options.language)
    html = html.replace("</body>", options.report_extra + "</body>") if options.report_extra else html
    batch.write_atomically(out_dir / batch.REPORT_FILE, utf8_safe(html).encode("utf-8"))
    if not options.feedback:
        return
    names = feedback_file_names(learners)
    pages = {}
    for learner in learners:
        own: list[LessonFeedback] = []
        for lesson in lessons:
            name = lesson.bundle.lesson
            view = latest[name].get(learner)
            if view is None:
                continue
            checkpoints = [FeedbackCheckpoint(c.id, c.title) for c in lesson.bundle.checkpoints]
            own.append(LessonFeedback(name, view.result, checkpoints, view.grade, view.not_started,
                                      counted=name not in strays))
        for result in unplaced:
            if result.learner == learner:
                own.append(LessonFeedback(result.lesson, result, [], None, counted=False))
        learner_totals = [ModuleFeedbackTotal(m.counted.module, m.counted.lessons, m.totals[learner])
                          for m in modules if learner in m.totals]
        pages[names[learner]] = _one_page(
            learner, notes,
            lambda learner=learner, own=own, learner_totals=learner_totals: render_module_feedback(
                learner, own, learner_totals, generated_at))
    _write_feedback_folder(out_dir, pages)
