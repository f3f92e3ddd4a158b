"""`python -m runner check`: one main.py graded in the sandbox and shown as the learner sees it, in Dutch."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.text import Text

from runner.core import messages
from runner.core.bundle import Bundle
from runner.core.grade import grade
from runner.core.model import GradeReport
from runner.offline.commands.arguments import UsageError, limits_from, load_lesson
from runner.offline.commands.terminal import terminal_text
from runner.offline.grading import batch
from runner.offline.grading.submission import (
    read_submission,
)
from runner.offline.sandbox.host import ChildProcessHost

STATUS_WORDS = {
    "pass": ("✓", "gehaald", "green"),
    "fail": ("✗", "niet gehaald", "red"),
    "error": ("!", "fout", "yellow"),
    "timeout": ("⏱", "te traag", "magenta"),
}


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
