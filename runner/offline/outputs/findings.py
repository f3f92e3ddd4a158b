"""What the report finds in a class's results, before any HTML: the test that stands for a load
problem, the most common mistakes, where the browser disagreed, the protections that did not hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from os.path import commonpath, dirname, relpath

from runner.core.messages import LOAD_TEST_NAME
from runner.offline.grading.records import CheckpointRecord, ResultRecord, TestRecord

ALL_CHECKPOINTS = "(all)"  # where a load problem is listed once instead of per checkpoint


MOST_FAILED_LIMIT = 15


def load_problem(result: ResultRecord) -> TestRecord | None:
    """The one test that stands for every checkpoint when the code did not load (or no function
    could be checked): then each checkpoint holds only that test, with the same message."""
    checkpoints = result.checkpoints
    firsts = [c.tests[0] for c in checkpoints if c.tests]
    if (len(firsts) == len(checkpoints) and firsts and all(t.name == LOAD_TEST_NAME for t in firsts)
            and len({t.message for t in firsts}) == 1):
        return firsts[0]
    return None


def _first_failures(result: ResultRecord) -> list[tuple[str, TestRecord]]:
    """(checkpoint id, test) for the test that decided each non-passing checkpoint's status; a
    load problem once, under ALL_CHECKPOINTS, instead of once per checkpoint."""
    problem = load_problem(result)
    if problem is not None:
        return [(ALL_CHECKPOINTS, problem)]
    found = []
    for checkpoint in result.checkpoints:
        test = checkpoint.first_failure
        if test is not None:
            found.append((checkpoint.id, test))
    return found


@dataclass
class MistakeGroup:
    checkpoint: str
    test: str
    learners: list[str] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    messages: Counter = field(default_factory=Counter)


def most_failed(latest_graded: Sequence[ResultRecord]) -> list[MistakeGroup]:
    """The most-failed tests over the learners' most recent submissions, each once with its
    learners and its messages by frequency. Only the test that decided a checkpoint's status
    counts: the rest of a checkpoint after a time-out or a load problem says nothing."""
    groups: dict[tuple[str, str], MistakeGroup] = {}
    for result in latest_graded:
        for checkpoint_id, test in _first_failures(result):
            group = groups.setdefault((checkpoint_id, test.name), MistakeGroup(checkpoint_id, test.name))
            group.learners.append(result.learner)
            group.statuses[test.status] += 1
            group.messages[test.message] += 1
    ordered = sorted(groups.values(), key=lambda g: (-len(g.learners), g.checkpoint, g.test))
    return ordered[:MOST_FAILED_LIMIT]


def missing_protections(results: Sequence[ResultRecord]) -> list[str]:
    """The sandbox protections that did not hold for at least one graded submission, sorted."""
    return sorted({name for result in results if result.sandbox is not None for name in result.sandbox.missing()})


def first_problem(checkpoint: CheckpointRecord) -> str:
    test = checkpoint.first_failure
    return "" if test is None else f"{test.name}: {test.message}"


def disagreements(results: Sequence[ResultRecord]) -> list[tuple[ResultRecord, str, str, str]]:
    """(result, checkpoint id, browser verdict, grader verdict) wherever the learner's browser
    showed another verdict than this grader reached, over every submission (superseded ones too)."""
    found = []
    for result in results:
        graded = result.statuses()
        for checkpoint_id, browser in sorted(result.browser_verdicts.items()):
            if result.graded and checkpoint_id not in graded:
                continue  # not a checkpoint of this lesson: nothing to compare with
            grader = graded.get(checkpoint_id, "invalid")
            if browser != grader:
                found.append((result, checkpoint_id, browser, grader))
    return found


def display_paths(results: Sequence[ResultRecord]) -> dict[str, str]:
    """Paths relative to the batch's common folder: shorter, and no teacher's home dir."""
    paths = [r.submission for r in results]
    if not paths:
        return {}
    try:
        root = commonpath(paths) if len(paths) > 1 else dirname(paths[0])
    except ValueError:
        return {p: p for p in paths}
    if root in paths:
        root = dirname(root)
    return {p: relpath(p, root) for p in paths}


def passes(result: ResultRecord, checkpoint_id: str) -> bool:
    return any(c.id == checkpoint_id and c.status == "pass" for c in result.checkpoints)
