"""One memory-capped child per item (runner.offline.gates.forked), the way the mutation gate grades.

The CI failure this pins: a rag-02 mutant filled the worker's memory cap in a shared pool, the
worker died while reporting the MemoryError, and `BrokenProcessPool` ended the whole gate.
"""

from __future__ import annotations

import os
import time

import pytest
from test_mutate import FIXTURES

from runner.core.bundle import load_bundle
from runner.offline.gates.forked import ChildDied, map_forked
from runner.offline.gates.mutant_grading import grade_mutants, grade_sources
from runner.offline.gates.mutation_files import MutationSetupError

MIB = 1 << 20


def square_or_die(item):
    if item == "die":
        os._exit(3)
    return item * item


def test_answers_come_back_in_the_order_of_the_items_with_two_children_at_once():
    assert map_forked(square_or_die, [5, 1, 4, 2, 3], jobs=2, memory_bytes=256 * MIB, wall_seconds=30) == [25, 1, 16, 4, 9]


def test_a_child_that_dies_is_that_item_alone_and_the_rest_are_answered():
    answers = map_forked(square_or_die, [2, "die", 3], jobs=2, memory_bytes=256 * MIB, wall_seconds=30)
    assert answers == [4, ChildDied(3), 9]
    assert answers[1].describe() == "the worker process died (exit code 3)"


def allocate(megabytes):
    try:
        block = bytearray(megabytes * MIB)
    except MemoryError:
        return "out of memory"
    return len(block) // MIB


def test_the_memory_cap_counts_on_top_of_what_the_child_maps_at_the_fork():
    assert map_forked(allocate, [16, 512], jobs=1, memory_bytes=128 * MIB, wall_seconds=30) == [16, "out of memory"]


def fill_memory_and_fail_while_reporting(_item):
    hoard = []
    try:
        while True:
            hoard.append(bytearray(MIB))
    except MemoryError:
        # Still full: whatever runs next fails too, as a grading loop or a pickled traceback would.
        raise RuntimeError("x" * (512 * MIB)) from None


def test_a_child_that_runs_out_of_memory_while_reporting_it_dies_alone():
    answers = map_forked(fill_memory_and_fail_while_reporting, [1, 2], jobs=2, memory_bytes=64 * MIB, wall_seconds=30)
    assert answers == [ChildDied(0), ChildDied(0)]
    assert map_forked(allocate, [8], jobs=1, memory_bytes=64 * MIB, wall_seconds=30) == [8]


def read_stdin(_item):
    return os.read(0, 100)


def test_a_child_reads_nothing_of_the_parents_stdin():
    read_end, write_end = os.pipe()
    os.write(write_end, b"van de docent")
    os.set_blocking(read_end, False)  # a child that took the bytes must not leave the parent waiting
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        answers = map_forked(read_stdin, [1], jobs=1, memory_bytes=64 * MIB, wall_seconds=30)
        try:
            left_for_the_parent = os.read(0, 100)
        except BlockingIOError:
            left_for_the_parent = b""
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read_end, write_end):
            os.close(fd)
    assert answers == [b""]
    assert left_for_the_parent == b"van de docent"


def answer_and_leave_a_process_holding_the_pipe(item):
    holder = os.fork()
    if holder == 0:  # inherits the child's end of the answer pipe
        time.sleep(30)
        os._exit(0)
    return item, holder


def test_a_process_the_child_started_keeps_nobody_waiting_for_the_answer():
    started = time.monotonic()
    [(answer, holder)] = map_forked(answer_and_leave_a_process_holding_the_pipe, ["klaar"], jobs=1,
                                   memory_bytes=256 * MIB, wall_seconds=20)
    os.kill(holder, 9)
    assert answer == "klaar"
    assert time.monotonic() - started < 10


def close_every_pipe_and_die(_item):
    for fd in range(3, 256):
        try:
            os.close(fd)
        except OSError:
            pass
    time.sleep(0.5)
    os._exit(4)


def test_a_child_that_closes_its_pipe_is_done_when_it_ends():
    started = time.monotonic()
    assert map_forked(close_every_pipe_and_die, [1], jobs=1, memory_bytes=64 * MIB, wall_seconds=20) == [ChildDied(4)]
    assert time.monotonic() - started < 10


def test_a_child_still_busy_after_the_wall_limit_is_stopped():
    started = time.monotonic()
    [answer] = map_forked(time.sleep, [60], jobs=1, memory_bytes=64 * MIB, wall_seconds=1)
    assert answer.timed_out and answer.describe() == "the worker process did not finish in time"
    assert time.monotonic() - started < 10


FIXTURE = FIXTURES / "mutants-01"
HOARDING = """\
def clamp(value):
    hoard = []
    while True:
        hoard.append(bytearray(1 << 20))

def count_up(limit):
    return list(range(limit))
"""


def test_a_source_that_ends_its_grading_child_is_an_error_on_every_checkpoint(monkeypatch):
    import runner.offline.gates.mutant_grading as mutant_grading
    monkeypatch.setattr(mutant_grading, "WORKER_MEMORY_BYTES", 64 * MIB)
    # The grading loop's own MemoryError handler is what fails here: memory is still full.
    monkeypatch.setattr(mutant_grading, "_grade_source", fill_memory_and_fail_while_reporting)
    bundle = load_bundle(FIXTURE, include_offline=False)
    assert grade_sources(bundle, [HOARDING], jobs=1, call_seconds=2.0) == [{"clamp": "error", "count_up": "error"}]


def test_a_reference_that_fails_in_a_grading_child_stops_the_gate_before_any_mutant_counts():
    bundle = load_bundle(FIXTURE, include_offline=False)
    broken = "def clamp(value):\n    return 0\n\ndef count_up(limit):\n    return []\n"
    with pytest.raises(MutationSetupError) as raised:
        grade_mutants(bundle, broken, [], jobs=1, call_seconds=2.0)
    assert str(raised.value) == ("solution.py does not pass clamp, count_up in a grading worker "
                                 "(2048 MiB memory, 2 s per call)")
