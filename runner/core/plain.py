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

import marshal
import sys
from collections.abc import Iterable
from itertools import chain, compress, repeat
from typing import Any

# Deeper than any value the lessons use, shallow enough to stop self-referencing lists.
MAX_DEPTH = 24
# Values (not keys) in one encoded value: the largest value a lesson's test sends here (20001
# records of eight fields) is 180009 of them; a learner's answer of that size must fit too.
MAX_NODES = 500_000
# Total characters over all strings and keys in one value.
MAX_CHARS = 8_000_000
# Ints wider than this are opaque: JSON and int->str conversion of huge ints are slow or refused.
MAX_INT_BITS = 4096

OPAQUE_KEY = "$opaque"
REASON_KEY = "$reason"
# The plain type an opaque value's class derives from (a Counter is a dict): the learner is told
# to return a plain one of those.
LIKE_KEY = "$like"
# The reason a dict is opaque because of a key that is not a str.
KEY_REASON = "sleutel van type "
# A learner dict key that starts with "$" is escaped by doubling the "$", so no learner dict
# can look like an opaque marker.
ESCAPE_PREFIX = "$"

_DICT, _LIST, _STR, _INT, _FLOAT, _BOOL, _NONE = dict, list, str, int, float, bool, type(None)
_TYPE_NAME = type.__dict__["__name__"]
_TYPE_MRO = type.__dict__["__mro__"]
# bool cannot be subclassed; the others can, and a subclass is not plain.
_SUBCLASSABLE = (_DICT, _LIST, _STR, _INT, _FLOAT)
PLAIN_BASE_NAMES = ("dict", "list", "str", "int", "float")


class PlainError(ValueError):
    """Data that does not follow the plain encoding (for example a corrupt reply)."""


class Opaque:
    """A value that could not cross as plain data. It equals nothing, not even itself."""

    __slots__ = ("type_name", "reason", "like")

    def __init__(self, type_name: str, reason: str = "", like: str = "") -> None:
        self.type_name = type_name
        self.reason = reason
        self.like = like  # "dict" for a Counter: the plain type its class derives from, if any

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


def type_name(value: Any) -> str:
    """The name of value's class, read without running any learner-defined descriptor."""
    try:
        name = _TYPE_NAME.__get__(type(value), type)
    except Exception:
        return "?"
    if type(name) is not _STR:
        return "?"
    return name[:80]


def plain_base(value: Any) -> str:
    """"dict" for a Counter or any other dict subclass (likewise list, str, int, float); "" when
    value's class derives from no plain type. Reads the class's MRO through type's own
    descriptor and compares by identity, so no learner-defined method runs."""
    try:
        bases = _TYPE_MRO.__get__(type(value), type)
    except Exception:
        return ""
    if type(bases) is not tuple:
        return ""
    for base in bases:
        for plain_type in _SUBCLASSABLE:
            if base is plain_type:
                name: str = _TYPE_NAME.__get__(plain_type, type)
                return name
    return ""


def opaque_marker(type_name_: str, reason: str = "", like: str = "") -> dict[str, Any]:
    marker = {OPAQUE_KEY: type_name_}
    if reason:
        marker[REASON_KEY] = reason
    if like:
        marker[LIKE_KEY] = like
    return marker


_SCALARS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NONE})
# Scalars that cross as they are, whatever their value (an int may be too wide; a str is counted).
_FLAT_SCALARS = frozenset({_FLOAT, _BOOL, _NONE})
_ONLY_STR = {_STR}
_CONTAINERS = frozenset({_LIST, _DICT})
_SCALARS_AND_CONTAINERS = _SCALARS | _CONTAINERS
_ONLY_INT = {_INT}


