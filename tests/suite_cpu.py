"""`pytest -p tests.suite_cpu`: the CPU seconds each test costs, whatever else the machine does.

Wall-clock durations on a shared 2-core machine say more about the neighbours than about the
test; CPU time does not. Each test is charged the CPU its process tree used during it: this
process, every live descendant (Chromium, the dev server's children, sandboxed graders) and the
children that ended meanwhile. Written as JSON lines to $WERKPLAATS_SUITE_CPU (one file per
xdist worker, suffixed with its id); `python bench/suite_times.py FILE...` sums them per part.

Chromium's renderers of a context shared by several tests end long after the test that used them
(or when the session ends, charged to the last test), so the per-test figures of browser tests are
rough. Run alone on an idle machine (`-n 0`), each record also holds `machine_cpu`, the machine's
busy CPU seconds over the test (/proc/stat): exact for every test, browser tests included, and
what bench/suite_times.py then sums. With workers, the total to compare is the machine's: the
process that runs the session (the xdist controller) also writes `<file>.machine`, the CPU
seconds every process of the machine spent from the session's start to its end (/proc/stat),
with the wall seconds between.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def descendants_cpu(root: int, include_reaped: bool = True) -> float:
    """utime+stime+cutime+cstime of every live process below `root` (from /proc), in seconds;
    without `include_reaped`, utime+stime only (a page measured while it is open: its own
    processes are all alive, and what the browser reaped of an earlier one stays out)."""
    return sum(descendants_cpu_by_pid(root, include_reaped).values())


def descendants_cpu_by_pid(root: int, include_reaped: bool = True) -> dict[int, float]:
    """descendants_cpu per live process: pid -> seconds."""
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        pid, parent = int(entry), int(fields[1])
        children.setdefault(parent, []).append(pid)
        # Its own time and that of its children it has reaped (Chromium reaps its renderers):
        # a page closed during a test would otherwise take its CPU with it.
        reaped = int(fields[13]) + int(fields[14]) if include_reaped else 0
        cpu[pid] = (int(fields[11]) + int(fields[12]) + reaped) / TICKS
    below: dict[int, float] = {}
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        below[pid] = cpu.get(pid, 0.0)
        stack.extend(children.get(pid, []))
    return below


def machine_busy_seconds() -> float:
    """CPU seconds all processes of the machine have spent since boot: the first line of
    /proc/stat without its idle and iowait columns."""
    with open("/proc/stat", encoding="ascii") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, stat.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / TICKS


_SESSION_START: dict[str, float] = {}


def _session_target() -> str | None:
    # Workers measure tests; the process that runs the session measures the machine.
    if "PYTEST_XDIST_WORKER" in os.environ:
        return None
    return os.environ.get("WERKPLAATS_SUITE_CPU") or None


def pytest_sessionstart(session):
    if _session_target():
        _SESSION_START.update(busy=machine_busy_seconds(), wall=time.monotonic())


def pytest_sessionfinish(session, exitstatus):
    target = _session_target()
    if target and _SESSION_START:
        record = {"machine_busy_cpu": round(machine_busy_seconds() - _SESSION_START["busy"], 1),
                  "wall": round(time.monotonic() - _SESSION_START["wall"], 1)}
        Path(f"{target}.machine").write_text(json.dumps(record) + "\n", encoding="utf-8")


def tree_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime + descendants_cpu(os.getpid())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    target = os.environ.get("WERKPLAATS_SUITE_CPU")
    if not target:
        yield
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    # Alone on the machine (`-n 0`), the machine's busy time over a test is exactly its cost,
    # Chromium's renderers and every other process included; with workers it is everyone's.
    serial = worker == "main"
    machine_before = machine_busy_seconds() if serial else 0.0
    cpu_before, wall_before = tree_cpu(), time.monotonic()
    yield
    record = {"test": item.nodeid, "cpu": round(tree_cpu() - cpu_before, 3),
              "wall": round(time.monotonic() - wall_before, 3)}
    if serial:
        record["machine_cpu"] = round(machine_busy_seconds() - machine_before, 2)
    with open(f"{target}.{worker}", "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
