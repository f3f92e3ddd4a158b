"""The mutation gate's cost: a full `python -m runner mutate` run of rag-01, as CI does it.

Measured: the wall time of `runner.offline.gates.mutate.run_mutation` (make the mutants, grade each
with the shipped tests in --jobs worker processes, differential run of the survivors) and the
number of mutants; then the same with --jobs 1. Baseline, same run: one grading of the
reference solution with the same shipped bundle in-process (`InProcessHost`, the gate's 2 s call
limit), median of 7. Reported: seconds, mutants, the cost per mutant as a ratio to the baseline,
and the load average (other jobs on the machine slow every figure down alike).

    python bench/mutation.py [--lesson rag-01] [--jobs 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.core.bundle import load_bundle  # noqa: E402
from runner.core.grade import grade  # noqa: E402
from runner.core.host import InProcessHost  # noqa: E402
from runner.offline.gates.mutate import run_mutation  # noqa: E402
from runner.offline.gates.quality_gate import GATE_CALL_SECONDS  # noqa: E402

GOAL_SECONDS = 120.0


def baseline_seconds(lesson_dir: Path, rounds: int = 7) -> float:
    bundle = load_bundle(lesson_dir, include_offline=False)
    solution = (lesson_dir / "solution.py").read_text(encoding="utf-8")
    grade(bundle, InProcessHost(call_timeout=GATE_CALL_SECONDS), solution)  # builds the seeded cases once
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        grade(bundle, InProcessHost(call_timeout=GATE_CALL_SECONDS), solution)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="rag-01")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="full runs per job count; the median is reported")
    args = parser.parse_args()
    lesson_dir = ROOT / "checkpoints" / args.lesson
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    baseline = baseline_seconds(lesson_dir)
    print(f"baseline: one grading of the reference, in-process: {baseline * 1000:.0f} ms")
    failed = False
    for jobs in dict.fromkeys([args.jobs, 1]):
        runs = [run_mutation(lesson_dir, jobs=jobs) for _ in range(args.repeat)]
        seconds = statistics.median(run.seconds for run in runs)
        mutants = len(runs[0].results)
        per_mutant = seconds * jobs / mutants
        verdict = "met" if seconds < GOAL_SECONDS else "MISSED"
        print(f"--jobs {jobs}: {mutants} mutants in {seconds:.1f} s (runs: "
              f"{', '.join(f'{run.seconds:.1f}' for run in runs)}); {per_mutant * 1000:.0f} ms of a process per "
              f"mutant = {per_mutant / baseline:.1f}x the baseline; goal < {GOAL_SECONDS:.0f} s: {verdict}; "
              f"problems: {len(runs[0].problems)}")
        failed = failed or seconds >= GOAL_SECONDS or bool(runs[0].problems)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
