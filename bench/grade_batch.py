"""Offline grading throughput: a class of generated submissions through `python -m runner grade`.

Generates --count submissions for rag-01 (about 40 % correct in four styles, 40 % known-wrong,
20 % broken: syntax errors, empty files, non-UTF-8 bytes, truncated JSON, another lesson), each
made unique by a comment, and grades them with `runner.offline.cli.main` in this process (so the
grader's own peak memory is this process's), --jobs workers, a fresh child process per
submission. Baseline, same run: the same tests on the reference solution in-process
(`InProcessHost`, no child, no JSON, no pipes).

Reported: submissions per second; the cost of one graded submission (wall time x jobs / graded
submissions) as a ratio to the in-process baseline; the same in CPU (the batch's CPU of every
process per graded submission against the in-process run's own CPU), which other load on the
machine moves far less than the wall-time ratio; the grader's peak RSS (this process, and the
sum of its workers and zygotes, sampled from /proc; learner children are capped on their own).

Last, the deterministic costs each lesson's budget records (runner/offline/gates/budget.py).

Second part, the sandbox's fixed cost: the same --count through the runner's tiny test lesson
(tests/runner_offline/lessons/mini-01, nine cheap tests), where a child per submission, the
channel and the clean-up dominate instead of the tests.

    python bench/grade_batch.py [--count 500] [--jobs 2] [--cgroup-limits]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runner.core.bundle import load_bundle  # noqa: E402
from runner.core.grade import grade  # noqa: E402
from runner.core.host import InProcessHost  # noqa: E402
from runner.offline.cli import main as runner_main  # noqa: E402
from runner.offline.gates.budget import BUDGET_FILE, measure, read_budget  # noqa: E402
from runner.offline.gates.quality_gate import known_solutions  # noqa: E402
from runner.offline.sandbox.host import ChildProcessHost  # noqa: E402

LESSON = "rag-01"
LESSON_DIR = ROOT / "checkpoints" / LESSON
MINI_LESSONS = ROOT / "tests" / "runner_offline" / "lessons"
MINI_CODE = (MINI_LESSONS / "mini-01" / "solution.py").read_text(encoding="utf-8")
GOAL_PER_SECOND = 30.0
GOAL_PEAK_MB = 300.0


def broken_variants(reference: str) -> list[tuple[str, bytes]]:
    """(suffix, content) of submissions that cannot be graded, one kind each."""
    return [
        (".py", reference.replace("def word_chunks(", "def word_chunks[", 1).encode()),
        (".py", b""),
        (".py", b"x = '\xe9t\xe9'\n"),
        (".json", b'{"lesson": "rag-01", "learner": "kapot", "code": "def doc'),
        (".json", json.dumps({"lesson": "rag-02", "learner": "verkeerd", "code": reference}).encode()),
    ]


def generate(folder: Path, count: int) -> dict[str, int]:
    reference = (LESSON_DIR / "solution.py").read_text()
    # As the quality gate grades them: a known-wrong variation arrives composed with the reference.
    known = known_solutions(LESSON_DIR)
    correct = [solution.source for solution in known if solution.must_pass]
    wrong = [solution.source for solution in known if not solution.must_pass]
    broken = broken_variants(reference)
    kinds = {"correct": 0, "wrong": 0, "broken": 0}
    for index in range(count):
        slot = index % 10
        name = f"leerling{index:04d}"
        if slot < 4:
            kinds["correct"] += 1
            text = correct[index % len(correct)] + f"\n# inzending {index}\n"
            (folder / f"{name}-correct.py").write_text(text)
        elif slot < 8:
            kinds["wrong"] += 1
            name += "-wrong"
            text = wrong[index % len(wrong)] + f"\n# inzending {index}\n"
            if index % 3 == 0:  # some arrive as the browser's JSON export
                document = {"lesson": LESSON, "learner": name, "code": text,
                            "created_at": "2026-11-30T09:00:00Z"}
                (folder / f"{name}.json").write_text(json.dumps(document))
            else:
                (folder / f"{name}.py").write_text(text)
        else:
            kinds["broken"] += 1
            suffix, content = broken[index % len(broken)]
            (folder / f"{name}{suffix}").write_bytes(content)
    return kinds


def generate_mini(folder: Path, count: int) -> None:
    for index in range(count):
        code = MINI_CODE if index % 2 else MINI_CODE.replace("2 * x", "x + 3")
        (folder / f"leerling{index:04d}.py").write_text(code + f"\n# inzending {index}\n")


def sandboxed_time(lesson_dir: Path, source: str, rounds: int = 3) -> float:
    """The wall time of in_process_costs, through ChildProcessHost: a fresh child per round."""
    bundle = load_bundle(lesson_dir, include_offline=True)
    times = []
    with ChildProcessHost() as host:
        grade(bundle, host, source)  # start the zygote outside the timing
        host.finish_submission()
        for _ in range(rounds):
            started = time.perf_counter()
            report = grade(bundle, host, source)
            host.finish_submission()
            times.append(time.perf_counter() - started)
            assert report.score == report.max_score, "the reference solution must pass"
    return statistics.median(times)


def in_process_costs(lesson_dir: Path, source: str, rounds: int = 9) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) to run every test on a correct solution
    in-process, the median of `rounds`. One round's CPU varies by a fifth from one call to the
    next in the same process (186-259 ms for rag-01 on a quiet machine), hence nine rounds. The
    CPU figure does not move with other load on the machine, so CPU against CPU is the steadier
    ratio."""
    bundle = load_bundle(lesson_dir, include_offline=True)
    host = InProcessHost()
    walls, cpus = [], []
    for _ in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        report = grade(bundle, host, source)
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - started_cpu)
        assert report.score == report.max_score, "the reference solution must pass"
    return statistics.median(walls), statistics.median(cpus)


