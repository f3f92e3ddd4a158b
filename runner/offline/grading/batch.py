"""Grading a batch of submissions: parallel workers, a crash-safe results log, resuming.

`results.jsonl` is the source of truth. While a batch runs, every result is appended as one
whole line (a single write, then flush and fsync), so a run killed at any moment leaves only
complete lines, and at worst one torn last line from the kill itself, which the next run detects
and cuts off. A rerun with the same output directory grades only submissions whose key (path,
SHA-256 of the file, which covers the code, and the test bundle's hash) has no result yet. When
the batch is complete the log is rewritten (atomically) holding exactly this batch's results,
sorted by path, and the gradebook and report are written from it. The records themselves, and
the one writer and reader of their lines, are `runner.offline.grading.records`.

Each worker process owns one `ChildProcessHost`, so each learner's code runs in its own fresh
child; the tests run in the worker. This module is standard library only: the CLI draws the
progress bar from the `on_result` callback.
"""

from __future__ import annotations

import atexit
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path

import runner
from runner.core.bundle import Bundle, load_bundle
from runner.core.grade import grade
from runner.core.model import GradeReport
from runner.offline.grading.records import (
    CheckpointRecord,
    ResultKey,
    ResultRecord,
    SandboxRecord,
    cut_torn_last_line,
    read_results,
    record_line,
)
from runner.offline.grading.row_checks import consistency_problem, rederive
from runner.offline.grading.submission import Submission, read_submission
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.protocol import SandboxError, SandboxLimits
from runner.offline.sandbox.sandboxed_host import SandboxedHost

RESULTS_FILE = "results.jsonl"
GRADEBOOK_FILE = "gradebook.csv"
REPORT_FILE = "report.html"


def result_key(submission: str, source_sha256: str, bundle_sha256: str) -> ResultKey:
    return (submission, source_sha256, bundle_sha256)


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---- one submission ------------------------------------------------------------------------


def _record(submission: Submission, bundle: Bundle, status: str, score: int = 0,
            checkpoints: tuple[CheckpointRecord, ...] = (), message: str | None = None,
            sandbox: SandboxRecord | None = None) -> ResultRecord:
    """The record of a submission: what grading found, and what it was graded with."""
    return ResultRecord(
        submission=submission.path,
        learner=submission.learner,
        lesson=bundle.lesson,
        status=status,
        score=score,
        max_score=len(bundle.checkpoints),
        code_sha256=submission.code_sha256,
        source_sha256=submission.source_sha256,
        created_at=submission.created_at,
        lesson_revision=submission.lesson_revision,
        browser_verdicts=dict(submission.browser_verdicts),
        code=submission.code,
        runner_version=runner.__version__,
        bundle_sha256=bundle.bundle_sha256,
        graded_at=now_utc(),
        checkpoints=checkpoints,
        message=message,
        sandbox=sandbox,
    )


def invalid_result(submission: Submission, bundle: Bundle, message: str) -> ResultRecord:
    return _record(submission, bundle, "invalid", message=message)


def syntax_message(report: GradeReport) -> str:
    error = report.load.error
    if error is None:
        return "syntax error"
    where = f" on line {error.line}" if error.line is not None else ""
    return f"syntax error{where}: {error.message}"


def grade_submission(submission: Submission, bundle: Bundle, host: SandboxedHost) -> ResultRecord:
    """The result record (docs/grading.md) of one submission."""
    if not submission.valid:
        return invalid_result(submission, bundle, submission.problem or "invalid")
    assert submission.code is not None
    # The page's check limits apply offline too (runner.core.grade).
    report = grade(bundle, host, submission.code, check_limits=bundle.check_limits(host.limits.check_seconds))
    failure = host.sandbox_failure
    if failure:
        # The grader could not run the code at all: no verdict, so the next run tries again.
        raise SandboxError(failure)
    if report.load.problem == "syntax":
        return invalid_result(submission, bundle, syntax_message(report))
    return _record(
        submission, bundle, "graded", score=report.score,
        checkpoints=tuple(CheckpointRecord.from_result(checkpoint) for checkpoint in report.checkpoints),
        sandbox=sandbox_protections(host),
    )