class _Encoder:
    """One walk over a value. Scalars inside a container are handled inline (no call per item):
    the walk is the grader's hottest loop, and most values are lists of dicts of scalars."""

    def __init__(self) -> None:
        self.nodes = 0
        self.chars = 0
        # True once any part became an opaque marker: then decode(result) is not the value itself.
        self.made_opaque = False
        # True once a "$" key was escaped: then the data needs decoding to be the value again.
        self.escaped_key = False

    def _check(self) -> None:
        if self.nodes > MAX_NODES or self.chars > MAX_CHARS:
            raise _TooLarge

    def _opaque(self, type_name_: str, reason: str = "", like: str = "") -> dict[str, Any]:
        self.made_opaque = True
        return opaque_marker(type_name_, reason, like)

    def _flat_list(self, items: list[Any]) -> list[Any] | None:
        """items itself when it holds only scalars of one kind (or only float/bool/None), counted
        with C-level map() instead of a Python loop; None when the general walk is needed."""
        kinds = set(map(type, items))
        chars = 0
        if kinds == _ONLY_STR:
            chars = sum(map(_STR.__len__, items))
        elif kinds == _ONLY_INT:
            if items and max(map(_INT.bit_length, items)) > MAX_INT_BITS:
                return None
        elif not kinds <= _FLAT_SCALARS:
            return None
        self.nodes += len(items)
        self.chars += chars
        self._check()
        return items  # already a fresh copy made by the caller

    def encode(self, value: Any, depth: int) -> Any:
        kind = type(value)
        if kind is _LIST:
            self.nodes += 1
            if depth >= MAX_DEPTH:
                return self._opaque("list", "te diep genest")
            items = _LIST.copy(value)
            # Every item is at least one node: refuse a huge list before walking it.
            if self.nodes + len(items) > MAX_NODES:
                raise _TooLarge
            flat = self._flat_list(items)
            if flat is not None:
                return flat
            encoded_list: list[Any] = []
            append = encoded_list.append
            chars = 0
            for item in items:
                item_kind = type(item)
                if item_kind is _STR:
                    chars += len(item)
                    append(item)
                elif item_kind in _FLAT_SCALARS or (item_kind is _INT and _INT.bit_length(item) <= MAX_INT_BITS):
                    append(item)
                else:
                    self.nodes -= 1  # encode() counts it
                    append(self.encode(item, depth + 1))
            self.nodes += len(items)
            self.chars += chars
            self._check()
            return encoded_list
        if kind is _DICT:
            self.nodes += 1
            if depth >= MAX_DEPTH:
                return self._opaque("dict", "te diep genest")
            pairs = _LIST(_DICT.items(value))
            if self.nodes + len(pairs) > MAX_NODES:
                raise _TooLarge
            encoded = {}
            chars = 0
            for key, item in pairs:
                if type(key) is not _STR:
                    # One non-str key makes the whole dict unusable as plain data.
                    return self._opaque("dict", f"{KEY_REASON}{type_name(key)}")
                chars += len(key)
                if key.startswith(ESCAPE_PREFIX):
                    key = ESCAPE_PREFIX + key
                    self.escaped_key = True
                item_kind = type(item)
                if item_kind is _STR:
                    chars += len(item)
                    encoded[key] = item
                elif item_kind in _FLAT_SCALARS or (item_kind is _INT and _INT.bit_length(item) <= MAX_INT_BITS):
                    encoded[key] = item
                else:
                    self.nodes -= 1  # encode() counts it
                    encoded[key] = self.encode(item, depth + 1)
            self.nodes += len(pairs)
            self.chars += chars
            self._check()
            return encoded
        if kind is _STR:
            self.nodes += 1
            self.chars += len(value)
            self._check()
            return value
        self.nodes += 1
        self._check()
        if kind is _BOOL or kind is _NONE or kind is _FLOAT:
            return value
        if kind is _INT:
            if _INT.bit_length(value) > MAX_INT_BITS:
                return self._opaque("int", "te groot getal")
            return value
        if kind is Opaque:
            # Re-encoding a decoded value on the trusted side keeps what the marker said.
            return self._opaque(value.type_name, value.reason, value.like)
        return self._opaque(type_name(value), "", plain_base(value))


def encode(value: Any) -> Any:
    """JSON-safe data for value, keeping exact types; see the module docstring."""
    return encode_checked(value)[0]


