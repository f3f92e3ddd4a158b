"""Record what grading a lesson costs in deterministic terms: tests/lessons/<id>/budget.json.

    python tests/lessons/record_budget.py rag-01      # one lesson
    python tests/lessons/record_budget.py --all       # every lesson in checkpoints/

It grades the lesson's solution.py with every test through runner.offline.gates.budget.LoopbackHost
and writes the counts (learner calls, bytes each way, the largest line) per checkpoint.
tests/lessons/test_grade_budget.py then fails when a change makes grading dearer than the
budget by more than its margin. Raise a budget on purpose only: run `python bench/grade_batch.py`
before and after, and put its figures in the commit message beside the new budget.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from runner.offline.gates.budget import BUDGET_FILE, BudgetError, measure, over_budget, read_budget  # noqa: E402
from tests.lessons.lesson_tests import CHECKPOINTS_DIR, LESSON_IDS, LESSON_TESTS_DIR  # noqa: E402


def record(lesson_id: str) -> None:
    path = LESSON_TESTS_DIR / lesson_id / BUDGET_FILE
    costs = measure(CHECKPOINTS_DIR / lesson_id)
    if path.is_file():
        try:
            grown = over_budget(costs, read_budget(path))
        except BudgetError:
            grown = []
        for line in grown:
            print(f"{lesson_id}: raised: {line}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(costs.to_json(), encoding="utf-8")
    total = costs.total
    print(f"{path.relative_to(ROOT)}: {total.calls} calls, {total.bytes_sent} bytes sent, "
          f"{total.bytes_received} received, largest line {total.largest_line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lesson", nargs="?", help=f"a lesson id ({', '.join(LESSON_IDS)})")
    parser.add_argument("--all", action="store_true", help="every lesson")
    args = parser.parse_args()
    if args.all == (args.lesson is not None):
        parser.error("give one lesson id or --all")
    if args.lesson is not None and args.lesson not in LESSON_IDS:
        parser.error(f"unknown lesson {args.lesson!r} (known: {', '.join(LESSON_IDS) or 'none'})")
    try:
        for lesson_id in LESSON_IDS if args.all else [args.lesson]:
            record(lesson_id)
    except BudgetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