def sandbox_protections(host: SandboxedHost) -> SandboxRecord:
    """Which of the sandbox's protections held for this submission (docs/grading.md): without the
    private filesystem, say, learner code could read the hidden tests and reference solutions."""
    report = host.zygote_report
    return SandboxRecord(
        sandbox_user=host.sandbox_uid is not None,
        private_filesystem=report is not None and report.private_filesystem,
        network_isolation=report is not None and report.network_isolated,
        # Recorded only when asked for (--cgroup-limits).
        cgroup_limits=(report is not None and report.cgroup is not None) if host.limits.cgroup_limits else None,
    )



# ---- the results log -----------------------------------------------------------------------


class ResultsLog:
    """Append-only writer: one whole line per result, durable before the next one starts."""

    def __init__(self, path: Path) -> None:
        # Never through a link (a root grader must not append to where a link points).
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)

    def append(self, result: ResultRecord) -> None:
        line = record_line(result)
        written = os.write(self.fd, line)
        while written < len(line):  # a short write is rare on a regular file, but possible
            written += os.write(self.fd, line[written:])
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


def link_among_outputs(out_dir: Path) -> Path | None:
    """A symbolic link anywhere in the output folder (where an output could go), or None. The
    outputs are written without following links (O_NOFOLLOW, or a rename over the path); a link
    that is there already is refused up front, with its name, rather than failing halfway. The
    output folder itself counts: os.walk would follow it."""
    if os.path.islink(out_dir):
        return Path(out_dir)
    for folder, directories, files in os.walk(out_dir):  # never into a linked folder
        for name in sorted(directories + files):
            if os.path.islink(os.path.join(folder, name)):
                return Path(folder) / name
    return None


def _current_umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it; put it back at once
    os.umask(mask)
    return mask


