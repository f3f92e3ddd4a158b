"""`python -m runner merge`: the results of `grade --shard` runs joined into one batch."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.text import Text

from runner.core.bundle import Bundle, load_bundle
from runner.offline.commands.arguments import UsageError, known_lessons, output_options
from runner.offline.commands.out_folder import refuse_linked_out, refuse_links_in
from runner.offline.commands.terminal import name_text, plural
from runner.offline.grading import batch
from runner.offline.grading.records import ResultRecord, read_results
from runner.offline.grading.row_checks import checked_row
from runner.offline.outputs.write import LessonBatch, write_outputs


def run_merge(args: argparse.Namespace) -> int:
    """Join the results of shard runs into one batch in --out: the same results.jsonl (sorted by
    path), gradebook, report and feedback as one run over all submissions would write."""
    checkpoints_dir = Path(args.checkpoints_dir)
    if not checkpoints_dir.is_dir():
        raise UsageError(f"checkpoints directory not found: {str(checkpoints_dir)!r}")
    out_dir = Path(args.out)
    refuse_linked_out(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out is not a directory: {args.out!r}")
    found: dict[str, tuple[ResultRecord, Path]] = {}
    for folder in map(Path, args.dirs):
        log = folder / batch.RESULTS_FILE
        if log.is_symlink():
            raise UsageError(f"{log} is a link, which merge does not follow: copy the shard's results.jsonl itself")
        if not log.is_file():
            raise UsageError(f"no {batch.RESULTS_FILE} in {str(folder)!r}")
        for result in read_results(log).results.values():
            earlier = found.get(result.submission)
            if earlier is not None and earlier[0].key != result.key:
                raise UsageError(f"{result.submission} was graded differently in {str(earlier[1])!r} and "
                                 f"{str(folder)!r} (another file or other tests): grade it in one shard only")
            found.setdefault(result.submission, (result, folder))
    results = [result for result, _folder in found.values()]
    known = known_lessons(checkpoints_dir)
    lessons, unplaced = [], []
    for lesson in sorted({r.lesson for r in results if r.bundle_sha256}):
        own = [r for r in results if r.lesson == lesson and r.bundle_sha256]
        if lesson not in known:
            raise UsageError(f"the results hold lesson {lesson!r}, which {str(checkpoints_dir)!r} does not have")
        bundle = load_bundle(checkpoints_dir / lesson, include_offline=True)
        stale = next((r for r in own if r.bundle_sha256 != bundle.bundle_sha256), None)
        if stale is not None:
            raise UsageError(f"{stale.submission} was graded with other tests of {lesson} than "
                             f"{str(checkpoints_dir / lesson)!r} holds now: grade it again")
        lessons.append(LessonBatch(bundle, checkpoints_dir / lesson, own))
    unplaced = [r for r in results if not r.bundle_sha256]
    if not lessons:
        raise UsageError("the results name no lesson to merge")
    # A shard's row is a claim: it is checked against the lesson and its file, and what comes
    # from the file is read from the file (runner.offline.grading.row_checks); a row that fails is left out.
    refused: list[str] = []

    def checked(rows: list[ResultRecord], bundle: Bundle | None) -> list[ResultRecord]:
        kept = []
        for row in rows:
            use, problem = checked_row(row, bundle)
            if use is None:
                refused.append(f"{row.submission} (from {found[row.submission][1]}): {problem}")
            else:
                kept.append(use)
        return kept

    lessons = [LessonBatch(lesson.bundle, lesson.lesson_dir, checked(lesson.results, lesson.bundle))
               for lesson in lessons]
    unplaced = checked(unplaced, None)
    out_dir.mkdir(parents=True, exist_ok=True)
    refuse_links_in(out_dir)
    notes = write_outputs(lessons, out_dir, output_options(args), unplaced)
    errors = Console(stderr=True, highlight=False)
    errors.soft_wrap = not errors.is_terminal
    for note in notes:
        errors.print(Text(f"note: {name_text(note)}"))  # text, not markup; names escaped
    merged = sum(len(lesson.results) for lesson in lessons) + len(unplaced)
    print(f"Merged {plural(merged, 'result')} from {plural(len(args.dirs), 'folder')}; wrote "
          f"{out_dir / batch.RESULTS_FILE}, {out_dir / batch.GRADEBOOK_FILE}, {out_dir / batch.REPORT_FILE}")
    if refused:
        for line in refused:
            errors.print(Text(f"refused: {name_text(line)}", style="red"))
        errors.print(f"{plural(len(refused), 'result')} refused and left out: grade those submissions again "
                     "(in a shard, then merge again)")
        return 1
    return 0
