"""Large results named by a digest (runner.offline.sandbox.known_values): sent once per grading
process, the same value every time, and a child that names one value and sends another is stopped."""

from __future__ import annotations

import marshal

import pytest

from runner.offline.sandbox import known_values
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.known_values import DIGEST_MIN_BYTES, KnownValues

LARGE = "def passages(n, tag):\n    return [{'id': f'd:{i}', 'n': i, 'f': 0.5, 'b': True, 'tag': tag} for i in range(n)]\n"


@pytest.fixture()
def fresh_store(monkeypatch):
    store = KnownValues()
    monkeypatch.setattr("runner.offline.sandbox.host.KNOWN_VALUES", store)
    return store


def counting(host, monkeypatch):
    ops = []
    original = host._exchange

    def exchange(request, time_limit=None, raw=None):
        ops.append(request["op"])
        return original(request, time_limit, raw)

    monkeypatch.setattr(host, "_exchange", exchange)
    return ops


def expected(n, tag):
    return [{"id": f"d:{i}", "n": i, "f": 0.5, "b": True, "tag": tag} for i in range(n)]


def test_a_large_result_crosses_once_then_by_its_digest_as_the_same_fresh_value(host, fresh_store, monkeypatch):
    host.load(LARGE, ["passages"])
    ops = counting(host, monkeypatch)
    first = host.call("passages", [5000, "\ud83d\ude00"])
    assert ops == ["call", "value"] and len(fresh_store.entries) == 1
    second = host.call("passages", [5000, "\ud83d\ude00"])
    assert ops == ["call", "value", "call"]  # known: not sent again
    for outcome in (first, second):
        assert outcome.kind == "return" and outcome.value_is_plain
        assert outcome.value == expected(5000, "\ud83d\ude00") and len(outcome.value[0]["tag"]) == 2
        assert repr(outcome.value[:2]) == repr(expected(2, "\ud83d\ude00"))  # True stays True, 0.5 a float
        assert len(set(map(id, outcome.value))) == len(outcome.value)  # no dict twice, as parsed
    second.value[0]["n"] = "changed by a test"
    assert host.call("passages", [5000, "\ud83d\ude00"]).value == expected(5000, "\ud83d\ude00")
    # Another value is another digest: asked for, not mistaken for the known one.
    other = host.call("passages", [5000, "x"])
    assert ops[-2:] == ["call", "value"] and other.value == expected(5000, "x")


def test_small_results_and_results_that_need_decoding_cross_as_they_are(host, fresh_store, monkeypatch):
    host.load(LARGE + "def marked(n):\n    return [{'$k': i} for i in range(n)] + [(1,)]\n", ["passages", "marked"])
    ops = counting(host, monkeypatch)
    assert host.call("passages", [10, "x"]).value == expected(10, "x")
    marked = host.call("marked", [20000])
    assert marked.value[0] == {"$k": 0} and type(marked.value[-1]).__name__ == "Opaque"
    assert ops == ["call", "call"] and not fresh_store.entries


def forged(host, monkeypatch, first_body, value_body):
    """The host against a child that answers a call with first_body and a value request with value_body."""
    def exchange(request, time_limit=None, raw=None):
        host._reply_is_plain = True
        return dict(first_body) if request["op"] == "call" else dict(value_body)

    monkeypatch.setattr(host, "_exchange", exchange)
    return host.call("passages", [1, "x"])


RETURN = {"kind": "return", "value": None, "error": None, "aliased_paths": [], "shared_paths": [],
          "args_unchanged": True, "stdout": "", "duration_ms": 0}


@pytest.mark.parametrize(("digest", "value_body", "message"), [
    ("0" * 64, {"value": [1, 2, 3]}, "een andere waarde dan het aankondigde"),
    (known_values.digest_of(b"x"), {"value": [1]}, "een andere waarde dan het aankondigde"),
    ("0" * 64, {"value": None}, "een andere waarde dan het aankondigde"),
    ("0" * 64, {"value": [1], "extra": 1}, "een andere waarde dan het aankondigde"),
    ("ABC", {"value": [1]}, "niet de afgesproken vorm"),
    (7, {"value": [1]}, "niet de afgesproken vorm"),
])
def test_a_child_that_names_one_value_and_sends_another_is_stopped(fresh_store, monkeypatch, digest, value_body, message):
    with ChildProcessHost() as own_host:
        own_host.load(LARGE, ["passages"])
        outcome = forged(own_host, monkeypatch, dict(RETURN, value_digest=digest), value_body)
        assert outcome.kind == "error" and message in outcome.message
        assert not fresh_store.entries
        assert own_host.child_pid is None  # stopped, as for any broken reply


def test_a_digest_beside_a_value_is_refused(fresh_store, monkeypatch):
    with ChildProcessHost() as own_host:
        own_host.load(LARGE, ["passages"])
        outcome = forged(own_host, monkeypatch, dict(RETURN, value=[1], value_digest="0" * 64), {"value": [1]})
        assert outcome.kind == "error" and "niet de afgesproken vorm" in outcome.message


def test_the_store_keeps_the_recently_used_within_its_size():
    values = {name: [name * DIGEST_MIN_BYTES] for name in "abcde"}
    store = KnownValues(max_bytes=4 * len(marshal.dumps(values["a"])))
    for name in "abcd":
        store.put(name * 64, values[name])
    assert store.get("a" * 64) == ["a" * DIGEST_MIN_BYTES]  # now the most recently used
    store.put("e" * 64, values["e"])
    assert store.get("b" * 64) is None and store.get("a" * 64) is not None and store.get("e" * 64) is not None
    assert store.size == store.max_bytes


def test_the_largest_result_a_lesson_returns_fits_in_the_store_and_more_than_half_does_not():
    store = KnownValues()
    passages = [{"id": f"d:{i}", "text": f"{i:05}" + "x" * 195} for i in range(10000)]
    assert len(marshal.dumps(passages)) > store.max_bytes // 4  # 10000 passages as rag-01 returns them, and more
    store.put("a" * 64, passages)
    assert store.get("a" * 64) == passages
    store.put("b" * 64, ["x" * (store.max_bytes // 2 + 1)])
    assert store.get("b" * 64) is None
