"""The channel between grader and child: strict parsing, size caps, nothing outside the protocol."""

from __future__ import annotations

import os
import select
import signal
import textwrap
import time

import pytest
from offline_support import TEST_LIMITS

from runner.offline.sandbox.channel import MAX_REPLY_VALUES, ChildGone, parse_reply
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.pipes import PipeReader
from runner.offline.sandbox.protocol import SandboxLimits


def test_parse_reply_returns_the_body_of_a_matching_reply():
    assert parse_reply(b'{"id":"ab12","body":{"kind":"return"}}', "ab12") == {"kind": "return"}


@pytest.mark.parametrize(("line", "reason"), [
    (b'{"id":"other","body":{}}', "hoort niet bij de vraag"),
    (b'{"id":"ab12","body":{},"extra":1}', "niet de afgesproken vorm"),
    (b'{"id":"ab12","body":[]}', "niet de afgesproken vorm"),
    (b'["ab12",{}]', "niet de afgesproken vorm"),
    (b'{"id":"ab12","id":"ab12","body":{}}', "onleesbaar"),
    (b'{"id":"ab12","body":{"kind":"return"', "onleesbaar"),
    (b'{"id":"ab12","body":{"v":"\xe9"}}', "onleesbaar"),  # not UTF-8 (Latin-1)
    (b'{"id":"ab12","body":{"v":1,"v":2}}', "onleesbaar"),  # a key twice, deeper down
    (b'{"id":"ab12","body":{"v":"\\":","v":2}}', "onleesbaar"),  # ... beside a string with ":
    (b"", "onleesbaar"),
])
def test_parse_reply_rejects_anything_else(line, reason):
    with pytest.raises(ChildGone, match=reason):
        parse_reply(line, "ab12")


def test_a_reply_with_more_values_than_any_true_reply_is_refused_before_parsing():
    forged = b'{"id":"1","body":{"kind":"return","value":[' + b"[]," * MAX_REPLY_VALUES + b'[]]}}'
    with pytest.raises(ChildGone, match="te groot"):
        parse_reply(forged, "1")


def test_counting_a_forged_reply_takes_linear_time():
    # Escaped quotes among millions of commas made a backtracking count take minutes.
    forged = b'{"id":"1","body":{"value":"' + b',\\"' * 8000 + b"," * 1_600_000 + b'"}}'
    started = time.monotonic()
    body = parse_reply(forged, "1")  # one long string: few values, so it may be parsed
    assert time.monotonic() - started < 10  # was over 4 minutes
    assert body["value"].count(",") == 1_608_000


def test_a_long_text_full_of_commas_is_no_reason_to_refuse_a_reply(host):
    host.load("def commas():\n    return ',[{' * 700_000\n", ["commas"])
    outcome = host.call("commas", [])
    assert outcome.kind == "return" and outcome.value == ",[{" * 700_000


def test_pipe_reader_keeps_bytes_in_order_across_reads_and_reports_the_end():
    read_fd, write_fd = os.pipe()
    try:
        reader = PipeReader(read_fd, read_bytes=4)
        os.write(write_fd, b"abcdefghij")
        assert [reader.read_some() for _ in range(3)] == [4, 4, 2]
        assert reader.pending == b"abcdefghij"
        os.close(write_fd)
        write_fd = -1
        assert reader.read_some() == 0
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)


def test_values_larger_than_one_read_cross_both_ways_intact(host):
    host.load("def echo(value):\n    return value\n", ["echo"])
    value = ["\u00e9\U0001f600 " * 400_000, list(range(50_000))]  # several MiB of JSON each way
    outcome = host.call("echo", [value])
    assert outcome.kind == "return" and outcome.value == value


def test_values_cross_with_exact_types_and_lone_surrogates(host):
    host.load("def echo(value):\n    return [value, type(value).__name__]\n", ["echo"])
    for value in ["\ud800x", True, 1, 1.0, None, {"$opaque": "x"}, [{"a": [1]}]]:
        outcome = host.call("echo", [value])
        assert outcome.kind == "return"
        assert outcome.value[0] == value and type(outcome.value[0]) is type(value)


def test_arguments_after_the_call_cross_back_exactly(host):
    host.load("def touch(records, change):\n    if change:\n        records[0]['n'] = True\n    return 0\n", ["touch"])
    sent = [{"n": 1, "$k": "\ud800", "big": "é" * 300_000}]  # wider than one 64 KiB pipe buffer
    assert host.call("touch", [sent, False]).args_after == [sent, False]
    changed = host.call("touch", [sent, True]).args_after[0][0]
    assert changed["n"] is True and sent[0]["n"] == 1


def test_a_reply_over_the_size_cap_is_an_error():
    limits = SandboxLimits(call_seconds=5.0, reply_bytes=50_000)
    with ChildProcessHost(limits) as small_host:
        small_host.load("def big():\n    return 'x' * 200_000\n", ["big"])
        outcome = small_host.call("big", [])
        assert outcome.kind == "error"
        assert outcome.message == "het antwoord van het proces was te groot"


def test_a_line_written_outside_the_protocol_fails_the_next_call(host):
    host.load(textwrap.dedent('''
        import os, threading, time

        def later():
            def write():
                time.sleep(0.3)
                os.write(4, b'{"id": "x", "body": {}}\\n')
            threading.Thread(target=write).start()
    '''), ["later"])
    host.call("later", [])
    # Wait until the stray line is in the reply pipe (the child's files are out of our sight).
    select.select([host._child.reply_fd], [], [], 20)
    outcome = host.call("later", [])
    assert outcome.kind == "error"
    assert outcome.message == "het proces schreef buiten het protocol om"


def test_a_timed_out_call_restarts_cleanly(host):
    host.load("def slow(seconds):\n    import time\n    time.sleep(seconds)\n    return seconds\n", ["slow"])
    timed_out = host.call("slow", [TEST_LIMITS.call_seconds + 5])
    assert timed_out.kind == "timeout"
    assert host.call("slow", [0]).kind == "error"  # no child until restart()
    assert host.restart().ok
    assert host.call("slow", [0]).value == 0


def test_a_lost_zygote_is_replaced_before_the_next_submission():
    with ChildProcessHost(TEST_LIMITS) as own_host:
        assert own_host.load("def f():\n    return 1\n", ["f"]).ok
        own_host.finish_submission()
        os.kill(own_host._zygote.pid, signal.SIGKILL)
        own_host._zygote.wait()
        assert own_host.load("def f():\n    return 2\n", ["f"]).ok
        assert own_host.call("f", []).value == 2
        assert own_host.sandbox_failure is None


def test_a_surrogate_pair_of_two_code_points_stays_two_code_points_both_ways(host):
    # The browser has no channel: there "\ud83d\ude00" stays two code points, and so it must here.
    host.load("def split(text):\n    return [len(text), text, '\\ud83d' + '\\ude00', {'\\ud83d\\ude00': 1}]\n", ["split"])
    for text, length in [("\ud83d\ude00", 2), ("😀", 1), ("x\ud83d\ude00😀\udc00", 5)]:
        outcome = host.call("split", [text])
        assert outcome.kind == "return"
        assert outcome.value == [length, text, "\ud83d\ude00", {"\ud83d\ude00": 1}]
        assert len(outcome.value[2]) == 2 and "😀" not in outcome.value[2]
