"""`python -m runner grade`: find the submissions and the lesson each is for, then the grading session
(runner.offline.session) grades the class and writes the outputs; this prints what came of it."""

from __future__ import annotations

import argparse
import os
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

import runner
from runner.core.bundle import Bundle, load_bundle
from runner.offline import lms
from runner.offline.commands.arguments import (
    UsageError,
    known_lessons,
    limits_from,
    load_lesson,
    output_options,
    resolve_lesson,
)
from runner.offline.commands.out_folder import refuse_linked_out, refuse_links_in
from runner.offline.commands.terminal import name_text, names_of, plural
from runner.offline.grading import batch
from runner.offline.grading.records import ResultRecord, read_results
from runner.offline.grading.submission import (
    CollectedFiles,
    PathProblem,
    Submission,
    collect_submission_files,
    read_submissions,
)
from runner.offline.outputs.feedback import FEEDBACK_DIR
from runner.offline.outputs.findings import missing_protections
from runner.offline.session import LessonRun, grade_class, plan_class


def shard_of(files: list[Path], shard: tuple[int, int] | None) -> list[Path]:
    """Every N-th file of the sorted list, from the K-th on: deterministic, balanced, and the same
    on every machine that is given the same files (docs/grading.md, "Beyond one machine")."""
    if shard is None:
        return files
    number, count = shard
    return [path for index, path in enumerate(files) if index % count == number - 1]


def unplaced_result(submission: Submission, message: str) -> ResultRecord:
    """An invalid result of a submission that names no lesson this checkpoints tree has."""
    return ResultRecord(
        submission=submission.path, learner=submission.learner, lesson=submission.lesson or "", status="invalid",
        score=0, max_score=0, code_sha256=submission.code_sha256, source_sha256=submission.source_sha256,
        runner_version=runner.__version__, bundle_sha256="", graded_at=batch.now_utc(), message=message,
        created_at=submission.created_at, browser_verdicts=dict(submission.browser_verdicts), code=submission.code,
    )


def plan_lessons(args: argparse.Namespace, files: list[Path]) -> tuple[list[LessonRun], list[ResultRecord]]:
    """Which lesson each submission is for: `--lesson`, else the lesson each names (JSON and module
    exports do; a .py file does not). Those naming no known lesson become invalid results."""
    checkpoints_dir = Path(args.checkpoints_dir)
    if args.lesson is not None:
        lesson_dir, bundle = load_lesson(args)
        submissions = [s for path in files for s in read_submissions(path, bundle.lesson)]
        return [LessonRun(lesson_dir, bundle, submissions)], []
    if not checkpoints_dir.is_dir():
        raise UsageError(f"checkpoints directory not found: {str(checkpoints_dir)!r}")
    known = known_lessons(checkpoints_dir)
    grouped: dict[str, list[Submission]] = {}
    unplaced: list[ResultRecord] = []
    for path in files:
        for submission in read_submissions(path, None):
            if submission.lesson in known:
                grouped.setdefault(submission.lesson, []).append(submission)
            elif submission.lesson is None:
                unplaced.append(unplaced_result(submission, submission.problem or "names no lesson"))
            else:
                unplaced.append(unplaced_result(
                    submission, f"submission is for lesson {submission.lesson!r}, which this checkpoints tree does "
                                f"not have (known: {', '.join(known) or 'none'})"))
    if not grouped:
        raise UsageError("no submission names a lesson of the checkpoints tree: give --lesson "
                         "(.py files do not say which lesson they are for)")
    runs = [LessonRun(checkpoints_dir / lesson, load_bundle(checkpoints_dir / lesson, include_offline=True),
                      grouped[lesson]) for lesson in sorted(grouped)]
    return runs, unplaced


def batch_files(paths: list[Path]) -> CollectedFiles:
    return CollectedFiles(sorted(paths, key=str), [])


