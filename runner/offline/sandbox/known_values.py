"""Large results that crossed the channel before, named by a digest instead of sent again.

A class's correct submissions return the same large values to the same tests (10000 passages,
say, megabytes of JSON): the child would encode and write them, the grader read and parse them,
for every submission again. So the child names a large exact-plain result by the SHA-256 of its
fingerprint (`plain.fingerprint`: marshal version 0, whose bytes are equal exactly when the
values are equal with the same types all the way down) and holds it; the grader looks the digest
up among the values it parsed itself before, and only asks for the value (`{"op": "value"}`)
when it does not know it.

Nothing here trusts the child more than the full value would: a digest the grader knows was
computed by the grader from a value it parsed from some child's reply, so a child can only name
a value it could also have sent (to name the right answer it must know the right answer); a
value the grader asks for is parsed strictly as any reply, must be exact plain, and must have the
digest the child named, or the child is stopped. What a hit gives the tests is a fresh copy
(marshal of the grader's own bytes), the very value the full path would have given.

The store keeps the value as marshal's current version, not as the fingerprint: that loads in
half the time (short ASCII strings, and a string the value holds many times, such as a revision
in every passage, read once). Its back-references only repeat what the parsed value itself
shares, which is never a list or dict (a JSON parser makes a new one for every position), so a
copy holds no container twice, as the value parsed from a reply does not.
"""

from __future__ import annotations

import hashlib
import marshal
import re
import threading
from collections import OrderedDict
from typing import Any

# Results whose fingerprint is smaller cross as they are: the digest would save little.
DIGEST_MIN_BYTES = 64 * 1024
# Fingerprint bytes the grader keeps per process, least recently used out first.
STORE_MAX_BYTES = 8 * 1024 * 1024
DIGEST_FORM = re.compile(r"[0-9a-f]{64}")


def digest_of(fingerprint: bytes) -> str:
    return hashlib.sha256(fingerprint).hexdigest()


class KnownValues:
    """The grader's side: digest -> marshal bytes of a value parsed from a reply. Hosts in
    several threads of one process (the quality gate) share it, hence the lock."""

    def __init__(self, max_bytes: int = STORE_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.entries: OrderedDict[str, bytes] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, digest: str) -> Any | None:
        """A fresh copy of the value named by digest, or None when it is not known here."""
        with self.lock:
            stored = self.entries.get(digest)
            if stored is None:
                return None
            self.entries.move_to_end(digest)
        return marshal.loads(stored)

    def put(self, digest: str, value: Any) -> None:
        """value: exact plain, parsed from a reply, whose fingerprint has this digest."""
        stored = marshal.dumps(value)
        with self.lock:
            # Half the store at most: the largest value a lesson's test returns (10000 passages,
            # 1.5 MB) must fit beside the others.
            if len(stored) > self.max_bytes // 2 or digest in self.entries:
                return
            while self.entries and self.size + len(stored) > self.max_bytes:
                _, oldest = self.entries.popitem(last=False)
                self.size -= len(oldest)
            self.entries[digest] = stored
            self.size += len(stored)


# One per grading process: a batch worker grades many submissions, each with its own host.
KNOWN_VALUES = KnownValues()
