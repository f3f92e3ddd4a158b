"""`python -m runner`: check one file as a learner, or grade a class's submissions as a teacher.

    python -m runner check main.py --lesson woorden-01
    python -m runner grade --lesson woorden-01 submissions/ --out graded/ [--jobs N] [--feedback]
    python -m runner grade module-exports/ --out graded/        # every lesson the exports name
    python -m runner grade ... --shard 2/4 --out shard-2/ ; python -m runner merge shard-*/ --out graded/
    python -m runner gate --lesson woorden-01 [--json]
    python -m runner mutate --lesson woorden-01

Exit codes: 0 all checkpoints pass (check) / the batch completed (grade) / every known solution
gets its known verdict (gate) / every mutant is killed or listed as equivalent (mutate); 1 some
checkpoint did not pass (check) / the grader itself failed (grade) / the gate found a problem
(gate, mutate); 2 usage errors, always with one line
`error: ...` on stderr. The learner's view (`check`) is in Dutch. This is the only runner module
that may use a third-party library (rich).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import NoReturn

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
from runner.core import messages
from runner.core.bundle import Bundle, BundleError, load_bundle
from runner.core.grade import grade
from runner.core.lesson_config import DEFAULT_SETTINGS, LessonSettings
from runner.core.model import GradeReport
from runner.offline import lms
from runner.offline.gates.mutate import (
    INPUTS_FILE,
    MutationSetupError,
    render_mutation_report,
    run_mutation,
    undetected_by_inputs,
)
from runner.offline.gates.quality_gate import KnownVerdict, check_quality_gate, judge_known_solutions, known_solutions
from runner.offline.grading import batch
from runner.offline.grading.corrections import CorrectionsError
from runner.offline.grading.records import ResultRecord, ResultsFileError, read_results
from runner.offline.grading.row_checks import checked_row
from runner.offline.grading.submission import (
    CollectedFiles,
    PathProblem,
    Submission,
    collect_submission_files,
    read_submission,
    read_submissions,
)
from runner.offline.lms import LMS_NAMES, LmsError
from runner.offline.outputs.feedback import FEEDBACK_DIR
from runner.offline.outputs.report import LANGUAGES, missing_protections
from runner.offline.outputs.write import LessonBatch, OutputOptions, write_outputs
from runner.offline.sandbox.host import MIB, ChildProcessHost, SandboxError, SandboxLimits
from runner.offline.session import LessonRun, grade_class, plan_class

DEFAULT_CHECKPOINTS_DIR = Path(runner.__file__).resolve().parent.parent / "checkpoints"
DEFAULTS = SandboxLimits()


class UsageError(Exception):
    """A mistake in how the command was called: one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0: {text!r}")
    return value