def lms_identities(run: lms.LmsRun, runs: list[LessonRun], unplaced: list[ResultRecord],
                   lesson: str | None) -> tuple[list[LessonRun], list[ResultRecord]]:
    """Every submission of a download is the learner the LMS says (never the name a JSON export
    claims); an attempt without a file to grade is an invalid submission with its reason."""
    for lesson_run in runs:
        lesson_run.submissions = [replace(s, learner=run.learner_of(s.path) or s.learner)
                                  for s in lesson_run.submissions]
    unplaced = [replace(r, learner=run.learner_of(r.submission) or r.learner) for r in unplaced]
    for item in run.chosen:
        problem = run.problems.get(id(item))
        if problem is None:
            continue
        submission = Submission(str(run.staged[id(item)]), item.learner, "", lesson=lesson, problem=problem)
        if lesson is not None and runs:
            runs[0].submissions.append(submission)
        else:
            unplaced.append(unplaced_result(submission, problem))
    return runs, unplaced


def narrow_to(plans: list, bundles: list[Bundle], out_dir: Path, only: str) -> list[str]:
    """--only: grade again exactly the submissions of one learner (or one file). Every other
    submission keeps the result it has in results.jsonl, even when its file changed since (a note
    names those); one without any result is left out until a run without --only."""
    absolute = os.path.abspath(only)

    def wanted(submission: Submission) -> bool:
        path = submission.path.split("#", 1)[0]
        return submission.learner == only or Path(path).name == only or path == absolute

    if not any(wanted(s) for plan in plans for s in plan.submissions):
        raise UsageError(f"--only {only!r}: no learner or file of that name in this batch")
    earlier = read_results(out_dir / batch.RESULTS_FILE, repair=True).results.values()
    by_path = {(result.submission, result.bundle_sha256): result for result in earlier}
    changed, left = [], 0
    for plan, bundle in zip(plans, bundles):
        kept_paths = {key[0] for key in plan.kept}
        submissions = []
        for submission in plan.submissions:
            old = by_path.get((submission.path, bundle.bundle_sha256))
            if wanted(submission):
                plan.kept.pop(batch.result_key(submission.path, submission.source_sha256, bundle.bundle_sha256), None)
            elif submission.path not in kept_paths and old is not None:
                # Its file changed since it was graded: the earlier result stays, as asked.
                submission = replace(submission, source_sha256=old.source_sha256)
                plan.kept[old.key] = old
                changed.append(name_text(Path(submission.path.split("#", 1)[0]).name))
            elif submission.path not in kept_paths:
                left += 1
            submissions.append(submission)
        plan.submissions = submissions
        plan.to_grade = [s for s in submissions if wanted(s)]
    notes = []
    if changed:
        notes.append(f"--only {only}: kept the earlier result of {', '.join(changed)}, whose file changed since "
                     "(grade without --only to update)")
    if left:
        notes.append(f"--only {only}: {plural(left, 'other submission')} without a result yet left ungraded")
    return notes


