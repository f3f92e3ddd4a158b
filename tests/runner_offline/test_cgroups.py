"""A cgroup per submission (as root): memory and processes are capped for everything a submission
starts together, not per process, and no cgroup outlives its submission, zygote or grader."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
from offline_support import CORRECT_MINI, LESSONS, ROOT, TEST_LIMITS, is_alive

from runner.core.grade import grade
from runner.offline.sandbox import cgroups
from runner.offline.sandbox.cgroups import CGROUP_PREFIX, find_cgroup_homes
from runner.offline.sandbox.host import ChildProcessHost


def cgroups_offered() -> bool:
    """The machine gives root a writable cgroupfs with the memory and pids controllers: v2
    (unified) or v1 (a hierarchy each). Independent of the runner's own discovery."""
    unified = "/sys/fs/cgroup/cgroup.controllers"
    if os.path.exists(unified):
        with open(unified) as handle:
            offered = {"memory", "pids"} <= set(handle.read().split())
        return offered and os.access("/sys/fs/cgroup", os.W_OK)
    return all(os.access(f"/sys/fs/cgroup/{name}", os.W_OK) for name in ("memory", "pids"))


needs_cgroups = pytest.mark.skipif(
    os.geteuid() != 0 or not cgroups_offered(),
    reason="needs root and a writable cgroupfs with the memory and pids controllers (cgroup v2 or v1); "
           "without them the grader falls back to per-process limits",
)

# Each helper stays far below the per-process cap, four of them together are far above the total.
LIMITS = dataclasses.replace(TEST_LIMITS, call_seconds=10.0, memory_bytes=384 << 20, processes=8,
                             cgroup_limits=True)

MEMORY_HOGS = textwrap.dedent('''
    import os, time

    def double(x):
        helpers = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                block = b"x" * (150 << 20)  # written, so really held
                time.sleep(1)
                os._exit(0)
            helpers.append(pid)
        for pid in helpers:
            os.waitpid(pid, 0)
        return 2 * x

    def words(text):
        return text.split()

    def total(numbers):
        return sum(numbers)
''')

FORK_COUNTER = textwrap.dedent('''
    import os, time

    def count_forks():
        started = 0
        while started < 100:
            try:
                pid = os.fork()
            except OSError:
                return started
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            started += 1
        return started
''')


def our_cgroup_dirs() -> list[str]:
    """Every zygote's cgroup directory on this machine (other graders' included)."""
    _, homes = find_cgroup_homes()
    return [entry.path for home in set(homes.values()) for entry in os.scandir(home)
            if entry.name.startswith(CGROUP_PREFIX)]


def owner_is_gone(directory: str) -> bool:
    return not os.path.exists(f"/proc/{os.path.basename(directory).removeprefix(CGROUP_PREFIX)}")


def submission_cgroups(host: ChildProcessHost) -> list[str]:
    return [entry.path for directory in host.zygote_report.cgroup.directories
            for entry in os.scandir(directory) if entry.is_dir()]


@pytest.fixture(scope="module")
def capped_host():
    with ChildProcessHost(LIMITS) as shared:
        yield shared


@needs_cgroups
def test_zygote_reports_its_cgroups(capped_host):
    capped_host.load(CORRECT_MINI)
    cgroup = capped_host.zygote_report.cgroup
    assert cgroup.version in (1, 2)
    assert cgroup.directories and all(os.path.isdir(directory) for directory in cgroup.directories)
    assert all(os.path.basename(directory) == f"{CGROUP_PREFIX}{capped_host._zygote.pid}"
               for directory in cgroup.directories)


@needs_cgroups
def test_processes_together_cannot_exceed_the_memory_cap(mini_bundle, capped_host):
    report = grade(mini_bundle, capped_host, MEMORY_HOGS)
    capped_host.finish_submission()
    assert report.statuses() == {"double": "error", "words": "pass", "total": "pass"}
    failed = next(test for test in report.checkpoints[0].tests if test.status == "error")
    assert "samen meer dan 384 MB geheugen" in failed.message
    # The grader is fine, and so is the next submission.
    assert grade(mini_bundle, capped_host, CORRECT_MINI).statuses() == {
        "double": "pass", "words": "pass", "total": "pass"}
    capped_host.finish_submission()
    assert capped_host.cleanup.error is None and capped_host.cleanup.remaining == () and submission_cgroups(capped_host) == []


@needs_cgroups
def test_process_cap_holds_per_submission():
    # As root without the uid drop, so RLIMIT_NPROC (per uid) is not what stops it.
    with ChildProcessHost(LIMITS, drop_privileges=False) as host:
        counts = []
        for _ in range(2):
            host.load(FORK_COUNTER, ["count_forks"])
            counts.append(host.call("count_forks", []).value)
            host.finish_submission()
            assert host.cleanup.error is None and host.cleanup.remaining == ()
    # The child itself is one of the eight; each submission gets the whole allowance again.
    assert counts == [LIMITS.processes - 1] * 2


