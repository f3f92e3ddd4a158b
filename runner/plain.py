"""The only way values cross between learner code and the tests.

`encode` turns a value into JSON-safe data that keeps exact types; everything that is not exactly
a dict with str keys, list, str, int, float, bool or None becomes an opaque marker that carries
only its type name. `decode` rebuilds plain values from that data; markers become `Opaque`,
which equals nothing, so a learner object whose `__eq__` lies cannot pass a comparison.

Learner code is hostile: encoding never calls a method the learner could define (`__eq__`,
`__iter__`, `__len__`, `__hash__`, `__repr__`, ...). It checks `type(x) is ...` and walks only
exact builtin containers with the builtin methods.
"""

from __future__ import annotations

import json

# Deeper than any value the lessons use, shallow enough to stop self-referencing lists.
MAX_DEPTH = 24
# Values (not keys) in one encoded value: 20001 chunks of eight fields, the largest value a
# test sends, are 180009 of them; a learner's 20000 chunks must fit too.
MAX_NODES = 500_000
# Total characters over all strings and keys in one value.
MAX_CHARS = 8_000_000
# Ints wider than this are opaque: JSON and int->str conversion of huge ints are slow or refused.
MAX_INT_BITS = 4096

OPAQUE_KEY = "$opaque"
REASON_KEY = "$reason"
# A learner dict key that starts with "$" is escaped by doubling the "$", so no learner dict
# can look like an opaque marker.
ESCAPE_PREFIX = "$"

_DICT, _LIST, _STR, _INT, _FLOAT, _BOOL, _NONE = dict, list, str, int, float, bool, type(None)
_TYPE_NAME = type.__dict__["__name__"]


class PlainError(ValueError):
    """Data that does not follow the plain encoding (for example a corrupt reply)."""


class Opaque:
    """A value that could not cross as plain data. It equals nothing, not even itself."""

    __slots__ = ("type_name", "reason")

    def __init__(self, type_name: str, reason: str = "") -> None:
        self.type_name = type_name
        self.reason = reason

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        if self.reason:
            return f"<{self.type_name}: {self.reason}>"
        return f"<{self.type_name}>"


class _TooLarge(Exception):
    pass


def type_name(value: object) -> str:
    """The name of value's class, read without running any learner-defined descriptor."""
    try:
        name = _TYPE_NAME.__get__(type(value), type)
    except Exception:  # noqa: BLE001 - a broken class must not break encoding
        return "?"
    if type(name) is not _STR:
        return "?"
    return name[:80]


def opaque_marker(type_name_: str, reason: str = "") -> dict:
    marker = {OPAQUE_KEY: type_name_}
    if reason:
        marker[REASON_KEY] = reason
    return marker


class _Encoder:
    def __init__(self) -> None:
        self.nodes = 0
        self.chars = 0

    def count(self, chars: int = 0, node: int = 1) -> None:
        self.nodes += node
        self.chars += chars
        if self.nodes > MAX_NODES or self.chars > MAX_CHARS:
            raise _TooLarge

    def encode(self, value: object, depth: int) -> object:
        kind = type(value)
        if kind is _STR:
            self.count(len(value))
            return value
        if kind is _BOOL or kind is _NONE or kind is _FLOAT:
            self.count()
            return value
        if kind is _INT:
            self.count()
            if _INT.bit_length(value) > MAX_INT_BITS:
                return opaque_marker("int", "te groot getal")
            return value
        if kind is _LIST:
            self.count()
            if depth >= MAX_DEPTH:
                return opaque_marker("list", "te diep genest")
            return [self.encode(item, depth + 1) for item in _LIST.copy(value)]
        if kind is _DICT:
            self.count()
            if depth >= MAX_DEPTH:
                return opaque_marker("dict", "te diep genest")
            encoded = {}
            for key, item in _LIST(_DICT.items(value)):
                if type(key) is not _STR:
                    # One non-str key makes the whole dict unusable as plain data.
                    return opaque_marker("dict", f"sleutel van type {type_name(key)}")
                self.count(len(key), node=0)
                escaped = ESCAPE_PREFIX + key if key.startswith(ESCAPE_PREFIX) else key
                encoded[escaped] = self.encode(item, depth + 1)
            return encoded
        self.count()
        if kind is Opaque:
            # Re-encoding a decoded value on the trusted side keeps what the marker said.
            return opaque_marker(value.type_name, value.reason)
        return opaque_marker(type_name(value))


def encode(value: object) -> object:
    """JSON-safe data for value, keeping exact types; see the module docstring."""
    try:
        return _Encoder().encode(value, 0)
    except _TooLarge:
        return opaque_marker(type_name(value), "te groot")
    except RecursionError:
        return opaque_marker(type_name(value), "te diep genest")


def decode(data: object) -> object:
    """Plain Python values from encoded data. Raises PlainError for data no encoder produces."""
    return _decode(data, 0)


def _decode(data: object, depth: int) -> object:
    kind = type(data)
    if kind is _STR or kind is _BOOL or kind is _NONE or kind is _FLOAT or kind is _INT:
        return data
    if depth > MAX_DEPTH + 1:
        raise PlainError("waarde is te diep genest")
    if kind is _LIST:
        return [_decode(item, depth + 1) for item in data]
    if kind is _DICT:
        if OPAQUE_KEY in data:
            name = data[OPAQUE_KEY]
            reason = data.get(REASON_KEY, "")
            if type(name) is not _STR or type(reason) is not _STR:
                raise PlainError("ongeldige markering voor een niet-gewone waarde")
            return Opaque(name[:80], reason[:200])
        decoded = {}
        for key, item in data.items():
            if type(key) is not _STR:
                raise PlainError("sleutel is geen tekst")
            if key.startswith(ESCAPE_PREFIX):
                key = key[len(ESCAPE_PREFIX):]
            decoded[key] = _decode(item, depth + 1)
        return decoded
    raise PlainError(f"geen gewone waarde: {type_name(data)}")


def dumps(data: object) -> str:
    """One line of JSON for encoded data; lone surrogates survive as \\udXXX escapes."""
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"))


def loads(text: str) -> object:
    """Parse one line written by `dumps` (the caller decodes it)."""
    return json.loads(text)


def contains_opaque(value: object) -> bool:
    """True when a decoded value holds an Opaque anywhere (decoded values are plain, so safe)."""
    if type(value) is Opaque:
        return True
    if type(value) is list:
        return any(contains_opaque(item) for item in value)
    if type(value) is dict:
        return any(contains_opaque(item) for item in value.values())
    return False