def is_own_encoding(value: Any) -> bool:
    """True when encode(value) gives value back as it is: exact plain (see is_exact_plain), no
    key that starts with "$", no int wider than MAX_INT_BITS, and within MAX_DEPTH, MAX_NODES
    and MAX_CHARS counted as the encoder counts them (every value one node, every string and
    every key its length). A whole level at a time with C-level map/compress/join: a list of
    10000 dicts of scalars costs a few Python steps per level instead of the encoder's Python
    step per item. Calls no learner method (type() only, and the builtin methods of exact types)."""
    level = [value]
    nodes = chars = 0
    for depth in range(MAX_DEPTH + 1):
        nodes += len(level)
        if nodes > MAX_NODES:
            return False
        types = _LIST(map(type, level))
        kinds = set(types)
        if not kinds <= _SCALARS_AND_CONTAINERS:
            return False
        if _STR in kinds:
            chars += len("".join(compress(level, map(_IS_STR, types))))
        if _INT in kinds:
            ints = _LIST(compress(level, map(_IS_INT, types)))
            if max(ints) >= _INT_LIMIT or min(ints) <= -_INT_LIMIT:
                return False
        if chars > MAX_CHARS:
            return False
        has_dicts, has_lists = _DICT in kinds, _LIST in kinds
        if not has_dicts and not has_lists:
            return True
        if depth >= MAX_DEPTH:
            return False  # containers this deep become opaque markers
        next_level: list[Any] = []
        if has_dicts:
            dicts = _LIST(compress(level, map(_IS_DICT, types)))
            keys = _LIST(_chain(dicts))
            if not set(map(type, keys)) <= _ONLY_STR:
                return False
            # One string of every key, each after a NUL: a "$" key shows as "\0$", and the
            # length less the NULs is what the keys count.
            joined = "\0" + "\0".join(keys)
            if "\0$" in joined:
                return False
            chars += len(joined) - len(keys) - (not keys)
            next_level.extend(_chain(map(_DICT.values, dicts)))
        if has_lists:
            next_level.extend(_chain(compress(level, map(_IS_LIST, types))))
        level = next_level
    return False


def encode_checked(value: Any, copy: bool = True) -> tuple[Any, bool]:
    """(encode(value), exact). exact is True when the data needs no decoding: no part became an
    opaque marker and no key was escaped, so the data itself equals value, with the same types
    all the way down. A trusted sender uses it to spare the receiver the decoding walk.

    copy=False: the caller serializes the data at once and keeps nothing (the offline child's
    reply), so a value that is its own encoding comes back as it is, found at C speed
    (is_own_encoding), instead of as the walk's fresh copy. The same data either way."""
    if not copy and type(value) in _CONTAINERS and is_own_encoding(value):
        return value, True
    encoder = _Encoder()
    try:
        data = encoder.encode(value, 0)
        return data, not (encoder.made_opaque or encoder.escaped_key)
    except _TooLarge:
        return opaque_marker(type_name(value), "te groot"), False
    except RecursionError:
        return opaque_marker(type_name(value), "te diep genest"), False


_chain = chain.from_iterable
_IS_STR = frozenset({_STR}).__contains__
_IS_INT = frozenset({_INT}).__contains__
# An int fits when its bit_length is at most MAX_INT_BITS: strictly between -2**4096 and 2**4096.
_INT_LIMIT = 1 << MAX_INT_BITS
_IS_DICT = frozenset({_DICT}).__contains__
_IS_LIST = frozenset({_LIST}).__contains__
_IS_SCALAR = _SCALARS.__contains__


