"""`python build.py [--out DIR] [--strict] [--only ID] [--root DIR] [--gate-cache DIR]` and
`python build.py serve [--port N] [--only ID]`."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from builder.build_site import BuildReport, build_site
from builder.errors import BuildError, BuildWarning, each_error
from builder.load_lessons import select_lesson
from builder.paths import CODE_ROOT
from builder.verify_checkpoints import PassedGates

GATE_CACHE_VARIABLE = "WERKPLAATS_GATE_CACHE"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="build.py", description="Build the Werkplaats lesson site (and optionally serve it).")
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build",
                        help="'serve' builds, serves on 127.0.0.1 and rebuilds on changes")
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: _site/)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--only", metavar="ID", default=None,
                        help="build (or serve) the lesson with this id alone, fast: a site of one lesson")
    parser.add_argument("--root", type=Path, default=CODE_ROOT,
                        help="directory holding lessons/ and checkpoints/ (default: this project)")
    parser.add_argument("--port", type=int, default=8000, help="port for 'serve' (default: 8000)")
    parser.add_argument("--gate-cache", metavar="DIR", type=Path, default=os.environ.get(GATE_CACHE_VARIABLE) or None,
                        help="keep passed quality gates in DIR: a later build skips the gate of a lesson whose "
                             f"checkpoint files, runner and Python are unchanged (default: ${GATE_CACHE_VARIABLE}, "
                             "else none: every build gates every lesson)")
    arguments = parser.parse_args(argv)
    if arguments.out is None:
        arguments.out = arguments.root / "_site"
    return arguments


class ChangedWarnings:
    """The dev server rebuilds on every save: it prints warnings only when they differ from the
    ones it printed last, so a new mistake does not drown in the same old lines."""

    def __init__(self) -> None:
        self._last: list[BuildWarning] | None = None

    def filter(self, warnings: list[BuildWarning]) -> list[BuildWarning]:
        if warnings == self._last:
            return []
        self._last = warnings
        return warnings


def run_build(arguments: argparse.Namespace, passed_gates: PassedGates | None = None,
              shown_warnings: ChangedWarnings | None = None,
              error_lines: list[str] | None = None) -> BuildReport | None:
    """One build; prints warnings and the result. Returns None (after the error lines, which also
    go into `error_lines` when given) on failure."""
    started = time.perf_counter()
    if passed_gates is None and arguments.gate_cache is not None:
        passed_gates = PassedGates(kept_in=Path(arguments.gate_cache))
    try:
        report = build_site(arguments.root, arguments.out, strict=arguments.strict,
                            passed_gates=passed_gates, only=arguments.only)
    except BuildError as error:
        lines = print_errors(each_error(error))
    except OSError as error:
        lines = [f"cannot write the site: {error}"]
        print(lines[0], file=sys.stderr)
    else:
        lines = []
    if lines:
        if error_lines is not None:
            error_lines.extend(lines)
        return None
    warnings = shown_warnings.filter(report.warnings) if shown_warnings else report.warnings
    for warning in warnings:
        print(warning, file=sys.stderr)
    count = len(report.lessons)
    print(f"built {count} lesson{'s' if count != 1 else ''} into {arguments.out} "
          f"in {time.perf_counter() - started:.1f} s")
    return report


def print_errors(errors: list[BuildError]) -> list[str]:
    """Print one line per mistake (and a count when there are several); returns the lines."""
    lines = [str(error) for error in errors]
    if len(errors) > 1:  # one mistake stays one line
        lines.append(f"{len(errors)} mistakes; nothing was written")
    for line in lines:
        print(line, file=sys.stderr)
    return lines


def only_names_a_lesson(arguments: argparse.Namespace) -> bool:
    """Whether `--only ID` names a lesson; if not, says so (with a did-you-mean) in one line."""
    try:
        select_lesson(sorted((arguments.root / "lessons").glob("*.md")), arguments.only, arguments.root)
    except BuildError as error:
        print(error, file=sys.stderr)
        return False
    return True


def serve_rebuild(arguments: argparse.Namespace) -> Callable[[], list[str]]:
    """The (re)build of one serve session. It remembers which lessons passed the quality gate, so
    that a rebuild gates only the lessons whose gate inputs changed (a plain build gates them all),
    and which warnings it printed."""
    passed_gates = PassedGates(kept_in=arguments.gate_cache)
    shown_warnings = ChangedWarnings()

    def rebuild() -> list[str]:
        errors: list[str] = []
        run_build(arguments, passed_gates, shown_warnings, errors)
        return errors

    return rebuild


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.only is not None and not only_names_a_lesson(arguments):
        return 1  # before serving: a server for a lesson that does not exist serves nothing
    if arguments.command == "serve":
        from builder.serve import serve_and_rebuild

        return serve_and_rebuild(arguments, serve_rebuild(arguments))
    return 0 if run_build(arguments) is not None else 1
