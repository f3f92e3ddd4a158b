"""Where the test suite's time goes: CPU seconds per part, from `pytest -p tests.suite_cpu`.

    WERKPLAATS_SUITE_CPU=/tmp/suite .venv/bin/python -m pytest -n 4 --dist loadgroup -p tests.suite_cpu
    python bench/suite_times.py /tmp/suite.* [--write-costs tests/suite_costs.json]

(`/tmp/suite.machine`, which the session's own process writes, gives the machine's CPU over the
whole session: per-test figures of browser tests are rough, see tests/suite_cpu.py. Run with
`-n 0` on an idle machine instead, each test's figure is the machine's busy CPU over it, which is
exact, and that is what is summed.)

A part is a test file's folder (tests/browser, tests/runner_offline, ...); the dearest files and
tests follow, then each xdist worker's busy time. On 2 cores the suite's wall time is at least the
total CPU divided by two, and at least the busiest worker's wall time.

`--write-costs` stores the wall seconds of each xdist group (a test file, or one lesson's tests of a
file: tests/shared_fixtures.py): `make test` runs the dearest groups first.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def split_group(test: str) -> tuple[str, str]:
    """(the test's id, its xdist group as `make test` schedules it)."""
    from tests.shared_fixtures import xdist_group

    return test, xdist_group(test)


def main(paths: list[str]) -> int:
    costs_path = None
    if "--write-costs" in paths:
        at = paths.index("--write-costs")
        costs_path = paths[at + 1]
        paths = paths[:at] + paths[at + 2:]
    records = []
    machine: dict[str, float] | None = None
    by_worker: dict[str, float] = defaultdict(float)
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                record = json.loads(line)
                if "machine_busy_cpu" in record:
                    machine = record
                    continue
                record["test"], record["group"] = split_group(record["test"])
                if "machine_cpu" in record:  # a run alone on the machine (-n 0): exact, take it
                    record["cpu"] = record["machine_cpu"]
                records.append(record)
                by_worker[path.rsplit(".", 1)[-1]] += record["wall"]
    if not records:
        print("no records: run pytest with -p tests.suite_cpu and WERKPLAATS_SUITE_CPU set", file=sys.stderr)
        return 2
    by_part: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    by_file: dict[str, float] = defaultdict(float)
    for record in records:
        file = record["test"].split("::")[0]
        part = "/".join(file.split("/")[:2]) if file.startswith("tests/") else file.split("/")[0]
        by_part[part][0] += record["cpu"]
        by_part[part][1] += record["wall"]
        by_part[part][2] += 1
        by_file[file] += record["cpu"]
    total = sum(record["cpu"] for record in records)
    print(f"{len(records)} tests, {total:.0f} s CPU in all\n")
    print("| part | tests | CPU s | share |")
    print("| --- | ---: | ---: | ---: |")
    for part, (cpu, _wall, count) in sorted(by_part.items(), key=lambda item: -item[1][0]):
        print(f"| {part} | {count} | {cpu:.0f} | {cpu / total:.0%} |")
    print("\nDearest files (CPU s):")
    for file, cpu in sorted(by_file.items(), key=lambda item: -item[1])[:15]:
        print(f"  {cpu:7.1f}  {file}")
    print("\nDearest tests (CPU s):")
    for record in sorted(records, key=lambda record: -record["cpu"])[:15]:
        print(f"  {record['cpu']:7.1f}  {record['test']}")
    print("\nBusy wall seconds per worker:")
    for worker, wall in sorted(by_worker.items()):
        print(f"  {wall:7.1f}  {worker}")
    if machine is not None:
        print(f"\nThe machine over the session: {machine['machine_busy_cpu']:.1f} s CPU in {machine['wall']:.1f} s wall "
              "(every process, Chromium's included; the total to compare between runs)")
    if costs_path is not None:
        by_group: dict[str, float] = defaultdict(float)
        for record in records:
            by_group[record["group"]] += record["wall"]
        costs = {group: round(wall, 1) for group, wall in sorted(by_group.items(), key=lambda item: -item[1])}
        with open(costs_path, "w", encoding="utf-8") as out:
            json.dump({"about": "wall seconds per xdist group, from bench/suite_times.py --write-costs",
                       "wall_seconds": costs}, out, indent=1)
            out.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