def _pass_percent(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= 99:
        raise argparse.ArgumentTypeError(f"must be from 1 to 99: {text!r}")
    return value


def _deadline(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date and time such as 2026-12-01T17:00: {text!r}") from None


def _lesson_list(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise argparse.ArgumentTypeError(f"must name at least one lesson: {text!r}")
    return names


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _add_common(parser: argparse.ArgumentParser, lesson_required: bool = True) -> None:
    if lesson_required:
        parser.add_argument("--lesson", required=True, help="lesson id, e.g. woorden-01")
    else:
        parser.add_argument("--lesson", default=None,
                            help="lesson id, e.g. woorden-01 (default: the lesson each JSON submission names)")
    parser.add_argument(
        "--checkpoints-dir", default=str(DEFAULT_CHECKPOINTS_DIR), metavar="DIR",
        help="the checkpoints tree holding <lesson>/checkpoints.toml (default: the project's)",
    )
    limits = parser.add_argument_group(
        "limits for the learner's code",
        "The time limits default to the lesson's [settings] in checkpoints.toml (docs/authoring.md); "
        "a flag overrides the lesson's value.")
    limits.add_argument("--call-timeout", type=_positive_float, default=None, metavar="SECONDS",
                        help="per call and for loading (default: the lesson's offline_call_seconds, "
                             f"else {DEFAULT_SETTINGS.offline_call_seconds})")
    limits.add_argument("--submission-timeout", type=_positive_float, default=None, metavar="SECONDS",
                        help="all calls of one submission (default: the lesson's offline_submission_seconds, "
                             f"else {DEFAULT_SETTINGS.offline_submission_seconds})")
    limits.add_argument("--check-timeout", type=_positive_float, default=None, metavar="SECONDS",
                        help="the calls of one checkpoint's shipped tests together, as the page limits a check "
                             f"(default: each checkpoint's check_seconds, else {DEFAULT_SETTINGS.check_seconds})")
    limits.add_argument("--memory-mb", type=_positive_int, default=DEFAULTS.memory_bytes // MIB,
                        metavar="MB", help=f"address space (default {DEFAULTS.memory_bytes // MIB})")
    limits.add_argument("--file-size-mb", type=_positive_int, default=DEFAULTS.file_bytes // MIB,
                        metavar="MB", help=f"largest file written (default {DEFAULTS.file_bytes // MIB})")
    limits.add_argument("--temp-size-mb", type=_positive_int, default=DEFAULTS.temp_bytes // MIB, metavar="MB",
                        help=f"each private /tmp, /var/tmp, /dev/shm, as root (default {DEFAULTS.temp_bytes // MIB})")
    limits.add_argument("--cgroup-limits", action="store_true",
                        help="cap memory and processes of a whole submission with a cgroup (as root; ~18%% slower)")
    limits.add_argument("--max-processes", type=_positive_int, default=DEFAULTS.processes,
                        metavar="N", help=f"processes of the sandbox user (default {DEFAULTS.processes})")


def _add_output_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--feedback", action="store_true",
                        help=f"also write {FEEDBACK_DIR}/<learner>.html: one Dutch feedback page per learner to hand back")
    parser.add_argument("--pass-percent", type=_pass_percent, default=None, metavar="P",
                        help="share of the points that makes a 5.5 (default: the lesson's pass_percent, else 55)")
    parser.add_argument("--report-language", choices=LANGUAGES, default="nl",
                        help="language of report.html and the gradebook (default nl; feedback pages are Dutch)")
    parser.add_argument("--lessons", type=_lesson_list, default=None, metavar="ID,ID",
                        help="a module run: one total over exactly these lessons (default: per module, its "
                             "published lessons)")
    parser.add_argument("--lessons-dir", default=None, metavar="DIR",
                        help="lesson files whose front matter names each lesson's module (default: lessons/ beside "
                             "the checkpoints tree)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m runner", description="Werkplaats checkpoint runner")
    parser.add_argument("--version", action="version", version=f"runner {runner.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = commands.add_parser("check", help="check one main.py as the learner sees it (Dutch)")
    check.add_argument("file", metavar="FILE.py")
    _add_common(check)
    grade = commands.add_parser("grade", help="grade a batch of submissions")
    grade.add_argument("paths", nargs="+", metavar="PATH", help=".py/.json files or folders of them")
    grade.add_argument("--out", required=True, metavar="DIR", help="output folder (resumable)")
    grade.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1, metavar="N",
                       help="submissions graded in parallel (default: number of CPUs)")
    grade.add_argument("--excel", action="store_true",
                       help="gradebook.csv for Excel with Dutch settings: ';' between columns, a UTF-8 BOM")
    grade.add_argument("--regrade", action="store_true",
                       help="grade everything again, ignoring earlier results in --out")
    grade.add_argument("--shard", type=parse_shard, default=None, metavar="K/N",
                       help="grade only the K-th of N deterministic shares of the submissions (join with merge)")
    grade.add_argument("--only", default=None, metavar="NAME",
                       help="grade again one learner (or one file) and rewrite the outputs; the others keep "
                            "their results")
    lms_flags = grade.add_argument_group(
        "from and to a learning environment",
        "PATH is the assignment's bulk download from the LMS (the zip, or the folder it unpacks to)")
    lms_flags.add_argument("--lms", choices=LMS_NAMES, default=None,
                           help="read PATH as this LMS's bulk download and write its grade import and feedback zip")
    lms_flags.add_argument("--class-list", default=None, metavar="FILE",
                           help="the LMS's own export linking learners to its ids: Brightspace's grades export, "
                                "Canvas's gradebook export, Moodle's grading worksheet")
    lms_flags.add_argument("--deadline", type=_deadline, default=None, metavar="TIME",
                           help="ISO time, e.g. 2026-12-01T17:00: per learner the newest attempt before it counts "
                                "(Brightspace); lateness only as the LMS records it")
    lms_flags.add_argument("--lms-item", default=None, metavar="NAME",
                           help="the grade item's name in the LMS (Canvas: 'Title (id)'); default: the lesson or module")
    lms_flags.add_argument("--moodle-language", choices=("nl", "en"), default="nl",
                           help="language of your Moodle, for the worksheet's headers when no worksheet is given "
                                "(default nl)")
    _add_output_flags(grade)
    _add_common(grade, lesson_required=False)
    merge = commands.add_parser("merge", help="join the outputs of grade --shard runs into one batch")
    merge.add_argument("dirs", nargs="+", metavar="DIR", help="the --out folders of the shards")
    merge.add_argument("--out", required=True, metavar="DIR", help="output folder of the whole batch")
    merge.add_argument("--checkpoints-dir", default=str(DEFAULT_CHECKPOINTS_DIR), metavar="DIR",
                       help="the checkpoints tree the shards were graded with (default: the project's)")
    merge.add_argument("--excel", action="store_true",
                       help="gradebook.csv for Excel with Dutch settings: ';' between columns, a UTF-8 BOM")
    _add_output_flags(merge)
    gate = commands.add_parser(
        "gate", help="check the lesson's tests: reference and correct/ pass, each wrong/ fails its checkpoint")
    gate.add_argument("--lesson", required=True, help="lesson id, e.g. woorden-01")
    gate.add_argument("--checkpoints-dir", default=str(DEFAULT_CHECKPOINTS_DIR), metavar="DIR",
                      help="the checkpoints tree holding <lesson>/checkpoints.toml (default: the project's)")
    gate.add_argument("--json", action="store_true",
                      help="one JSON object on stdout: every failure as a record (for the builder)")
    gate.add_argument("--verbose", action="store_true",
                      help="also print, per known solution, the test that decided its verdict and its message")
    mutate = commands.add_parser(
        "mutate", help="grade mechanically made wrong solutions of solution.py and correct/*.py: each must fail or be listed as equivalent")
    mutate.add_argument("--lesson", required=True, help="lesson id, e.g. woorden-01")
    mutate.add_argument("--checkpoints-dir", default=str(DEFAULT_CHECKPOINTS_DIR), metavar="DIR",
                        help="the checkpoints tree holding <lesson>/checkpoints.toml (default: the project's)")
    mutate.add_argument("--jobs", type=_positive_int, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="mutants graded in parallel (default: 2, or 1 on one CPU)")
    mutate.add_argument("--file", action="append", default=None, metavar="PATH",
                        help="mutate only this file (solution.py or correct/<name>.py; repeatable; default: all)")
    mutate.add_argument("--check-inputs", action="store_true",
                        help="also check that mutant_inputs.py tells every killed mutant apart (slower)")
    return parser


def run_mutate(args: argparse.Namespace) -> int:
    """The report on stdout; one `file:line: problem` line each on stderr, then a summary."""
    lesson_dir = resolve_lesson(Path(args.checkpoints_dir), args.lesson)
    try:
        run = run_mutation(lesson_dir, jobs=args.jobs, files=args.file)
    except MutationSetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(render_mutation_report(run), end="")
    problems = list(run.problems)
    if args.check_inputs:
        missed = undetected_by_inputs(run)
        for checkpoint, key in missed:
            problems.append(f"{lesson_dir / INPUTS_FILE}: no input tells this killed mutant apart on {checkpoint}: {key}")
        if not missed:
            print(f"{INPUTS_FILE} tells every killed mutant apart from the reference")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"mutation gate of {args.lesson}: {plural(len(problems), 'problem')}", file=sys.stderr)
        return 1
    print(f"mutation gate of {args.lesson}: every mutant is killed or listed as equivalent")
    return 0


def run_gate(args: argparse.Namespace) -> int:
    """One line per failure (a known solution that does not get its known verdict on one
    checkpoint), as `path: reason`; with --json, one JSON object on stdout instead (see
    `gate_json`), for the builder."""
    lesson_dir = resolve_lesson(Path(args.checkpoints_dir), args.lesson)
    if args.json:
        return gate_json(args.lesson, lesson_dir)
    causes, verdicts = judge_known_solutions(lesson_dir)
    if args.verbose:
        for verdict in verdicts:
            print(describe_verdict(verdict, lesson_dir))
    failures = causes or [failure for verdict in verdicts for failure in verdict.failures]
    for failure in failures:
        where = f"{failure.path}:{failure.line}" if failure.line else f"{failure.path}"
        print(f"{where}: {failure.reason}", file=sys.stderr)
    if causes:  # the known solutions were not judged: the cause is all there is to say
        return 1
    count = len(known_solutions(lesson_dir))
    if failures:
        off = len({failure.path for failure in failures})
        print(f"quality gate of {args.lesson}: {off} of {count} known solutions are off", file=sys.stderr)
        return 1
    print(f"quality gate of {args.lesson}: all {count} known solutions get their known verdict")
    return 0


def describe_verdict(verdict: KnownVerdict, lesson_dir: Path) -> str:
    """`wrong/x.py: <checkpoint>: 'test name' (fail): message`, or `correct/y.py: passes`."""
    known = verdict.known
    shown = known.path.relative_to(lesson_dir).as_posix() if known.path.is_relative_to(lesson_dir) else str(known.path)
    if known.must_pass:
        return f"{shown}: {'passes' if not verdict.failures else 'does not pass'}"
    test = verdict.deciding
    if test is None:
        return f"{shown}: {known.expected}: passes (no test catches it)"
    text = f"{shown}: {known.expected}: '{test.name}' ({test.status})"
    return text + (f": {test.message}" if test.message else "")


def gate_json(lesson: str, lesson_dir: Path) -> int:
    """`{"lesson", "known_solutions", "failures": [GateFailure records], "load_error"}` on stdout:
    `load_error` is null, or `{"file", "line", "reason", "text"}` when the tests cannot be loaded
    (`file` and `line` null when the mistake is in no single test file)."""
    answer: dict = {"lesson": lesson, "known_solutions": 0, "failures": [], "load_error": None}
    try:
        failures = check_quality_gate(lesson_dir)
        answer["known_solutions"] = len(known_solutions(lesson_dir))
        answer["failures"] = [failure.to_json(lesson_dir) for failure in failures]
    except BundleError as error:
        answer["load_error"] = {"file": error.file, "line": error.line, "reason": error.reason, "text": str(error)}
    print(json.dumps(answer, ensure_ascii=False, indent=1))
    return 1 if answer["failures"] or answer["load_error"] else 0


def limits_from(args: argparse.Namespace, settings: LessonSettings = DEFAULT_SETTINGS) -> SandboxLimits:
    """The lesson's time limits (checkpoints.toml), each replaced by its flag when given."""
    return SandboxLimits(
        call_seconds=settings.offline_call_seconds if args.call_timeout is None else args.call_timeout,
        submission_seconds=(settings.offline_submission_seconds if args.submission_timeout is None
                            else args.submission_timeout),
        check_seconds=args.check_timeout,
        memory_bytes=args.memory_mb * MIB,
        file_bytes=args.file_size_mb * MIB,
        temp_bytes=args.temp_size_mb * MIB,
        cgroup_limits=args.cgroup_limits,
        processes=args.max_processes,
    )


def known_lessons(checkpoints_dir: Path) -> list[str]:
    return sorted(p.parent.name for p in checkpoints_dir.glob("*/checkpoints.toml"))


def resolve_lesson(checkpoints_dir: Path, lesson: str) -> Path:
    if not checkpoints_dir.is_dir():
        raise UsageError(f"checkpoints directory not found: {str(checkpoints_dir)!r}")
    known = known_lessons(checkpoints_dir)
    if lesson not in known:
        raise UsageError(f"unknown lesson {lesson!r} (known: {', '.join(known) or 'none'})")
    return checkpoints_dir / lesson


def load_lesson(args: argparse.Namespace) -> tuple[Path, Bundle]:
    lesson_dir = resolve_lesson(Path(args.checkpoints_dir), args.lesson)
    return lesson_dir, load_bundle(lesson_dir, include_offline=True)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command == "check":
            return run_check(args)
        if args.command == "gate":
            return run_gate(args)
        if args.command == "mutate":
            return run_mutate(args)
        if args.command == "merge":
            return run_merge(args)
        return run_grade(args)
    # Every error line may quote a file name or a value from a learner's file (a path in a
    # shard's results.jsonl, say): control characters are shown as \xNN, never sent raw.
    except UsageError as error:
        print(f"error: {name_text(str(error))}", file=sys.stderr)
        return 2
    except BundleError as error:
        print(f"error: the tests of this lesson cannot be loaded: {name_text(str(error))}", file=sys.stderr)
        return 1
    except SandboxError as error:
        print(f"error: the sandbox could not be set up: {name_text(str(error))}", file=sys.stderr)
        return 1
    except (CorrectionsError, LmsError) as error:
        print(f"error: {name_text(str(error))}", file=sys.stderr)
        return 2
    except ResultsFileError as error:
        print(f"error: {name_text(str(error))} (a line this runner did not write: mend or delete it, "
              "or grade everything again with --regrade)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130


# ---- check: the learner's view -------------------------------------------------------------

STATUS_WORDS = {
    "pass": ("✓", "gehaald", "green"),
    "fail": ("✗", "niet gehaald", "red"),
    "error": ("!", "fout", "yellow"),
    "timeout": ("⏱", "te traag", "magenta"),
}
# Control characters (ANSI escapes included) from learner text must not reach the terminal.
# Bidi overrides and isolates too: they reorder what the terminal shows.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def utf8_safe(text: str) -> str:
    """Lone surrogates (from a learner's exception message, a JSON name, a non-UTF-8 file name)
    cannot be written as UTF-8: they become visible \\udXXX escapes instead of a crash."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _escape_one(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    return CONTROL_CHARACTERS.sub(_escape_one, utf8_safe(text))


# In a file name every control character is escaped, newlines and tabs too: one name, one line.
NAME_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def name_text(name: str) -> str:
    """A file name (or path) as the terminal may show it: control characters as \\xNN."""
    return NAME_CONTROL_CHARACTERS.sub(_escape_one, utf8_safe(name))


def render_check(report: GradeReport, bundle: Bundle, file_name: str, console: Console) -> None:
    console.print(Text.assemble(("Controle van ", "bold"), (terminal_text(file_name), "bold cyan"),
                                (f" voor les {bundle.lesson}", "bold")))
    if not report.load.ok and report.load.message:
        console.print(Text(terminal_text(report.load.message), style="yellow"))
    console.print()
    for result in report.checkpoints:
        spec = bundle.checkpoint(result.id)
        mark, word, colour = STATUS_WORDS.get(result.status, ("?", result.status, "white"))
        line = Text.assemble(
            (f"{mark} {result.id}", f"bold {colour}"),
            f" — {spec.title}  ",
            (f"{word}, {result.passed_count}/{len(result.tests)} tests", colour),
        )
        console.print(line)
        failure = result.first_failure
        if failure is not None and report.load.ok:
            console.print(Text(f"    {terminal_text(failure.name)}: {terminal_text(failure.message)}"))
            if failure.expected is not None:
                console.print(Text(f"      verwacht: {terminal_text(failure.expected)}", style="dim"))
            if failure.actual is not None:
                console.print(Text(f"      gekregen: {terminal_text(failure.actual)}", style="dim"))
        if result.uses_failing:
            console.print(Text(f"    {messages.uses_failing(result.uses_failing)}", style="yellow"))
    console.print()
    passed = report.score
    summary = f"{passed} van {report.max_score} checkpoints gehaald."
    if passed == report.max_score:
        summary += " Alles in orde!"
    console.print(Text(summary, style="bold green" if passed == report.max_score else "bold"))


def run_check(args: argparse.Namespace) -> int:
    lesson_dir, bundle = load_lesson(args)
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {args.file!r}")
    submission = read_submission(path, bundle.lesson)
    console = Console(highlight=False)
    # Wrapped to the terminal's width on a terminal; one line per line in a file or a pipe.
    console.soft_wrap = not console.is_terminal
    if not submission.valid or submission.code is None:
        console.print(Text(f"Je bestand kan niet worden nagekeken: {terminal_text(submission.problem or '')}",
                           style="bold red"))
        return 1
    hidden = batch.private_folders(lesson_dir, path.parent, [str(path.resolve())])
    limits = limits_from(args, bundle.settings)
    with ChildProcessHost(limits, hidden_paths=hidden, lesson_modules=bundle.settings.offline_modules) as host:
        report = grade(bundle, host, submission.code, check_limits=bundle.check_limits(limits.check_seconds))
    render_check(report, bundle, path.name, console)
    return 0 if report.score == report.max_score else 1


# ---- grade: the teacher's batch ------------------------------------------------------------


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def names_of(paths: list[Path], limit: int = 10) -> str:
    """File names for a one-line list, the first `limit` of them."""
    names = ", ".join(name_text(path.name) for path in paths[:limit])
    return names + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N`: the K-th of N shares (1 <= K <= N)."""
    found = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
        raise argparse.ArgumentTypeError(f"must be K/N with 1 <= K <= N, such as 2/4: {text!r}")
    return int(found.group(1)), int(found.group(2))


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


def output_options(args: argparse.Namespace) -> OutputOptions:
    if args.lessons is not None:
        known = known_lessons(Path(args.checkpoints_dir))
        unknown = [name for name in args.lessons if name not in known]
        if unknown:
            raise UsageError(f"--lessons names {', '.join(map(repr, unknown))}, which "
                             f"{str(args.checkpoints_dir)!r} does not have (known: {', '.join(known) or 'none'})")
    return OutputOptions(excel=args.excel, feedback=args.feedback, pass_percent=args.pass_percent,
                         language=args.report_language,
                         lessons_dir=Path(args.lessons_dir) if args.lessons_dir else None,
                         counted_lessons=args.lessons)


def refuse_linked_out(out_dir: Path) -> None:
    """--out itself must not be a link: root would write into (and remove pages from) whatever it
    points at. The folders above it are the teacher's own path and are not checked."""
    if out_dir.is_symlink():
        raise UsageError(f"--out is a link, which the grader does not follow: {name_text(str(out_dir))} "
                         "(give the folder itself, or another --out)")


def refuse_links_in(out_dir: Path) -> None:
    """The outputs are never written through a link: one already in --out stops the run."""
    refuse_linked_out(out_dir)
    link = batch.link_among_outputs(out_dir)
    if link is not None:
        raise UsageError(f"--out holds a link, which the grader does not follow: {name_text(str(link))} "
                         "(remove it, or choose another --out)")


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


# ---- merge: shards into one batch ----------------------------------------------------------


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