def equal_exact(first: Any, second: Any) -> bool:
    """True when first and second are plain values that are equal with the same types all the way
    down and their dicts list their keys in the same order; False when they are not, or when it
    cannot tell this way (NaN, another key order, something that is not plain). Compares a whole
    level of both at once with C-level map/compress and list equality: for the usual answer, two
    equal lists of 10000 dicts, a few Python steps per level. For the grader's own values only
    (decoded replies, the reference's answers): it compares, it does not guard.

    First `==` at C speed: where it is False the walk finds a difference too (the walk's list
    comparisons are the same element comparisons, and dicts it compares key for key), so only the
    types and the key order are left to the walk, never the values themselves."""
    try:
        if not first == second:
            return False
    except RecursionError:
        return False  # deeper than any plain value
    level_a, level_b = [first], [second]
    for _depth in range(MAX_DEPTH + 1):
        types_a = _LIST(map(type, level_a))
        kinds = set(types_a)
        if not kinds <= _SCALARS_AND_CONTAINERS or types_a != _LIST(map(type, level_b)):
            return False
        if not kinds & _CONTAINERS:
            return True
        # Equal containers have equal lengths: each level of both lines up without counting.
        next_a: list[Any] = []
        next_b: list[Any] = []
        if _DICT in kinds:
            mask = _LIST(map(_IS_DICT, types_a))
            dicts_a, dicts_b = _LIST(compress(level_a, mask)), _LIST(compress(level_b, mask))
            if _LIST(_chain(dicts_a)) != _LIST(_chain(dicts_b)):
                return False  # another key order: the values would not line up
            next_a = _LIST(_chain(map(_DICT.values, dicts_a)))
            next_b = _LIST(_chain(map(_DICT.values, dicts_b)))
        if _LIST in kinds:
            mask = _LIST(map(_IS_LIST, types_a))
            next_a.extend(_chain(compress(level_a, mask)))
            next_b.extend(_chain(compress(level_b, mask)))
        level_a, level_b = next_a, next_b
    return False


def is_exact_plain(value: Any, dollar_keys: bool = True) -> bool:
    """True when value is made only of exact dicts (str keys), lists, str, int, float, bool and
    None, at most MAX_DEPTH deep and MAX_NODES large; with dollar_keys=False, also no key starts
    with "$" (so the value is its own encoding). Checked with type() and C-level map()/set()
    per container, never a learner method, so it is cheap enough to run before the full walks.
    Walks level by level: a list of dicts (the usual value) is queued without a filter."""
    if type(value) in _SCALARS:
        return True
    level = [value]
    nodes = 0
    for _depth in range(MAX_DEPTH):
        next_level: list[Any] = []
        dicts: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is _DICT:
                if not set(map(type, item)) <= _ONLY_STR:
                    return False
                dicts.append(item)
                values: Any = _DICT.values(item)
            elif kind is _LIST:
                values = item
            else:
                return False
            nodes += len(item)
            if nodes > MAX_NODES:
                return False
            kinds = set(map(type, values))
            if kinds <= _SCALARS:
                continue
            if kinds <= _CONTAINERS:
                next_level.extend(values)
            elif kinds <= _SCALARS_AND_CONTAINERS:
                values = _LIST(values)
                next_level.extend(compress(values, map(_CONTAINERS.__contains__, map(type, values))))
            else:
                return False
        # Every key of the level in one C-level pass (one per dict costs twice as much).
        if not dollar_keys and dicts and any(map(_STR.startswith, _chain(dicts), repeat(ESCAPE_PREFIX))):
            return False
        if not next_level:
            return True
        level = next_level
    return False  # containers left at MAX_DEPTH: encode would make them opaque


def fingerprint(value: Any) -> bytes | None:
    """Bytes that are equal for two exact plain values exactly when the values are equal with
    the same types all the way down (True is not 1, 1.0 is not 1; NaN equals NaN); None when
    value is not exact plain. marshal version 0 has no back-references or interning flags, so
    the bytes depend only on the value. Only ever applied to checked values, never parsed back
    from another process."""
    if not is_exact_plain(value):
        return None
    try:
        return marshal.dumps(value, 0)
    except (ValueError, RecursionError):
        return None


def fingerprint_of_plain(value: Any) -> bytes | None:
    """fingerprint(value) for a value that is exact plain by construction (parsed JSON, an
    exact_copy): the check is skipped, marshal alone decides; None if it still refuses."""
    try:
        return marshal.dumps(value, 0)
    except (ValueError, RecursionError):
        return None


