"""The class view every output starts from, computed once per lesson and shared by the gradebook,
the report and the feedback pages: each learner's most recent submission (and how many they
handed in), its grade, and whether it is the untouched starter ("not started").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from runner.offline.grading.grades import LearnerGrade, LessonGrading
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.similarity import not_started


def submission_order(result: ResultRecord) -> tuple[str, str]:
    """Oldest first: by the export's `created_at` (none sorts first), then by path."""
    return (result.created_at or "", result.submission)


def learner_order(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def latest_per_learner(results: Sequence[ResultRecord]) -> list[tuple[ResultRecord, int]]:
    """(result, number of submissions) for each learner, sorted by learner name."""
    groups: dict[str, list[ResultRecord]] = {}
    for result in results:
        groups.setdefault(result.learner, []).append(result)
    return [(max(groups[learner], key=submission_order), len(groups[learner]))
            for learner in sorted(groups, key=learner_order)]


def is_untouched(result: ResultRecord, starter: str | None) -> bool:
    """Graded work with no points whose code is (almost) the lesson's starter."""
    return bool(starter and result.graded and result.code is not None and result.score == 0
                and not_started(result.code, starter))


@dataclass(frozen=True)
class LearnerView:
    result: ResultRecord  # the learner's most recent submission: the one that counts
    submissions: int  # how many they handed in
    grade: LearnerGrade | None  # None without a grading, or for work that could not be graded
    not_started: bool


@dataclass(frozen=True)
class ClassView:
    """One lesson's results as every output shows them; `graded` says whether a grading was given."""

    learners: tuple[LearnerView, ...]  # sorted by learner name
    graded: bool = False

    @property
    def latest(self) -> list[ResultRecord]:
        return [learner.result for learner in self.learners]

    @property
    def latest_graded(self) -> list[ResultRecord]:
        return [learner.result for learner in self.learners if learner.result.graded]

    @property
    def grades(self) -> dict[str, LearnerGrade | None]:
        """By submission path; empty without a grading."""
        return {learner.result.submission: learner.grade for learner in self.learners} if self.graded else {}

    @property
    def not_started(self) -> set[str]:
        """The submission paths of the learners who did not begin."""
        return {learner.result.submission for learner in self.learners if learner.not_started}


def class_view(results: Sequence[ResultRecord], grading: LessonGrading | None = None,
               starter: str | None = None) -> ClassView:
    return ClassView(
        tuple(LearnerView(result, count, grading.grade(result) if grading is not None else None,
                          is_untouched(result, starter))
              for result, count in latest_per_learner(results)),
        graded=grading is not None,
    )
