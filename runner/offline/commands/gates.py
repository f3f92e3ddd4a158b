"""`python -m runner gate` and `mutate`: the quality and mutation gates on one lesson's tests."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from runner.offline.commands.arguments import resolve_lesson
from runner.offline.commands.terminal import plural
from runner.offline.gates.mutate import render_mutation_report, run_mutation, undetected_by_inputs
from runner.offline.gates.mutation_files import INPUTS_FILE, MutationSetupError
from runner.offline.gates.quality_gate import KnownVerdict, gate_report, judge_known_solutions, known_solutions


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
    """The gate's answer for the builder on stdout: one `GateReport` (runner.offline.gates.gate_report)."""
    report = gate_report(lesson, lesson_dir)
    print(report.to_json())
    return 0 if report.passed else 1
