"""corrections.csv: a teacher's manual corrections, beside the outputs in `--out` (docs/grading.md).

    learner,lesson,checkpoint,points,comment
    sanne,woorden-01,word_counts,+0.5,goede aanpak; alleen de lege tekst klopt niet
    bram,woorden-01,words,-1,gekopieerd uit de voorbeeldcode

The grader never writes this file, so every regrade keeps it; the gradebook, the report and the
feedback files apply it. `,` or `;` between the columns (Excel with Dutch settings writes `;`), a
byte order mark is ignored, `0,5` is read as `0.5`. Strict: a mistake is a `CorrectionsError`
whose text is `file:line: message`.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path

from runner.offline.grading.grades import Correction

CORRECTIONS_FILE = "corrections.csv"
COLUMNS = ("learner", "lesson", "checkpoint", "points", "comment")
MAX_CORRECTIONS_BYTES = 4 * 1024 * 1024
POINTS = re.compile(r"[+-]?\d{1,3}([.,]\d{1,2})?")


class CorrectionsError(ValueError):
    """A line of corrections.csv that cannot be used: `str()` is `path:line: message`."""


def read_corrections(path: Path, checkpoints: Mapping[str, Sequence[str]]) -> tuple[Correction, ...]:
    """The corrections in `path` (none when it does not exist); `checkpoints` maps each lesson id
    graded to its checkpoint ids, so a misspelt one is caught instead of silently ignored."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_CORRECTIONS_BYTES + 1)
    except FileNotFoundError:
        return ()
    except OSError as error:
        raise CorrectionsError(f"{path}: cannot read it ({error.strerror or error})") from None
    if len(data) > MAX_CORRECTIONS_BYTES:
        raise CorrectionsError(f"{path}: larger than {MAX_CORRECTIONS_BYTES // (1024 * 1024)} MiB; a corrections "
                               "file holds one short line per correction")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CorrectionsError(f"{path}: not UTF-8 text ({error.reason})") from None
    return _parse(path, text, checkpoints)


def _rows(reader, path: Path) -> Iterator[list[str]]:
    """The reader's rows; a line the csv module refuses (a field over its 128 KiB limit, a NUL
    byte) is one CorrectionsError naming the line, never a traceback."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise CorrectionsError(f"{path}:{reader.line_num}: not a readable CSV line ({error})") from None
        yield row


def _parse(path: Path, text: str, checkpoints: Mapping[str, Sequence[str]]) -> tuple[Correction, ...]:
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise CorrectionsError(f"{path}:1: the first line must be the header {','.join(COLUMNS)}")
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = _rows(reader, path)
    header = [cell.strip() for cell in next(rows, [])]
    if tuple(header) != COLUMNS:
        raise CorrectionsError(f"{path}:1: the header must be {','.join(COLUMNS)}, not {','.join(header)}")
    found = []
    for row in rows:
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(COLUMNS):
            raise CorrectionsError(f"{path}:{number}: expected {len(COLUMNS)} columns "
                                   f"({','.join(COLUMNS)}), found {len(row)}")
        learner, lesson, checkpoint, points, comment = (cell.strip() for cell in row)
        if not learner:
            raise CorrectionsError(f"{path}:{number}: the learner is empty")
        if lesson not in checkpoints:
            raise CorrectionsError(f"{path}:{number}: lesson {lesson!r} is not graded here "
                                   f"(graded: {', '.join(sorted(checkpoints))}){_did_you_mean(lesson, checkpoints)}")
        if checkpoint not in checkpoints[lesson]:
            raise CorrectionsError(f"{path}:{number}: lesson {lesson} has no checkpoint {checkpoint!r}"
                                   f"{_did_you_mean(checkpoint, checkpoints[lesson])}")
        if not POINTS.fullmatch(points):
            raise CorrectionsError(f"{path}:{number}: points must be a number such as +1, -0.5 or 2, "
                                   f"not {points!r}")
        try:
            value = Decimal(points.replace(",", "."))
        except InvalidOperation:  # the pattern above already allows only numbers
            raise CorrectionsError(f"{path}:{number}: points must be a number, not {points!r}") from None
        found.append(Correction(learner, lesson, checkpoint, value, comment, number))
    return tuple(found)


def _did_you_mean(name: str, known: Sequence[str] | Mapping[str, object]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_learners(corrections: Sequence[Correction], learners: set[str]) -> list[Correction]:
    """Corrections for learners this batch does not have (a typo, or a learner who handed in
    nothing yet): the CLI says so, since they change nothing."""
    return [correction for correction in corrections if correction.learner not in learners]