# Before Python 3.12 marshal runs no Python code for any object (PEP 688's __buffer__ came in
# 3.12), so it may look at a value a learner's code has touched without the check first.
_MARSHAL_RUNS_NO_PYTHON = sys.version_info < (3, 12)


def unchanged(value: Any, before: bytes) -> bool:
    """True when value is exactly the exact plain value whose fingerprint is `before`, with the
    same types all the way down (the mutation check, after the learner's call). Equal marshal
    bytes leave no room for another type at any position, since `before` is of an exact plain
    value: no str subclass, tuple or bytes-like hides behind them (a subclass of a plain type is
    refused by marshal, a bytes-like writes bytes, which no plain value does)."""
    if _MARSHAL_RUNS_NO_PYTHON:
        return fingerprint_of_plain(value) == before
    return fingerprint(value) == before


def exact_copy(value: Any) -> Any:
    """A deep copy of an exact plain value (check it with is_exact_plain first), at C speed."""
    return marshal.loads(marshal.dumps(value))


def decode(data: Any) -> Any:
    """Plain Python values from encoded data. Raises PlainError for data no encoder produces.

    Data that is already exactly plain, with no marker and no escaped key (the usual reply),
    is returned as it is: it is fresh (parsed JSON, or a new encoding) and owned by the caller."""
    return decode_checked(data)[0]


def decode_checked(data: Any, known_plain: bool = False) -> tuple[Any, bool]:
    """(decode(data), plain): plain is True when the value is exact plain as it came, so it holds
    no Opaque and callers may skip looking for one. known_plain: the caller already knows the
    data holds no marker and no escaped key (JSON text without a string that starts with "$",
    or an encoding that said it is exact), so even the check is skipped."""
    if known_plain or is_exact_plain(data, dollar_keys=False):
        return data, True
    return _decode(data, 0), False


def _decode(data: Any, depth: int) -> Any:
    kind = type(data)
    if kind in _SCALARS:
        return data
    if depth > MAX_DEPTH + 1:
        raise PlainError("waarde is te diep genest")
    scalars = _SCALARS
    if kind is _LIST:
        return [item if type(item) in scalars else _decode(item, depth + 1) for item in data]
    if kind is _DICT:
        if OPAQUE_KEY in data:
            name = data[OPAQUE_KEY]
            reason = data.get(REASON_KEY, "")
            like = data.get(LIKE_KEY, "")
            if type(name) is not _STR or type(reason) is not _STR or like not in ("", *PLAIN_BASE_NAMES):
                raise PlainError("ongeldige markering voor een niet-gewone waarde")
            return Opaque(name[:80], reason[:200], like)
        decoded = {}
        for key, item in data.items():
            if type(key) is not _STR:
                raise PlainError("sleutel is geen tekst")
            if key.startswith(ESCAPE_PREFIX):
                key = key[1:]
            decoded[key] = item if type(item) in scalars else _decode(item, depth + 1)
        return decoded
    raise PlainError(f"geen gewone waarde: {type_name(data)}")


def first_opaque(value: Any, path: str = "") -> tuple[str, Opaque] | None:
    """(index path, marker) of the first Opaque in a decoded value, depth first; None if none.
    The path is "" for the value itself, else like "[0]['words']"."""
    if is_exact_plain(value):
        return None  # the usual answer, found at C speed: an Opaque is not plain
    return _first_opaque(value, path)


def _first_opaque(value: Any, path: str) -> tuple[str, Opaque] | None:
    if type(value) is Opaque:
        return path, value
    items: Iterable[tuple[Any, Any]]
    if type(value) is list:
        items = enumerate(value)
    elif type(value) is dict:
        items = value.items()
    else:
        return None
    for key, item in items:
        found = _first_opaque(item, f"{path}[{key!r}]")
        if found is not None:
            return found
    return None


def contains_opaque(value: Any) -> bool:
    """True when a decoded value holds an Opaque anywhere (decoded values are plain, so safe)."""
    return first_opaque(value) is not None
