"""gradebook.csv: one row per learner with the status of every checkpoint and the score.

A learner with several submissions in the batch gets the row of the most recent one (by the
submission's `created_at`, then by path); the `submissions` column says how many there were.
Every cell that a spreadsheet could read as a formula (starting with =, +, -, @, tab or carriage
return) gets a leading apostrophe, so a learner named `=HYPERLINK(...)` stays text.
"""

from __future__ import annotations

import csv
import io
from typing import Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def latest_per_learner(results: Sequence[dict]) -> list[tuple[dict, int]]:
    """(result, number of submissions) for each learner, sorted by learner name."""
    groups: dict[str, list[dict]] = {}
    for result in results:
        groups.setdefault(result["learner"], []).append(result)
    chosen = []
    for learner in sorted(groups, key=lambda name: (name.casefold(), name)):
        group = groups[learner]
        latest = max(group, key=lambda r: (str(r.get("created_at") or ""), r["submission"]))
        chosen.append((latest, len(group)))
    return chosen


def gradebook_csv(results: Sequence[dict], checkpoint_ids: Sequence[str], delimiter: str = ",") -> str:
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\n", delimiter=delimiter)
    writer.writerow(["learner", "submission", "status", "score", "max_score", *checkpoint_ids,
                     "submissions", "message", "browser_disagrees"])
    for result, count in latest_per_learner(results):
        statuses = {c["id"]: c["status"] for c in result.get("checkpoints", [])}
        # Checkpoints where the learner's browser showed another verdict than the grader's.
        disagrees = [checkpoint_id for checkpoint_id, verdict in sorted(result.get("browser_verdicts", {}).items())
                     if verdict != statuses.get(checkpoint_id)]
        row = [
            result["learner"],
            result["submission"],
            result["status"],
            result["score"],
            result["max_score"],
            *(statuses.get(checkpoint_id, "") for checkpoint_id in checkpoint_ids),
            count,
            result.get("message", ""),
            " ".join(disagrees),
        ]
        writer.writerow([safe_cell(cell) for cell in row])
    return output.getvalue()
