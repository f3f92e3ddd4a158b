"""Values' text forms: the JSON lines of results.jsonl and the grader's channel.

`plain` makes a value JSON-safe data; this module writes that data as one line and reads it back
strictly. Both ends (the browser's runner, the offline grader and its sandboxed child) import it.
"""

from __future__ import annotations

import json
import marshal
import re
from typing import Any


def reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads` hook: a JSON object with the same key twice is malformed, not last-one-wins."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or _add(seen, key))
        raise ValueError(f"duplicate key {duplicate!r}")
    return result


def dumps(data: Any) -> str:
    """One line of JSON for encoded data; lone surrogates survive as \\udXXX escapes."""
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"))


def json_line(data: Any) -> bytes:
    """`dumps(data)` as one ASCII line with its newline: what results.jsonl holds."""
    return (dumps(data) + "\n").encode("ascii")


# The channel between the grader and its child (runner.offline.sandbox) carries lines of JSON in
# UTF-8. ASCII JSON writes an astral character as a pair of surrogate escapes ("\\ud83d\\ude00"),
# and a high surrogate followed by a low one, two code points of their own in a Python str,
# exactly the same way; parsing joins them into the one astral character. The learner's value
# would change on the way, while the browser (no channel) keeps it. So a line whose strings hold
# a surrogate code point is written with every code point as it is, in UTF-8 with
# "surrogatepass": an astral character is one 4-byte sequence there, a surrogate a 3-byte one of
# its own, and decoding never joins two of those. Every other line stays ASCII JSON, which the
# json module writes fastest.
WIRE_ENCODING = "utf-8"
WIRE_ERRORS = "surrogatepass"
# A surrogate code point in UTF-8 with surrogatepass: ED A0..BF xx. No other UTF-8 sequence has
# these two bytes, so in marshal's bytes of a value (strings in that same UTF-8) they say "maybe";
# a false "maybe" (the bytes of a number) costs only the slower, equally exact form.
_SURROGATE_UTF8 = re.compile(rb"\xed[\xa0-\xbf]")


def _may_hold_surrogates(data: Any) -> bool:
    try:
        return _SURROGATE_UTF8.search(marshal.dumps(data)) is not None
    except (ValueError, RecursionError):
        return True


def wire_dumps(data: Any) -> str:
    """JSON text of encoded data for the channel; see wire_line."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    # Without a surrogate escape the ASCII text is exact; with one, only the value can tell an
    # astral character (its escapes are exact too) from surrogates of its own.
    if "\\ud" in text and _may_hold_surrogates(data):
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text


def wire_line(data: Any) -> bytes:
    """One channel line: `wire_dumps(data)` with its newline, in UTF-8 with lone surrogates kept.
    JSON escapes every control character, so the only newline byte is the last one."""
    return (wire_dumps(data) + "\n").encode(WIRE_ENCODING, WIRE_ERRORS)


def wire_line_with(data: dict[str, Any], raw: dict[str, str]) -> bytes:
    """wire_line of data with the keys of raw added, whose values are JSON text `wire_dumps`
    already made (reused, not serialized again). data must hold at least one key."""
    text = wire_dumps(data)
    if raw:
        text = text[:-1] + "".join(f",{wire_dumps(key)}:{value}" for key, value in raw.items()) + "}"
    return (text + "\n").encode(WIRE_ENCODING, WIRE_ERRORS)


def wire_loads(line: bytes) -> Any:
    """Parse one channel line strictly: ValueError (UnicodeDecodeError included) for bytes that
    are not UTF-8 (surrogates allowed), for text that is not JSON, and for an object with the
    same key twice (malformed, not last-one-wins)."""
    text = line.decode(WIRE_ENCODING, WIRE_ERRORS)
    return json.loads(text, object_pairs_hook=reject_duplicate_keys)


def _add(seen: set[str], key: str) -> bool:
    """set.add inside an expression: False, so the scan goes on."""
    seen.add(key)
    return False


def loads(text: str) -> Any:
    """Parse one line written by `dumps` (the caller decodes it)."""
    return json.loads(text)
