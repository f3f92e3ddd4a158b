"""Points and the Dutch grade of a result (docs/grading.md, "Points and grades").

Points come from the lesson (`points` per checkpoint in checkpoints.toml, default 1), the pass mark
from its `[settings]` (`pass_percent`, default 55) or `--pass-percent`. They are applied when the
outputs are written, not stored in results.jsonl, so changing them needs no regrade.

The scale is the one Dutch schools use, 1 to 10 with one decimal, with the pass mark (the share
of the points that makes exactly a 5.5) as its bend:

    f = points / max_points, p = pass_percent / 100
    f <  p:  1 + 4.5 * f / p
    f >= p:  5.5 + 4.5 * (f - p) / (1 - p)

computed exactly (fractions, no floats) and rounded half up to one decimal (7.25 -> 7.3), except
that a score below the pass mark is never rounded up to a pass: it gets at most 5.4. So a grade
of 5.5 or more always means the pass mark was reached, as a teacher entering it expects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from runner.offline.grading.records import ResultRecord

PASS_GRADE = Decimal("5.5")
HIGHEST_BELOW_PASS = Decimal("5.4")


def dutch_grade(points: Fraction | Decimal | int, max_points: int, pass_percent: int) -> Decimal:
    """The grade, 1.0 to 10.0 with one decimal; points outside 0..max_points are clamped."""
    if max_points <= 0:
        raise ValueError("max_points must be more than 0")
    if not 0 < pass_percent < 100:
        raise ValueError("pass_percent must be between 0 and 100")
    share = min(max(Fraction(points) / max_points, Fraction(0)), Fraction(1))
    bend = Fraction(pass_percent, 100)
    if share < bend:
        exact = 1 + Fraction(9, 2) * share / bend
    else:
        exact = Fraction(11, 2) + Fraction(9, 2) * (share - bend) / (1 - bend)
    tenths = math.floor(exact * 10 + Fraction(1, 2))  # half up; every value here is positive
    grade = Decimal(tenths) / 10
    if share < bend and grade >= PASS_GRADE:
        return HIGHEST_BELOW_PASS
    return grade


def format_grade(grade: Decimal, decimal_comma: bool) -> str:
    """"7,3" for Dutch readers and Excel with Dutch settings, "7.3" otherwise."""
    text = f"{grade:.1f}"
    return text.replace(".", ",") if decimal_comma else text


def format_points(points: Decimal, decimal_comma: bool) -> str:
    """Whole points without decimals ("3"), others as written ("2.5" / "2,5")."""
    text = f"{points.normalize():f}" if points == points.to_integral_value() else f"{points:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",") if decimal_comma else text


@dataclass(frozen=True)
class Correction:
    """A teacher's change of one learner's points on one checkpoint (corrections.csv)."""

    learner: str
    lesson: str
    checkpoint: str
    points: Decimal  # added (negative: taken off)
    comment: str
    line: int  # in the corrections file, for the report


@dataclass(frozen=True)
class CheckpointPoints:
    id: str
    earned: Decimal  # after corrections, within 0..worth
    worth: int
    corrections: tuple[Correction, ...] = ()


@dataclass(frozen=True)
class LearnerGrade:
    points: Decimal
    max_points: int
    grade: Decimal
    passed: bool
    checkpoints: tuple[CheckpointPoints, ...] = ()

    @property
    def corrections(self) -> tuple[Correction, ...]:
        return tuple(c for checkpoint in self.checkpoints for c in checkpoint.corrections)


@dataclass(frozen=True)
class LessonGrading:
    """What a lesson's checkpoints are worth and where its pass mark is."""

    lesson: str
    points: dict[str, int]  # checkpoint id -> points, in lesson order
    pass_percent: int = 55
    corrections: Sequence[Correction] = field(default_factory=tuple)

    @property
    def max_points(self) -> int:
        return sum(self.points.values())

    def grade(self, result: ResultRecord) -> LearnerGrade | None:
        """Points of the checkpoints passed, each corrected by the teacher's lines for this
        learner. Work that could not be graded has no grade (None: an empty cell, never a 1.0
        beside real ones), unless the teacher gave it points by hand in corrections.csv."""
        if not result.graded and not any(c.learner == result.learner and c.lesson == self.lesson
                                          for c in self.corrections):
            return None
        statuses = result.statuses()
        found = []
        for checkpoint_id, worth in self.points.items():
            own = tuple(c for c in self.corrections
                        if c.learner == result.learner and c.lesson == self.lesson and c.checkpoint == checkpoint_id)
            base = Decimal(worth) if statuses.get(checkpoint_id) == "pass" else Decimal(0)
            earned = min(max(base + sum((c.points for c in own), Decimal(0)), Decimal(0)), Decimal(worth))
            found.append(CheckpointPoints(checkpoint_id, earned, worth, own))
        total = sum((c.earned for c in found), Decimal(0))
        grade = dutch_grade(total, self.max_points, self.pass_percent)
        return LearnerGrade(points=total, max_points=self.max_points, grade=grade,
                            passed=grade >= PASS_GRADE, checkpoints=tuple(found))


def total_grade(grades: Sequence[LearnerGrade | None], max_points: Sequence[int],
                pass_percent: int) -> LearnerGrade | None:
    """The grade over several lessons' points together (a module); a lesson without gradable work
    (None) counts as 0 of its points. No gradable work at all: no total either (None)."""
    if all(grade is None for grade in grades):
        return None
    points = sum((grade.points for grade in grades if grade is not None), Decimal(0))
    maximum = sum(max_points)
    grade = dutch_grade(points, maximum, pass_percent)
    return LearnerGrade(points=points, max_points=maximum, grade=grade, passed=grade >= PASS_GRADE)