class MemorySampler:
    """Samples /proc every 0.1 s: peak RSS of the grader (this process + its workers + their
    zygotes, summed) and of the largest learner child, which has its own cap (--memory-mb)."""

    def __init__(self) -> None:
        self.grader_peak = 0
        self.learner_peak = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    @staticmethod
    def snapshot() -> dict[int, tuple[int, int]]:
        """pid -> (ppid, rss in kB)"""
        found = {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/status", "rb") as handle:
                    status = handle.read()
            except OSError:
                continue
            fields = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
            rss = int(fields.get(b"VmRSS", b"0 kB").split()[0])
            found[int(name)] = (int(fields[b"PPid"]), rss)
        return found

    def run(self) -> None:
        me = os.getpid()
        while not self.stopped.wait(0.1):
            processes = self.snapshot()
            depth = {me: 0}
            changed = True
            while changed:
                changed = False
                for pid, (ppid, _) in processes.items():
                    if pid not in depth and ppid in depth:
                        depth[pid] = depth[ppid] + 1
                        changed = True
            # depth 0: this grader, 1: workers, 2: zygotes, 3 and deeper: learner code.
            grader = sum(processes[pid][1] for pid, d in depth.items() if d <= 2 and pid in processes)
            learners = [processes[pid][1] for pid, d in depth.items() if d >= 3 and pid in processes]
            self.grader_peak = max(self.grader_peak, grader)
            self.learner_peak = max([self.learner_peak, *learners])

    def __enter__(self) -> MemorySampler:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopped.set()
        self.thread.join()


def run_batch(folder: Path, out: Path, lesson: str, jobs: int, extra: list[str]) -> tuple[float, list[dict], str]:
    summary = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(summary):
        exit_code = runner_main(["grade", "--lesson", lesson, str(folder), "--out", str(out),
                                 "--jobs", str(jobs), *extra])
    elapsed = time.perf_counter() - started
    if exit_code != 0:
        raise SystemExit(f"batch failed (exit {exit_code}):\n{summary.getvalue()}")
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return elapsed, results, summary.getvalue().strip()


def report(title: str, count: int, jobs: int, elapsed: float, results: list[dict], baseline: float) -> None:
    graded = [r for r in results if r["status"] == "graded"]
    all_pass = sum(1 for r in graded if r["score"] == r["max_score"])
    cost_per_graded = elapsed * jobs / max(1, len(graded))
    print(f"\n## {title}")
    print(f"graded {len(graded)}, invalid {len(results) - len(graded)}, all checkpoints passed {all_pass}")
    print(f"wall time                         {elapsed:8.1f} s")
    print(f"throughput                        {count / elapsed:8.2f} submissions/s   (goal >= {GOAL_PER_SECOND:g})")
    print(f"in-process baseline (correct)     {baseline * 1000:8.1f} ms per submission")
    print(f"cost per graded submission        {cost_per_graded * 1000:8.1f} ms   "
          f"= {cost_per_graded / baseline:.2f}x the in-process baseline")


def cpu_seconds() -> float:
    """User + system CPU of this process and every child it has reaped (and theirs)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cgroup-limits", action="store_true",
                        help="grade with `grade --cgroup-limits` (a cgroup per submission, as root)")
    args = parser.parse_args()
    sandbox_options = ["--cgroup-limits"] if args.cgroup_limits else []

    with tempfile.TemporaryDirectory(prefix="werkplaats-bench-") as temporary:
        folder, out = Path(temporary) / "class", Path(temporary) / "out"
        folder.mkdir()
        kinds = generate(folder, args.count)
        print(f"{args.count} submissions: {kinds['correct']} correct, {kinds['wrong']} wrong, "
              f"{kinds['broken']} broken; grading with --jobs {args.jobs} ...", flush=True)
        load_before = os.getloadavg()[0]
        cpu_before = cpu_seconds()
        with MemorySampler() as memory:
            elapsed, results, summary = run_batch(folder, out, LESSON, args.jobs, sandbox_options)
        # Workers, zygotes and learner children have all been reaped by now, so their CPU time
        # is in RUSAGE_CHILDREN: the batch's whole CPU cost, whatever else runs on the machine.
        batch_cpu = cpu_seconds() - cpu_before
        load_after = os.getloadavg()[0]
        parent_peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(summary)

        mini_folder, mini_out = Path(temporary) / "mini", Path(temporary) / "mini-out"
        mini_folder.mkdir()
        generate_mini(mini_folder, args.count)
        mini_cpu_before = cpu_seconds()
        mini_elapsed, mini_results, _ = run_batch(
            mini_folder, mini_out, "mini-01", args.jobs, ["--checkpoints-dir", str(MINI_LESSONS), *sandbox_options])
        mini_cpu = cpu_seconds() - mini_cpu_before

    reference = (LESSON_DIR / "solution.py").read_text()
    baseline, baseline_cpu = in_process_costs(LESSON_DIR, reference)
    sandboxed = sandboxed_time(LESSON_DIR, reference)
    report(f"{LESSON}, every test (shipped and offline)", args.count, args.jobs, elapsed, results, baseline)
    # The verdicts must be right at this speed too.
    correct_not_passing = [r["submission"] for r in results
                           if "-correct" in r["submission"] and r["score"] != r["max_score"]]
    wrong_passing = [r["submission"] for r in results
                     if "-wrong" in r["submission"] and r["score"] == r["max_score"]]
    print(f"correct submissions not passing everything: {len(correct_not_passing)}; "
          f"known-wrong submissions passing everything: {len(wrong_passing)}")
    by_path = {r["submission"]: r for r in results}
    for path in correct_not_passing + wrong_passing:
        first = next(((c["id"], t["name"], t["status"], t["message"][:100])
                      for c in by_path[path]["checkpoints"] for t in c["tests"] if t["status"] != "pass"), None)
        print(f"  {Path(path).name}: {first}")
    cores = os.cpu_count() or 1
    print(f"CPU time of the batch, all processes {batch_cpu:5.1f} s   = {batch_cpu * 1000 / args.count:.1f} ms per "
          f"submission; on {cores} cores at best {args.count * cores / batch_cpu:.1f} submissions/s")
    graded_count = sum(1 for r in results if r["status"] == "graded")
    cpu_per_graded = batch_cpu / max(1, graded_count)
    print(f"CPU per graded submission          {cpu_per_graded * 1000:7.1f} ms   = {cpu_per_graded / baseline_cpu:.2f}x "
          f"the in-process CPU ({baseline_cpu * 1000:.1f} ms; both CPU, so other load moves them little)")
    print(f"load average (1 min) before / after   {load_before:.2f} / {load_after:.2f}")
    print(f"reference alone, one child, no batch {sandboxed * 1000:5.1f} ms   "
          f"= {sandboxed / baseline:.2f}x the in-process baseline")
    print(f"peak RSS, grader main process     {parent_peak_mb:8.1f} MB")
    print(f"peak RSS, grader + workers + zygotes {memory.grader_peak / 1024:5.1f} MB   (goal < {GOAL_PEAK_MB:g}; sampled)")
    print(f"peak RSS, largest learner child   {memory.learner_peak / 1024:8.1f} MB   (capped per child)")
    mini_baseline, _ = in_process_costs(MINI_LESSONS / "mini-01", MINI_CODE, rounds=3)
    report("sandbox fixed cost: tiny lesson mini-01", args.count, args.jobs, mini_elapsed,
           mini_results, mini_baseline)
    print(f"CPU time of the batch, all processes {mini_cpu:5.1f} s   = {mini_cpu * 1000 / args.count:.1f} ms per "
          f"submission (the sandbox's fixed cost, measured without waiting)")
    print_budgets()
    return 0


def print_budgets() -> None:
    """The deterministic costs of each lesson's reference through every test, beside the budget
    tests/lessons/<id>/budget.json records (checked in CI by tests/lessons/test_grade_budget.py)."""
    print("\n## budgets: the reference through every test (calls, bytes sent / received, largest line)")
    for lesson_dir in sorted(path.parent for path in (ROOT / "checkpoints").glob("*/checkpoints.toml")):
        measured = measure(lesson_dir).total
        path = ROOT / "tests" / "lessons" / lesson_dir.name / BUDGET_FILE
        recorded = read_budget(path).total if path.is_file() else None
        budget_text = "no budget" if recorded is None else (
            f"budget {recorded.calls} calls, {recorded.bytes_sent} / {recorded.bytes_received} B, "
            f"{recorded.largest_line} B")
        print(f"{lesson_dir.name:8s} {measured.calls:5d} calls, {measured.bytes_sent:9d} / {measured.bytes_received:9d} B, "
              f"largest {measured.largest_line:8d} B   ({budget_text})")


if __name__ == "__main__":
    raise SystemExit(main())
