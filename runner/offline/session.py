"""Grading a class: the use case behind `python -m runner grade`, from submissions read to outputs written.

The command line finds the submissions and says which lesson each is for (`LessonRun`); then it
only calls `plan_class` (what earlier runs left: the results log, the teacher's corrections) and
`grade_class` (grade what is missing in the sandbox, lesson by lesson, then write every output),
and prints what came of it. Progress is the caller's: `grade_class` reports each result as it
arrives. Grading is `grading/`, the sandbox `sandbox/`, the files `outputs/`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from runner.core.bundle import Bundle
from runner.core.lesson_config import LessonSettings
from runner.offline.grading import batch
from runner.offline.grading.records import ResultRecord
from runner.offline.grading.submission import Submission
from runner.offline.outputs.write import LessonBatch, OutputOptions, read_lesson_corrections, write_outputs
from runner.offline.sandbox.protocol import SandboxLimits


@dataclass
class LessonRun:
    """One lesson's share of a run: its checkpoints folder, its tests and its submissions."""

    lesson_dir: Path
    bundle: Bundle
    submissions: list[Submission]


@dataclass(frozen=True)
class ClassPlan:
    """What a run has to do: per lesson, which submissions still need a verdict."""

    runs: list[LessonRun]
    plans: list[batch.BatchPlan]  # one per run, in the same order
    unplaced: list[ResultRecord]  # submissions that name no lesson of the checkpoints tree
    out_dir: Path

    @property
    def to_grade(self) -> int:
        return sum(len(plan.to_grade) for plan in self.plans)

    @property
    def torn_bytes(self) -> int:
        """The torn last line of results.jsonl an interrupted run left, cut off when planning."""
        return sum(plan.torn_bytes for plan in self.plans)

    @property
    def lessons(self) -> str:
        return ", ".join(run.bundle.lesson for run in self.runs)


@dataclass(frozen=True)
class ClassGrading:
    """What grading a class came to: every result (graded now or kept) and the teacher's notes."""

    outcomes: list[batch.BatchOutcome]  # one per lesson
    unplaced: list[ResultRecord]
    notes: list[str]  # from writing the outputs (corrections that change nothing)
    lessons: list[LessonBatch]  # what the outputs were written from, per lesson (the LMS files too)

    @property
    def results(self) -> list[ResultRecord]:
        return [result for outcome in self.outcomes for result in outcome.results] + self.unplaced

    @property
    def graded_now(self) -> int:
        return sum(outcome.graded_now for outcome in self.outcomes) + len(self.unplaced)

    @property
    def reused(self) -> int:
        return sum(outcome.reused for outcome in self.outcomes)

    @property
    def seconds(self) -> float:
        return sum(outcome.seconds for outcome in self.outcomes)

    @property
    def failures(self) -> list[str]:
        """Submissions the grader itself failed on (not the learner's fault): a new run retries them."""
        return [failure for outcome in self.outcomes for failure in outcome.failures]


def plan_class(runs: list[LessonRun], unplaced: list[ResultRecord], out_dir: Path,
               regrade: bool = False) -> ClassPlan:
    """Read what is already in `out_dir` before anything is graded: a mistake in the teacher's
    corrections (CorrectionsError) or a line of results.jsonl this runner did not write
    (ResultsFileError) stops the run here."""
    read_lesson_corrections(out_dir, [run.bundle for run in runs])
    plans = [batch.plan_batch([], run.bundle, out_dir, regrade=regrade, submissions=run.submissions)
             for run in runs]
    return ClassPlan(runs, plans, unplaced, out_dir)


def grade_class(plan: ClassPlan, limits_for: Callable[[LessonSettings], SandboxLimits], jobs: int,
                options: OutputOptions, on_result: Callable[[ResultRecord], None] | None = None,
                on_graded: Callable[[], None] | None = None,
                learner_of: Callable[[str], str | None] | None = None) -> ClassGrading:
    """Grade what the plan says is missing, lesson by lesson, each in `jobs` sandboxed workers with
    the limits of that lesson's settings; then write every output of the run. `on_result` is
    called for each result as it arrives, `on_graded` once the grading is done and before the
    outputs are written (the command line ends its progress bar there). `learner_of` (an LMS
    download's) names the learner of a submission path, for results kept from an earlier run too."""
    outcomes = [batch.run_batch(lesson_plan, run.bundle, run.lesson_dir, plan.out_dir,
                                limits_for(run.bundle.settings), jobs, on_result=on_result)
                for run, lesson_plan in zip(plan.runs, plan.plans)]
    if on_graded is not None:
        on_graded()
    if learner_of is not None:
        for outcome in outcomes:
            outcome.results = [replace(result, learner=learner_of(result.submission) or result.learner)
                               for result in outcome.results]
    lessons = [LessonBatch(run.bundle, run.lesson_dir, outcome.results) for run, outcome in zip(plan.runs, outcomes)]
    notes = write_outputs(lessons, plan.out_dir, options, plan.unplaced)
    return ClassGrading(outcomes, plan.unplaced, notes, lessons)
