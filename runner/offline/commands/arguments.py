"""The command line's arguments: the parser of every command, and what its flags mean (limits, lessons, outputs)."""

from __future__ import annotations

import argparse
import os
import re
from datetime import datetime
from pathlib import Path
from typing import NoReturn

import runner
from runner.core.bundle import Bundle, load_bundle
from runner.core.lesson_config import DEFAULT_SETTINGS, LessonSettings
from runner.offline.lms import LMS_NAMES
from runner.offline.outputs.feedback import FEEDBACK_DIR
from runner.offline.outputs.texts import LANGUAGES
from runner.offline.outputs.write import OutputOptions
from runner.offline.sandbox.protocol import MIB, SandboxLimits

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


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N`: the K-th of N shares (1 <= K <= N)."""
    found = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
        raise argparse.ArgumentTypeError(f"must be K/N with 1 <= K <= N, such as 2/4: {text!r}")
    return int(found.group(1)), int(found.group(2))


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