def write_atomically(path: Path, data: bytes) -> None:
    """Replace path with data: a reader (or a crash) sees the old file or the new, never half."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        # mkstemp makes the file private (0600); the outputs are for colleagues too: honour umask.
        os.fchmod(handle, 0o666 & ~_current_umask())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


# ---- workers -------------------------------------------------------------------------------

_worker_bundle: Bundle | None = None
_worker_host: ChildProcessHost | None = None


def private_folders(lesson_dir: Path, out_dir: Path, submission_paths: Iterable[str]) -> list[str]:
    """What learner code must not see: the checkpoints tree (hidden tests, reference solutions),
    the checkout it is in (its tests' golden pages and a built site hold the solutions too) and
    that checkout's history (.git), the results, and the folders the class's submissions are in.
    The learner root is an allow-list, so these matter only when one lies inside an allowed
    folder (a checkout under /usr, say; runner.offline.sandbox.learner_root.plan_learner_root)."""
    folders = {lesson_dir.parent, out_dir, *(Path(path).parent for path in submission_paths)}
    repository = next((folder / ".git" for folder in lesson_dir.resolve().parents if (folder / ".git").exists()), None)
    if repository is not None:
        folders.add(repository.parent)
        folders.update(_git_directories(repository))
    return sorted(str(folder) for folder in folders)


def _git_directories(dot_git: Path) -> list[Path]:
    """The folders that hold a checkout's history: .git itself or, for a worktree, where its
    `gitdir:` line points and the repository that shares its objects (`commondir`)."""
    if dot_git.is_dir():
        return [dot_git]
    try:
        line = dot_git.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return [dot_git]
    if not line.startswith("gitdir:"):
        return [dot_git]
    git_dir = (dot_git.parent / line.removeprefix("gitdir:").strip()).resolve()
    try:
        common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    except (OSError, UnicodeDecodeError):
        return [git_dir]
    return [git_dir, common]


def _worker_start(lesson_dir: str, limits: SandboxLimits, hidden: list[str]) -> None:
    global _worker_bundle, _worker_host
    _worker_bundle = load_bundle(Path(lesson_dir), include_offline=True)
    _worker_host = ChildProcessHost(limits, hidden_paths=hidden,
                                    lesson_modules=_worker_bundle.settings.offline_modules)
    # Worker processes exit through sys.exit, so atexit stops the zygote and its last child.
    atexit.register(_worker_host.close)


def _worker_grade(submission: Submission) -> ResultRecord:
    assert _worker_bundle is not None and _worker_host is not None
    try:
        return grade_submission(submission, _worker_bundle, _worker_host)
    finally:
        # Nothing of this learner's may still run while the next submission is graded.
        _worker_host.finish_submission()


# ---- the batch -----------------------------------------------------------------------------


@dataclass
class BatchPlan:
    submissions: list[Submission]  # every submission of this batch, in path order
    to_grade: list[Submission]  # those without a current result
    kept: dict[ResultKey, ResultRecord]  # the current results of the others, from an earlier run
    torn_bytes: int  # a torn last line cut off the log
    refused: list[str] = field(default_factory=list)  # "path: why" of earlier results graded again

    @property
    def reused(self) -> int:
        return len(self.kept)


@dataclass
class BatchOutcome:
    results: list[ResultRecord]  # one per submission, in path order
    graded_now: int
    reused: int
    failures: list[str]  # internal errors: these submissions have no result yet
    seconds: float


def plan_batch(files: Iterable[Path], bundle: Bundle, out_dir: Path, regrade: bool = False,
               submissions: list[Submission] | None = None) -> BatchPlan:
    """What is left to grade: of `files`, or of `submissions` already read (a module run reads
    every file once and hands each lesson its own). Raises records.ResultsFileError when the log
    holds a broken line (unless regrade, which does not read earlier results at all)."""
    log = out_dir / RESULTS_FILE
    if regrade:
        torn_bytes, done = cut_torn_last_line(log), {}
    else:
        existing = read_results(log, repair=True)
        torn_bytes, done = existing.torn_bytes, existing.results
    if submissions is None:
        submissions = [read_submission(path, bundle.lesson) for path in files]
    to_grade, kept, refused = [], {}, []
    for submission in submissions:
        key = result_key(submission.path, submission.source_sha256, bundle.bundle_sha256)
        if key not in done:
            to_grade.append(submission)
            continue
        # An earlier line is a claim (anyone who can write --out can write it): what comes from
        # the file is taken from the file, and a line that contradicts itself is graded again.
        claimed = done[key]
        row: ResultRecord | None = claimed
        problem = consistency_problem(claimed, bundle)
        if problem is None:
            row, problem = rederive(claimed, submission)
        if row is not None and problem is None:
            kept[key] = row
        else:
            refused.append(f"{submission.path}: {problem}")
            to_grade.append(submission)
    return BatchPlan(submissions=submissions, to_grade=to_grade, kept=kept, torn_bytes=torn_bytes, refused=refused)


def run_batch(
    plan: BatchPlan,
    bundle: Bundle,
    lesson_dir: Path,
    out_dir: Path,
    limits: SandboxLimits,
    jobs: int,
    on_result: Callable[[ResultRecord], None] | None = None,
) -> BatchOutcome:
    """Grade what the plan says is missing, appending each result to the log as it arrives."""
    started = time.monotonic()
    log = ResultsLog(out_dir / RESULTS_FILE)
    failures: list[str] = []
    current = dict(plan.kept)
    graded_now = 0

    def record(result: ResultRecord) -> None:
        nonlocal graded_now
        log.append(result)
        current[result.key] = result
        graded_now += 1
        if on_result is not None:
            on_result(result)

    try:
        # Invalid files need no sandbox: record them right away.
        remaining = []
        for submission in plan.to_grade:
            if submission.valid:
                remaining.append(submission)
            else:
                record(invalid_result(submission, bundle, submission.problem or "invalid"))
        if remaining:
            hidden = private_folders(lesson_dir, out_dir, (s.path for s in plan.submissions))
            failures = _grade_in_workers(remaining, lesson_dir, limits, jobs, record, hidden)
    finally:
        log.close()

    results = []
    for submission in plan.submissions:
        key = result_key(submission.path, submission.source_sha256, bundle.bundle_sha256)
        if key in current:
            results.append(current[key])
    return BatchOutcome(
        results=results,
        graded_now=graded_now,
        reused=plan.reused,
        failures=failures,
        seconds=time.monotonic() - started,
    )


# The batch's watchdog: a submission that keeps a worker busy for longer than its own time limit
# twice over (one may wait queued behind another in the same worker) plus this, has stalled the
# worker (whatever the cause: the grader's pipes, a test of the lesson, the system); the worker
# pool is then ended and started again, and the batch goes on without that submission.
WATCHDOG_GRACE_SECONDS = 60.0
WATCHDOG_POLL_SECONDS = 1.0


def worker_budget(limits: SandboxLimits) -> float:
    """Seconds one submission may keep a worker busy before the watchdog ends the worker."""
    return 2 * limits.submission_seconds + WATCHDOG_GRACE_SECONDS


def _new_pool(lesson_dir: Path, limits: SandboxLimits, jobs: int, hidden: list[str]) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=get_context("spawn"),
        initializer=_worker_start,
        initargs=(str(lesson_dir), limits, hidden),  # a frozen dataclass: pickled as it is
    )


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """Kill every worker of the pool now (a stalled one never returns on its own); their zygotes
    and learner children die with them (parent-death signals)."""
    # ProcessPoolExecutor has no public way to kill its workers; _processes is {pid: Process}.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def _grade_in_workers(
    submissions: list[Submission],
    lesson_dir: Path,
    limits: SandboxLimits,
    jobs: int,
    record: Callable[[ResultRecord], None],
    hidden: list[str],
) -> list[str]:
    """Grade in a pool of workers; never waits on one forever. A worker that stalls (see
    WATCHDOG_GRACE_SECONDS) or dies ends the pool: a new pool grades the rest, the submissions that
    were in flight are tried once more, and one that stalls a worker or is in flight when a pool
    breaks twice is reported as not graded."""
    failures: list[str] = []
    queue = list(reversed(submissions))
    breaks: dict[str, int] = {}  # submission path -> pools that broke while it was in flight
    budget = worker_budget(limits)
    # A small window in flight keeps memory flat however large the batch is.
    window = max(2, jobs * 4)
    pool = _new_pool(lesson_dir, limits, jobs, hidden)
    try:
        in_flight: dict[Future[ResultRecord], Submission] = {}
        started: dict[Future[ResultRecord], float] = {}  # when the pool handed it to a worker (as far as we see)
        while queue or in_flight:
            while queue and len(in_flight) < window:
                submission = queue.pop()
                in_flight[pool.submit(_worker_grade, submission)] = submission
            finished, _ = wait(in_flight, timeout=WATCHDOG_POLL_SECONDS, return_when=FIRST_COMPLETED)
            now = time.monotonic()
            for future in in_flight:
                if future.running() and future not in started:
                    started[future] = now
            stalled = [future for future in in_flight if future not in finished
                       and future in started and now - started[future] > budget]
            broken: list[Submission] = []  # finished only because the pool broke
            for future in finished:
                submission = in_flight.pop(future)
                started.pop(future, None)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken.append(submission)
                    continue
                except Exception as error:
                    failures.append(f"{submission.path}: {type(error).__name__}: {error}")
                    continue
                record(result)
            if not stalled and not broken:
                continue
            # End this pool and start a new one. A stalled submission is not tried again (it
            # would stall again); the others in flight are, but not after a second break.
            for future in stalled:
                failures.append(f"{in_flight.pop(future).path}: not graded (it kept its grading "
                                f"worker busy for more than {budget:g} s; the worker was ended)")
            again = broken + list(in_flight.values())
            in_flight.clear()
            started.clear()
            _end_pool(pool)
            for submission in again:
                if broken:
                    breaks[submission.path] = breaks.get(submission.path, 0) + 1
                if breaks.get(submission.path, 0) >= 2:
                    failures.append(f"{submission.path}: not graded (its grading worker stopped twice)")
                else:
                    queue.append(submission)
            pool = _new_pool(lesson_dir, limits, jobs, hidden)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return failures


def finish_batch(results: list[ResultRecord], out_dir: Path) -> None:
    """Rewrite the log with exactly this batch's results, sorted by path, atomically."""
    ordered = sorted(results, key=lambda result: result.submission)
    write_atomically(out_dir / RESULTS_FILE, b"".join(record_line(r) for r in ordered))
