"""The sandbox's own cost per child, without a lesson's tests: load a one-line main.py, one call,
the clean-up, N times through one ChildProcessHost. Reports CPU time of every process (the
grader, the zygote and the children, read once the zygote is reaped), which does not depend on
what else runs on the machine, and wall time.

    python bench/sandbox_child.py [N]
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.protocol import SandboxLimits

SOURCE = "def f(x):\n    return x\n"


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    host = ChildProcessHost(SandboxLimits())
    host.load(SOURCE, ["f"])  # the zygote's start-up is not part of the cost per child
    host.finish_submission()
    started_cpu, started = cpu_seconds(), time.monotonic()
    for _ in range(count):
        host.load(SOURCE, ["f"])
        assert host.call("f", [1]).value == 1
        host.finish_submission()
    wall = time.monotonic() - started
    host.close()
    print(f"{(cpu_seconds() - started_cpu) / count * 1000:.2f} ms CPU per child (all processes), "
          f"{wall / count * 1000:.2f} ms wall; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
