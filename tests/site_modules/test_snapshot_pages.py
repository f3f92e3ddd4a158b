"""The stored form of the Python memory snapshot (site/src/snapshot-pages.js): its zero pages left
out, everything else given back byte for byte, and anything else refused (the page then starts
Python in full, test_python_snapshot.py)."""

from __future__ import annotations

import math
from pathlib import Path

from tests.node_bridge import node_fixture

PAGE = 4096
HEADER = 16

bridge = node_fixture(Path(__file__).with_name("snapshot_pages_ops.mjs"))


def bit_field(pages: int) -> int:
    """One bit per page, in whole 4-byte words."""
    return math.ceil(math.ceil(pages / 8) / 4) * 4


def test_zero_pages_are_left_out_and_every_byte_comes_back(bridge):
    # Ten pages and a partial eleventh; pages 0, 3 and the last one hold a byte, the others are zero.
    length = 10 * PAGE + 123
    answer = bridge.ask(op="round-trip", length=length, set=[[5, 1], [3 * PAGE + 4095, 255], [10 * PAGE + 122, 7]])
    assert answer == {"packedLength": HEADER + bit_field(11) + 2 * PAGE + 123, "same": True}


def test_a_snapshot_without_zero_pages_only_gains_its_header(bridge):
    length = 3 * PAGE
    answer = bridge.ask(op="round-trip", length=length, set=[[page * PAGE, 1] for page in range(3)])
    assert answer == {"packedLength": HEADER + bit_field(3) + length, "same": True}


def test_a_length_that_is_no_whole_number_of_words_round_trips(bridge):
    assert bridge.ask(op="round-trip", length=PAGE + 3, set=[[PAGE + 2, 9]])["same"] is True
    assert bridge.ask(op="round-trip", length=7, set=[])["same"] is True


def test_damaged_or_foreign_bytes_are_refused(bridge):
    assert bridge.ask(op="damaged", length=4 * PAGE, set=[[0, 1], [2 * PAGE, 2]]) == {
        "cut": "the snapshot is cut short",
        "longer": "the snapshot has bytes left over",
        "otherMagic": "the snapshot is not in the kept format",
        "raw": "the snapshot is not in the kept format",
        "empty": "the snapshot is too short",
    }
