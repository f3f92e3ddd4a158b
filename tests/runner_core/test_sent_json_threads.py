"""The store of large arguments' JSON is shared by the quality gate's threads (two known solutions
graded at once). Unlocked, one thread's eviction ran while another iterated the store, and a
build's gate failed a correct solution with "dictionary changed size during iteration"."""

from __future__ import annotations

import sys
import threading

from runner.core.host import _SentJSON


def test_threads_that_store_and_evict_at_once_keep_the_store_whole():
    store = _SentJSON()
    store.MIN_BYTES = 1
    store.MAX_BYTES = 64 * 1024  # small, so nearly every put evicts
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for index in range(3000):
                key = f"{seed}:{index}".encode() * 40
                store.put(key, ("[1]" * 200, "{}"))
                store.get(key)
        except BaseException as error:  # the test reports what a thread raised
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython allows: the race shows at once
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    expected = sum(2 * len(key) + len(args) + len(kwargs) for key, (args, kwargs) in store.entries.items())
    assert store.size == expected
    assert store.size <= store.MAX_BYTES
