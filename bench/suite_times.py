"""Where the test suite's time goes: CPU seconds per part, from `pytest -p tests.suite_cpu`.

    WERKPLAATS_SUITE_CPU=/tmp/suite .venv/bin/python -m pytest -n 2 -p tests.suite_cpu
    python bench/suite_times.py /tmp/suite.*

A part is a test file's folder (tests/browser, tests/runner_offline, ...); the ten dearest files
and tests follow. On 2 cores the suite's wall time is about the total CPU divided by two, plus
the session set-up (site build, Chromium start) of each worker.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def main(paths: list[str]) -> int:
    records = [json.loads(line) for path in paths for line in open(path, encoding="utf-8") if line.strip()]
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
