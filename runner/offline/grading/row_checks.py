"""Checking result rows this run did not grade itself: a resumed `results.jsonl` and the shards
`merge` joins (docs/grading.md, "Resuming" and "Beyond one machine").

A row is a claim. What can be worked out again is: what comes from the submission file (its
hash, the learner, the code, `created_at`, the browser's verdicts: re-read from the file, never
taken from the row) and what follows from the statuses (a checkpoint's status from its tests, the
score from the checkpoints, the checkpoints from the lesson's tests). A row whose file is not
there or has changed, or that contradicts itself or the lesson, is refused with one line; a
consistent row's verdicts are what its grader found, and are kept (they cannot be checked
without grading again).
"""

from __future__ import annotations

import os
from dataclasses import replace

from runner.core.bundle import Bundle
from runner.offline.grading.records import ResultRecord
from runner.offline.grading.submission import Submission, read_submission, read_submissions

SYNTAX_MESSAGE_START = "syntax error"  # the one invalid verdict that comes from the sandbox


def consistency_problem(row: ResultRecord, bundle: Bundle | None) -> str | None:
    """Why the row cannot be what this runner writes for `bundle` (None: a row for no lesson of
    the checkpoints tree), or None."""
    if not row.graded:
        if row.score != 0 or row.checkpoints:
            return f"an invalid result with score {row.score} and {len(row.checkpoints)} checkpoints"
        return None
    if bundle is None:
        return "a graded result for no lesson of this checkpoints tree"
    if row.lesson != bundle.lesson:
        return f"a result of lesson {row.lesson!r} among those of {bundle.lesson!r}"
    ids = [spec.id for spec in bundle.checkpoints]
    if [checkpoint.id for checkpoint in row.checkpoints] != ids:
        return f"its checkpoints are not those of {bundle.lesson} ({', '.join(ids)})"
    if row.max_score != len(ids):
        return f"max_score {row.max_score}, but {bundle.lesson} has {len(ids)} checkpoints"
    for checkpoint in row.checkpoints:
        if not checkpoint.tests:
            return f"checkpoint {checkpoint.id} has no tests"
        derived = next((test.status for test in checkpoint.tests if test.status != "pass"), "pass")
        if checkpoint.status != derived:
            return f"checkpoint {checkpoint.id} is '{checkpoint.status}', but its tests make it '{derived}'"
    passed = sum(1 for checkpoint in row.checkpoints if checkpoint.status == "pass")
    if row.score != passed:
        return f"score {row.score}, but {passed} checkpoints pass"
    return None


def rederive(row: ResultRecord, submission: Submission) -> tuple[ResultRecord | None, str | None]:
    """The row with everything that comes from the file taken from `submission` (the file as read
    now), or (None, why it is refused)."""
    if submission.path != row.submission:
        return None, "its file holds no such submission now"
    if not submission.source_sha256:
        return None, f"its file cannot be read now ({submission.problem})"
    if submission.source_sha256 != row.source_sha256:
        return None, "its file has changed since it was graded"
    message = row.message
    if submission.valid:
        if not row.graded and not (row.message or "").startswith(SYNTAX_MESSAGE_START):
            return None, "invalid, but its file can be graded"
    else:
        if row.graded:
            return None, f"graded, but its file cannot be ({submission.problem})"
        message = submission.problem
    return replace(
        row, learner=submission.learner, code=submission.code, code_sha256=submission.code_sha256,
        created_at=submission.created_at, lesson_revision=submission.lesson_revision,
        browser_verdicts=dict(submission.browser_verdicts), message=message,
    ), None


def submission_now(row: ResultRecord, lesson: str | None) -> Submission | None:
    """The submission at the row's path as its file reads now (a module export's entry for a
    path that ends in `#<lesson>`), or None when the file holds none at that path."""
    path = row.submission
    if row.lesson and path.endswith(f"#{row.lesson}"):
        file = path[: -len(row.lesson) - 1]
        if file.endswith(".json"):
            found = [s for s in read_submissions(file, lesson) if s.path == path]
            if found:
                return found[0]
    if not os.path.isabs(path):
        return None
    found = [s for s in read_submissions(path, lesson) if s.path == path]
    if found:
        return found[0]
    alone = read_submission(path, lesson)
    return alone if alone.path == path else None


def checked_row(row: ResultRecord, bundle: Bundle | None) -> tuple[ResultRecord | None, str | None]:
    """A row from elsewhere (a shard), checked against the lesson and re-derived from its file:
    (the row to use, None) or (None, why it is refused)."""
    problem = consistency_problem(row, bundle)
    if problem is not None:
        return None, problem
    submission = submission_now(row, bundle.lesson if bundle is not None else None)
    if submission is None:
        return None, "its file is not there"
    if bundle is None:
        # A row for no lesson of the tree: its file must still be the one recorded.
        if submission.source_sha256 != row.source_sha256 or not submission.source_sha256:
            return None, "its file is not there or has changed since it was graded"
        return replace(row, learner=submission.learner, code=submission.code, code_sha256=submission.code_sha256,
                       created_at=submission.created_at, browser_verdicts=dict(submission.browser_verdicts)), None
    return rederive(row, submission)
