"""The suite's own measuring (tests/suite_cpu.py, bench/suite_times.py): a real pytest session
with the plugin, its records read back the way a contributor reads them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BUSY_TEST = '''
def test_busy():
    total = 0
    for number in range(3_000_000):
        total += number
    assert total > 0
'''


def test_a_measured_session_reports_each_test_and_the_whole_machine(tmp_path):
    (tmp_path / "test_busy.py").write_text(BUSY_TEST, encoding="utf-8")
    target = tmp_path / "suite"
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.suite_cpu", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path / "test_busy.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "WERKPLAATS_SUITE_CPU": str(target)},
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    (record,) = [json.loads(line) for line in Path(f"{target}.main").read_text(encoding="utf-8").splitlines()]
    # Alone (no workers), the machine's busy time over the test is recorded too, and holds the test's own.
    assert record["machine_cpu"] >= record["cpu"] - 0.05 > 0.05
    report = subprocess.run([sys.executable, str(ROOT / "bench" / "suite_times.py"), f"{target}.main",
                             f"{target}.machine"], capture_output=True, text=True, timeout=60)
    assert report.returncode == 0, report.stderr
    lines = report.stdout.splitlines()
    assert lines[0].startswith("1 tests, ")
    (machine,) = [line for line in lines if line.startswith("The machine over the session: ")]
    busy = float(machine.split(": ")[1].split(" s CPU")[0])
    assert busy > 0.1  # the loop above is about a third of a second on this machine's cores