def run_grade(args: argparse.Namespace) -> int:
    if args.lesson is not None:
        resolve_lesson(Path(args.checkpoints_dir), args.lesson)  # a misspelt lesson before anything else
    out_dir = Path(args.out)
    refuse_linked_out(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out is not a directory: {args.out!r}")
    lms_run = None
    if args.lms is not None:
        if len(args.paths) != 1:
            raise UsageError("--lms reads one bulk download: the zip, or the folder it unpacks to")
        if args.shard is not None:
            raise UsageError("--lms and --shard do not go together: grade the download on one machine")
        out_dir.mkdir(parents=True, exist_ok=True)
        refuse_links_in(out_dir)
        lms_run = lms.prepare(Path(args.paths[0]), args.lms, out_dir,
                              Path(args.class_list) if args.class_list else None, args.deadline)
        collected = batch_files([path for item in lms_run.chosen if id(item) not in lms_run.problems
                                 for path in [lms_run.staged[id(item)]]])
    else:
        if args.class_list or args.deadline or args.lms_item:
            raise UsageError("--class-list, --deadline and --lms-item need --lms (the download's LMS)")
        try:
            collected = collect_submission_files(args.paths)
        except PathProblem as problem:
            raise UsageError(str(problem)) from None
    files = collected.submissions
    if not files and not (lms_run and lms_run.problems):
        raise UsageError("no .py or .json submissions found in the given paths")
    files = shard_of(files, args.shard)
    if not files:
        raise UsageError(f"shard {args.shard[0]}/{args.shard[1]} holds no submissions (there are fewer than "
                         f"{args.shard[1]})")
    options = output_options(args)  # a misspelt --lessons before anything is graded
    runs, unplaced = plan_lessons(args, files)
    if lms_run is not None:
        runs, unplaced = lms_identities(lms_run, runs, unplaced, args.lesson)
        options = replace(options, feedback=True, report_extra=lms.report_section(lms_run, args.report_language))
    out_dir.mkdir(parents=True, exist_ok=True)
    refuse_links_in(out_dir)
    plan = plan_class(runs, unplaced, out_dir, regrade=args.regrade)
    errors = Console(stderr=True, highlight=False)
    errors.soft_wrap = not errors.is_terminal  # one line per message in a log file
    if args.only is not None:
        only_notes = narrow_to(plan.plans, [run.bundle for run in runs], out_dir, args.only)
    torn = plan.torn_bytes
    if torn:
        errors.print(f"note: cut off a torn last line ({torn} bytes) left by an interrupted run")
    for refused in (line for lesson_plan in plan.plans for line in lesson_plan.refused):
        errors.print(Text(f"note: grading again, the earlier result is refused: {name_text(refused)}"))
    if collected.skipped:
        # Text, not markup: a name like "[bold]x.txt" is printed as it is.
        errors.print(Text(f"note: skipped {plural(len(collected.skipped), 'file')} that "
                          f"{'is' if len(collected.skipped) == 1 else 'are'} not .py or .json: "
                          f"{names_of(collected.skipped)}"))
    columns = (
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
    )
    # Nothing new to grade (a finished batch run again): no empty bar.
    with ExitStack() as bar:  # closed once the grading is done: the bar ends before the outputs are written
        progress = bar.enter_context(Progress(*columns, console=errors, disable=not plan.to_grade))
        task = progress.add_task(f"grading {plan.lessons}", total=plan.to_grade)
        # With an LMS download, results kept from an earlier run carry the names of this run's class list.
        graded_class = grade_class(plan, lambda settings: limits_from(args, settings), args.jobs, options,
                                   on_result=lambda result: progress.advance(task), on_graded=bar.close,
                                   learner_of=lms_run.learner_of if lms_run is not None else None)
    notes = graded_class.notes
    if lms_run is not None:
        lessons = graded_class.lessons
        item = args.lms_item or ", ".join(lesson.bundle.lesson for lesson in lessons)
        notes = [*lms_run.notes, *notes, *lms.write_lms_outputs(lms_run, lessons, out_dir, options, item,
                                                                   args.moodle_language)]
        notes.append(f"wrote {out_dir / lms.IMPORT_FILES[args.lms]} (if its ids are known), "
                     f"{out_dir / lms.FEEDBACK_PACKAGES[args.lms]} and {out_dir / 'lms-overzicht.csv'}")
    if args.only is not None:
        notes = [*only_notes, *notes]
    for note in notes:
        errors.print(Text(f"note: {name_text(note)}"))  # text, not markup; names escaped
    results = graded_class.results
    graded = sum(1 for r in results if r.graded)
    invalid = sorted((Path(r.submission) for r in results if not r.graded), key=str)
    print(
        f"{plural(len(results), 'submission')}: {graded} graded, {len(invalid)} invalid; "
        f"{graded_class.graded_now} new this run, {graded_class.reused} kept from an earlier run "
        f"({graded_class.seconds:.1f} s)."
    )
    if invalid:
        print(f"Invalid (reasons in the report): {names_of(invalid)}")
    missing = missing_protections(results)
    if missing:
        errors.print(f"warning: learner code ran without {', '.join(missing)} (see docs/grading.md, 'The "
                     "sandbox': as root on a machine that allows namespaces and cgroups they all hold; "
                     "results kept from an earlier run keep their record until --regrade)")
    feedback = (f" and {plural(len({r.learner for r in results}), 'feedback page')} in {out_dir / FEEDBACK_DIR}"
                if args.feedback else "")
    print(f"Wrote {out_dir / batch.RESULTS_FILE}, {out_dir / batch.GRADEBOOK_FILE}, "
          f"{out_dir / batch.REPORT_FILE}{feedback}")
    failures = graded_class.failures
    if failures:
        for failure in failures:
            errors.print(Text(f"not graded: {name_text(failure)}", style="red"))
        errors.print(f"{len(failures)} submission(s) could not be graded; run again to retry")
        return 1
    return 0