@needs_cgroups
def test_a_crashing_child_leaves_no_cgroup(capped_host):
    capped_host.load("import os\nos.abort()\n")
    capped_host.finish_submission()
    assert capped_host.cleanup.error is None and capped_host.cleanup.cgroup_left is False
    assert submission_cgroups(capped_host) == []


@needs_cgroups
def test_a_killed_zygote_leaves_no_cgroup_or_process():
    host = ChildProcessHost(LIMITS)
    host.load(textwrap.dedent('''
        import os, time

        def escape():
            if os.fork() == 0:
                os.setsid()  # out of the child's process group and session
                time.sleep(60)
                os._exit(0)
    '''), ["escape"])
    host.call("escape", [])
    directories = host.zygote_report.cgroup.directories
    with open(os.path.join(submission_cgroups(host)[0], "cgroup.procs")) as handle:
        processes = [int(pid) for pid in handle.read().split()]
    assert len(processes) == 2
    os.kill(host._zygote.pid, signal.SIGKILL)
    host.close()
    assert not any(os.path.exists(directory) for directory in directories)
    assert not any(is_alive(pid) for pid in processes)


@needs_cgroups
def test_a_killed_graders_cgroups_are_removed_at_the_next_start():
    gone = _pid_of_a_finished_process()
    _, homes = find_cgroup_homes()
    stale = [os.path.join(home, f"{CGROUP_PREFIX}{gone}") for home in sorted(set(homes.values()))]
    for directory in stale:
        os.makedirs(os.path.join(directory, "inzending-1"))
    with ChildProcessHost(LIMITS) as host:
        host.load(CORRECT_MINI)
        assert not any(os.path.exists(directory) for directory in stale)


@needs_cgroups
def test_a_batch_leaves_no_cgroup_behind(tmp_path):
    (tmp_path / "in").mkdir()
    for name, source in (("goed", CORRECT_MINI), ("crasht", "import os\nos._exit(3)\n"), ("slokop", MEMORY_HOGS)):
        (tmp_path / "in" / f"{name}.py").write_text(source)
    completed = subprocess.run(
        [sys.executable, "-m", "runner", "grade", "--lesson", "mini-01", "--checkpoints-dir", str(LESSONS),
         str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--jobs", "2", "--memory-mb", "384", "--cgroup-limits"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert completed.returncode == 0, completed.stderr
    results = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    scores = {result["learner"]: result["score"] for result in results}
    assert scores == {"goed": 3, "crasht": 0, "slokop": 2}
    # Every zygote's directory left on the machine belongs to a grader that still runs (a parallel test's).
    assert [directory for directory in our_cgroup_dirs() if owner_is_gone(directory)] == []


def _pid_of_a_finished_process() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def fake_machine(monkeypatch, mountinfo: str, own_cgroups: str) -> None:
    """Let the cgroup discovery read a made-up mount table and /proc/self/cgroup, so the v2 rules
    are checked on a v1 machine too."""
    real_read = cgroups._read_whole
    fake = {"/proc/self/mountinfo": mountinfo, "/proc/self/cgroup": own_cgroups}
    monkeypatch.setattr(cgroups, "_read_whole", lambda path: fake.get(path) or real_read(path))


@pytest.mark.parametrize(("subtree_control", "home"), [
    ("cpu memory pids", "user.slice"),  # systemd's usual: next to the grader's own cgroup
    ("cpu", None),  # the parent hands no memory controller down: per-process limits only
])
def test_on_cgroup_v2_the_cgroups_go_next_to_the_graders_own(monkeypatch, tmp_path, subtree_control, home):
    own = tmp_path / "cg" / "user.slice" / "session-3.scope"
    own.mkdir(parents=True)
    (own.parent / "cgroup.subtree_control").write_text(subtree_control)
    (own / "cgroup.subtree_control").write_text("")  # it holds the grader: no controllers below
    fake_machine(monkeypatch, f"30 1 0:26 / {tmp_path}/cg rw - cgroup2 cgroup2 rw\n", "0::/user.slice/session-3.scope\n")
    found = find_cgroup_homes()
    assert found == (None if home is None else (2, {"memory": str(own.parent), "pids": str(own.parent)}))


@needs_cgroups
def test_cgroups_are_made_only_when_asked_for():
    with ChildProcessHost(TEST_LIMITS) as plain_host:
        plain_host.load(CORRECT_MINI, ["double"])
        assert plain_host.zygote_report.cgroup is None
        assert not [directory for directory in our_cgroup_dirs() if f"{CGROUP_PREFIX}{plain_host._zygote.pid}" in directory]
