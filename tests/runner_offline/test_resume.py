"""A batch killed half way and run again ends exactly like a batch that was never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from offline_support import CORRECT_MINI, LESSONS, ROOT

from runner.offline.grading.records import read_results

SUBMISSIONS = 16


def make_class(folder) -> None:
    """Submissions that each take a moment, so a kill lands in the middle of the batch."""
    for index in range(SUBMISSIONS):
        code = "import time\ntime.sleep(0.25)\n" + CORRECT_MINI
        if index % 3 == 1:
            code = code.replace("2 * x", "x + x + 1")
        if index % 5 == 2:
            code = code.replace("def words(text):", "def words(text)")
        (folder / f"leerling{index:02d}.py").write_text(code)


def grade_command(folder, out) -> list[str]:
    return [sys.executable, "-m", "runner", "grade", "--lesson", "mini-01",
            "--checkpoints-dir", str(LESSONS), str(folder), "--out", str(out), "--jobs", "2",
            "--call-timeout", "5"]


def comparable(out) -> dict[str, tuple]:
    """What must be identical between runs: everything except timings and timestamps."""
    lines = (out / "results.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""
    found = {}
    for line in lines[:-1]:
        result = json.loads(line)
        checkpoints = tuple(
            (c["id"], c["status"], tuple((t["name"], t["status"], t["message"]) for t in c["tests"]))
            for c in result["checkpoints"]
        )
        assert result["submission"] not in found
        found[result["submission"]] = (
            result["status"], result.get("message"), result["score"], result["code_sha256"],
            result["bundle_sha256"], checkpoints,
        )
    return found


@pytest.mark.slow
def test_killed_batch_resumes_to_the_same_results(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    make_class(folder)

    uninterrupted = tmp_path / "whole"
    subprocess.run(grade_command(folder, uninterrupted), cwd=ROOT, check=True, capture_output=True, timeout=300)

    resumed = tmp_path / "resumed"
    batch = subprocess.Popen(grade_command(folder, resumed), cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = resumed / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if log.exists() and log.read_bytes().count(b"\n") >= SUBMISSIONS // 3:
            break
        time.sleep(0.05)
    os.killpg(batch.pid, signal.SIGKILL)
    batch.wait()
    partial = read_results(log).results
    assert SUBMISSIONS // 3 <= len(partial) < SUBMISSIONS
    assert not (resumed / "report.html").exists()
    # As if the kill had also torn the line being written.
    torn = b'{"submission": "/half/written", "status": "gra'
    with open(log, "ab") as handle:
        handle.write(torn)

    rerun = subprocess.run(grade_command(folder, resumed), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert f"note: cut off a torn last line ({len(torn)} bytes) left by an interrupted run" in rerun.stderr
    assert f"{len(partial)} kept from an earlier run" in rerun.stdout
    assert comparable(resumed) == comparable(uninterrupted)
    assert len(comparable(resumed)) == SUBMISSIONS

    # A third run has nothing left to do; a changed submission is graded again.
    again = subprocess.run(grade_command(folder, resumed), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert f"0 new this run, {SUBMISSIONS} kept from an earlier run" in again.stdout
    assert "grading" not in again.stderr  # no empty progress bar
    (folder / "leerling00.py").write_text(CORRECT_MINI.replace("2 * x", "3 * x"))
    changed = subprocess.run(grade_command(folder, resumed), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert f"1 new this run, {SUBMISSIONS - 1} kept from an earlier run" in changed.stdout
    after = comparable(resumed)
    assert after[str(folder / "leerling00.py")][2] == 2
    assert len(after) == SUBMISSIONS
