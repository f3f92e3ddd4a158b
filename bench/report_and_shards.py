"""What a class's outputs cost beside the grading, and what sharding costs beside one run.

Part 1: --count rag-01 submissions (bench/grade_batch.py's class: correct in four styles,
known-wrong, broken; plus a tenth untouched starters) graded in this process the way `grade`
does (`plan_lessons`, `batch.plan_batch`, `batch.run_batch`, --jobs workers), then every output
written with `--feedback` (`outputs.write_outputs`: results.jsonl, gradebook, the Dutch report
with grades, not-started, grouped mistakes and the similarity check, one feedback page per
learner). Baseline, same run: the grading itself. Goal: outputs under 10 s for 1 000 submissions.

Part 2: the same batch as four `grade --shard K/4 --jobs 1` processes started together on this
machine, then `merge`, against one `grade --jobs 2` process (the same workers in all: at most four
shard workers on two cores vs two). Checked: the merged results, gradebook, report and feedback
equal the one run's (up to timestamps and durations). Reported: wall times and their ratio.

Timed both as wall time and as CPU time (this process and every process under it): on a shared
machine the wall times swing with the load, the CPU times much less.

    python bench/report_and_shards.py [--count 1000] [--jobs 2] [--shard-count N] [--only outputs|shards]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from grade_batch import generate  # noqa: E402

from runner.offline.commands.arguments import build_parser, limits_from  # noqa: E402
from runner.offline.commands.grade import plan_lessons  # noqa: E402
from runner.offline.grading import batch  # noqa: E402
from runner.offline.grading.submission import collect_submission_files  # noqa: E402
from runner.offline.outputs.write import LessonBatch, OutputOptions, write_outputs  # noqa: E402

GOAL_OUTPUT_SECONDS = 10.0
STARTER = (ROOT / "checkpoints" / "rag-01" / "starter.py").read_text(encoding="utf-8")


def make_class(folder: Path, count: int) -> None:
    generate(folder, count - count // 10)
    for index in range(count // 10):  # learners who did not begin
        (folder / f"starter{index:04d}.py").write_text(STARTER + f"\n# naam {index}\n")


def cpu_seconds() -> float:
    """User + system time of this process and of every process under it that has ended (the
    workers, their zygotes and learner children, once the pool is shut down)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def grade_in_process(folder: Path, out: Path, jobs: int) -> tuple[float, float, float, float, int]:
    """(grading wall and CPU seconds, output wall and CPU seconds, results) of one run."""
    args = build_parser().parse_args(["grade", "--lesson", "rag-01", str(folder), "--out", str(out),
                                      "--jobs", str(jobs), "--feedback"])
    out.mkdir(parents=True, exist_ok=True)
    files = collect_submission_files([str(folder)]).submissions
    started, cpu = time.perf_counter(), cpu_seconds()
    runs, unplaced = plan_lessons(args, files)
    lessons = []
    for run in runs:
        plan = batch.plan_batch([], run.bundle, out, submissions=run.submissions)
        outcome = batch.run_batch(plan, run.bundle, run.lesson_dir, out, limits_from(args, run.bundle.settings), jobs)
        lessons.append(LessonBatch(run.bundle, run.lesson_dir, outcome.results))
    grading, grading_cpu = time.perf_counter() - started, cpu_seconds() - cpu
    started, cpu = time.perf_counter(), cpu_seconds()
    write_outputs(lessons, out, OutputOptions(feedback=True), unplaced)
    outputs, outputs_cpu = time.perf_counter() - started, cpu_seconds() - cpu
    return grading, grading_cpu, outputs, outputs_cpu, sum(len(lesson.results) for lesson in lessons) + len(unplaced)


def command(folder: Path, out: Path, jobs: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "runner", "grade", "--lesson", "rag-01", str(folder), "--out", str(out),
            "--jobs", str(jobs), "--feedback", *extra]


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d \(UTC[+-]\d\d:\d\d\)|\d{4}-\d\d-\d\d")


