"""Runs every benchmark script in bench/ in turn (what `make bench` does).

Each script prints its own figures beside the baseline it measured in the same run; this runner
only sequences them (one at a time: they time things) and reports which ones failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
# Scripts that are not benchmarks: this runner, and the suite-time report (it reads the records
# of a pytest run it is given). Shared scaffolding has no `__main__` and is skipped as such.
NOT_BENCHMARKS = {Path(__file__).name, "suite_times.py"}


def is_benchmark(path: Path) -> bool:
    return path.name not in NOT_BENCHMARKS and "__main__" in path.read_text(encoding="utf-8")


def main() -> int:
    scripts = sorted(path for path in BENCH_DIR.glob("*.py") if is_benchmark(path))
    failed = []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        completed = subprocess.run([sys.executable, str(script)], cwd=BENCH_DIR.parent)
        if completed.returncode != 0:
            failed.append(script.name)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"all {len(scripts)} benchmarks ran")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
