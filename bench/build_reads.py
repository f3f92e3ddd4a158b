"""What one build reads and executes of each lesson, and what carrying the verified bundle saves.

Runs `build_site` on this project in this process (the quality gate still runs in its own child,
as always) and counts, in the builder's process, the reads of `checkpoints.toml`
(`runner.core.lesson_config.read_lesson_config`) and the lesson files executed
(`runner.core.bundle._exec_file`), per stage. Deterministic; tests/builder/test_verified_bundle.py
keeps the render and write stages at zero executions.

Baseline, same run: what the render and write stages did before the verify stage's bundle was
carried on (two `load_bundle(include_offline=False)` per lesson in this process), timed here
beside the whole build. Timed as CPU time of this process (the gate child excluded) and as wall
time; state the load average beside them.

    python bench/build_reads.py [--only LESSON]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import builder.build_site as build_stage  # noqa: E402
import runner.core.bundle as bundle_module  # noqa: E402
import runner.core.lesson_config as config_module  # noqa: E402
from runner.core.bundle import load_bundle  # noqa: E402

STAGES = {"load_content": "load", "verify_site": "verify", "render_pages": "render", "write_site": "write"}


def counted_build(only: str | None) -> tuple[Counter, float, float]:
    """Counts per (stage, what) of one build, and its wall and CPU seconds."""
    counts: Counter = Counter()
    stage = ["setup"]

    def wrap_stage(name: str):
        real = getattr(build_stage, name)

        def staged(*args, **kwargs):
            stage[0] = STAGES[name]
            return real(*args, **kwargs)
        setattr(build_stage, name, staged)

    for name in STAGES:
        wrap_stage(name)
    real_read, real_exec = config_module.read_lesson_config, bundle_module._exec_file

    def read(*args, **kwargs):
        counts[(stage[0], "checkpoints.toml read")] += 1
        return real_read(*args, **kwargs)

    def execute(*args, **kwargs):
        counts[(stage[0], "lesson file executed")] += 1
        return real_exec(*args, **kwargs)

    # Both are looked up where they are used: patch every module that imported them by name.
    for module in list(sys.modules.values()):
        if getattr(module, "read_lesson_config", None) is real_read:
            module.read_lesson_config = read
    bundle_module._exec_file = execute
    with tempfile.TemporaryDirectory() as out:
        wall, cpu = time.perf_counter(), time.process_time()
        report = build_stage.build_site(ROOT, Path(out) / "site", only=only)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    counts[("all", "lessons")] = len(report.lessons)
    return counts, wall, cpu


def old_render_and_write(only: str | None) -> float:
    """CPU seconds of what render and write did before: two shipped loads per lesson."""
    dirs = [path.parent for path in sorted((ROOT / "checkpoints").glob("*/checkpoints.toml"))
            if only is None or path.parent.name == only]
    started = time.process_time()
    for lesson_dir in dirs:
        load_bundle(lesson_dir, include_offline=False)
        load_bundle(lesson_dir, include_offline=False)
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, metavar="LESSON")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    baseline = old_render_and_write(args.only)
    counts, wall, cpu = counted_build(args.only)
    lessons = counts.pop(("all", "lessons"))
    print(f"build of {lessons} lesson(s): {wall:.1f} s wall, {cpu:.2f} s CPU in the builder's process")
    for stage in STAGES.values():
        for what in ("checkpoints.toml read", "lesson file executed"):
            count = counts[(stage, what)]
            print(f"  {stage:7} {what}: {count} ({count / lessons:.1f} per lesson)")
    print(f"baseline (same run): the render and write stages' two loads per lesson took {baseline:.2f} s CPU, "
          f"{baseline / cpu:.2f}x the builder's whole CPU time now")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