def comparable(out: Path) -> tuple:
    results = []
    for line in (out / "results.jsonl").read_text().splitlines():
        record = json.loads(line)
        record.pop("graded_at")
        for checkpoint in record["checkpoints"]:
            for test in checkpoint["tests"]:
                test.pop("duration_ms")
        results.append(record)
    pages = {path.name: TIMESTAMP.sub("T", path.read_text()) for path in sorted((out / "feedback").iterdir())}
    return (results, (out / "gradebook.csv").read_bytes(), TIMESTAMP.sub("T", (out / "report.html").read_text()),
            pages)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("outputs", "shards"), default=None, help="run one part only")
    parser.add_argument("--shard-count", type=int, default=None,
                        help="submissions for part 2 (default: --count)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="werkplaats-bench-") as temporary:
        root = Path(temporary)
        if options.only != "shards":
            folder = root / "klas"
            folder.mkdir()
            make_class(folder, options.count)
            report_outputs(folder, root, options)
        if options.only == "outputs":
            return 0
        return compare_shards(root, options)


def report_outputs(folder: Path, root: Path, options: argparse.Namespace) -> None:
    with contextlib.redirect_stderr(io.StringIO()):
        grading, grading_cpu, outputs, outputs_cpu, results = grade_in_process(
            folder, root / "in-process", options.jobs)
    report_mb = (root / "in-process" / "report.html").stat().st_size / 1e6
    pages = len(list((root / "in-process" / "feedback").iterdir()))
    print(f"part 1: {results} submissions, --jobs {options.jobs}")
    print(f"  grading (baseline)             {grading:7.1f} s wall, {grading_cpu:7.1f} s CPU")
    print(f"  outputs with --feedback        {outputs:7.1f} s wall, {outputs_cpu:7.1f} s CPU "
          f"({outputs / grading:.3f}x the grading's wall time, {outputs_cpu / grading_cpu:.3f}x its CPU time; "
          f"goal < {GOAL_OUTPUT_SECONDS:.0f} s: {'met' if outputs < GOAL_OUTPUT_SECONDS else 'MISSED'})")
    print(f"  report.html {report_mb:.1f} MB, {pages} feedback pages")


def compare_shards(root: Path, options: argparse.Namespace) -> int:
    folder = root / "klas-shards"
    folder.mkdir()
    make_class(folder, options.shard_count or options.count)
    started = time.perf_counter()
    subprocess.run(command(folder, root / "one", options.jobs), cwd=ROOT, check=True, capture_output=True)
    one_run = time.perf_counter() - started
    started = time.perf_counter()
    shards = [root / f"shard-{number}" for number in range(1, 5)]
    running = [subprocess.Popen(command(folder, out, 1, "--shard", f"{number}/4"), cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
               for number, out in enumerate(shards, start=1)]
    for process in running:
        _out, error = process.communicate()
        if process.returncode != 0:
            print(error.decode(), file=sys.stderr)
            return 1
    sharded = time.perf_counter() - started
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "runner", "merge", *map(str, shards), "--out", str(root / "merged"),
                    "--feedback"], cwd=ROOT, check=True, capture_output=True)
    merging = time.perf_counter() - started
    merged, single = comparable(root / "merged"), comparable(root / "one")
    identical = merged == single
    for part, first, second in zip(("results", "gradebook", "report", "feedback"), merged, single):
        if first != second:
            print(f"  differs: {part}")
    if merged[0] != single[0]:  # which submissions, and is it a time limit (a loaded machine)?
        for first, second in zip(merged[0], single[0]):
            if first != second:
                statuses = [(c["id"], c["status"]) for c in first["checkpoints"]]
                others = [(c["id"], c["status"]) for c in second["checkpoints"]]
                print(f"  {Path(first['submission']).name}: merged {statuses} vs one run {others}")
    print(f"part 2: {options.shard_count or options.count} submissions, one run --jobs {options.jobs} vs four "
          "shards --jobs 1 at once, then merge")
    print(f"  one run                        {one_run:7.1f} s")
    print(f"  four shards                    {sharded:7.1f} s")
    print(f"  merge                          {merging:7.1f} s")
    print(f"  shards + merge / one run       {(sharded + merging) / one_run:7.2f}x")
    print(f"  merged outputs equal one run:  {'yes' if identical else 'NO'}")
    return 0 if identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
