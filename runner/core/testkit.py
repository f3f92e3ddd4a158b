"""The API the checkpoint tests are written in.

A test module (checkpoints/<lesson>/tests/<checkpoint>.py) looks like:

    from runner.core.testkit import CallShape, expect_equal, expect_value_error, signature, test

    SIGNATURE = signature("word_counts(text, minimum=1)",
                          CallShape(1), CallShape(2), CallShape(1, ("minimum",)))

    @test("word_counts", "de zin uit het voorbeeld", visible=True)
    def example(learner):
        expect_equal(learner.word_counts("de kat en de hond"), reference.word_counts("de kat en de hond"),
                     "De tellingen van het voorbeeld kloppen niet.")

`learner.<function>(...)` calls the learner's function through the host and returns the decoded
result, or raises `LearnerRaised` when the function raised. The bundle loader gives every test
module the names `reference` (the lesson's solution.py, run in this trusted process) and `shared`
(tests/_shared.py, when present).

Messages are short Dutch sentences naming the rule that failed. They must never show a hidden
test's input; only visible tests (the lesson's worked examples) carry expected and actual values.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from runner.core import messages, plain
from runner.core.model import CallOutcome, ErrorInfo, clip
from runner.core.plain import Opaque, contains_opaque

TEST_MARKER = "__werkplaats_test__"
DISPLAY_LIMIT = 1500


@dataclass(frozen=True)
class CallShape:
    """One way the tests call a function: a number of positional args and some keyword names."""

    positional: int
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Signature:
    """How a checkpoint's function must be callable, for the check before any test runs."""

    text: str  # shown to the learner, e.g. "word_counts(text, minimum=2)"
    shapes: tuple[CallShape, ...]


def signature(text: str, *shapes: CallShape) -> Signature:
    return Signature(text=text, shapes=tuple(shapes))


@dataclass(frozen=True)
class TestSpec:
    __test__ = False  # not a pytest test class

    checkpoint: str
    name: str
    visible: bool
    run: Callable[[Learner], None] = field(compare=False)


def test(checkpoint: str, name: str, visible: bool = False) -> Callable[..., Any]:
    """Mark a function `def ...(learner)` as a test of checkpoint (the function name)."""

    def mark(function: Callable[[Learner], None]) -> Callable[[Learner], None]:
        setattr(function, TEST_MARKER, TestSpec(checkpoint, name, visible, function))
        return function

    return mark


test.__test__ = False  # type: ignore[attr-defined]


class TestFailed(Exception):
    """A rule was broken. expected/actual are only shown for visible tests."""

    __test__ = False

    def __init__(self, message: str, expected: Any = None, actual: Any = None, show: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual
        self.show = show


class NotPlainValue(TestFailed):
    """The learner's function returned something that cannot cross as plain data (a tuple, a
    Counter, a str subclass, a generator, ...). Raised by every call, so no test compares such a
    value and the learner is told what to return instead, not that the content is wrong."""

    __test__ = False


class LearnerRaised(Exception):
    """The learner's function raised; `info` says what (type, ValueError or not, message, line)."""

    def __init__(self, function: str, info: ErrorInfo) -> None:
        super().__init__(info.describe())
        self.function = function
        self.info = info


class CallStopped(BaseException):
    """The call timed out or the host failed. A BaseException so no test can swallow it."""

    def __init__(self, outcome: CallOutcome, function: str) -> None:
        super().__init__(outcome.kind)
        self.outcome = outcome
        self.function = function


class Learner:
    """The learner's functions, reachable only through the host."""

    def __init__(self, host: Any) -> None:
        self._host = host
        self.last: CallOutcome | None = None
        self.last_args: list[Any] = []
        self.last_kwargs: dict[str, Any] = {}

    def call(self, function: str, *args: Any, **kwargs: Any) -> Any:
        outcome = self._host.call(function, list(args), kwargs)
        self.last = outcome
        self.last_args = list(args)
        self.last_kwargs = dict(kwargs)
        if outcome.kind == "return":
            if outcome.value_is_plain:
                return outcome.value  # decoding found no marker: nothing to look for
            found = plain.first_opaque(outcome.value)
            if found is not None:
                path, marker = found
                raise NotPlainValue(messages.not_plain(function, path, marker.type_name, marker.reason, marker.like))
            return outcome.value
        if outcome.kind == "raise" and outcome.error is not None:
            raise LearnerRaised(function, outcome.error)
        raise CallStopped(outcome, function)

    def __getattr__(self, function: str) -> Callable[..., Any]:
        if function.startswith("_"):
            raise AttributeError(function)
        return lambda *args, **kwargs: self.call(function, *args, **kwargs)


class _OrderedRepr(reprlib.Repr):
    """reprlib, but dicts keep their own key order (reprlib sorts them, which misleads)."""

    def repr_dict(self, value: dict[str, Any], level: int) -> str:
        if not value:
            return "{}"
        if level <= 0:
            return "{...}"
        parts = [f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}" for k, v in list(value.items())[: self.maxdict]]
        if len(value) > self.maxdict:
            parts.append("...")
        return "{" + ", ".join(parts) + "}"


def display(value: Any, limit: int = DISPLAY_LIMIT, detail: int = 1) -> str:
    """A short text for a plain value, as shown to learners for visible tests. detail=0 gives a
    terse form (short strings, few items) for use inside a sentence."""
    shorten = _OrderedRepr()
    shorten.maxstring = 200 if detail else 40
    shorten.maxother = 200 if detail else 40
    shorten.maxlist = 40 if detail else 4
    shorten.maxdict = 40 if detail else 4
    shorten.maxlevel = 6 if detail else 2
    text = shorten.repr(value)
    return clip(text, limit)


@dataclass(frozen=True)
class Difference:
    """Where two plain values first differ. `path` is a Python index path like "[1]['id']"."""

    path: str
    kind: str  # "missing" / "extra" (list items), "missing_key" / "extra_key", "type", "value"
    actual: Any = None
    expected: Any = None


def first_difference(actual: Any, expected: Any, path: str = "") -> Difference | None:
    """The first place (depth first, in order) where actual is not exactly expected; None if same."""
    if type(actual) is list and type(expected) is list:
        for index, (a, e) in enumerate(zip(actual, expected)):
            found = first_difference(a, e, f"{path}[{index}]")
            if found is not None:
                return found
        if len(actual) != len(expected):
            kind = "missing" if len(actual) < len(expected) else "extra"
            return Difference(f"{path}[{min(len(actual), len(expected))}]", kind, actual, expected)
        return None
    if type(actual) is dict and type(expected) is dict:
        for key in expected:
            if key not in actual:
                return Difference(path, "missing_key", key, key)
            found = first_difference(actual[key], expected[key], f"{path}[{key!r}]")
            if found is not None:
                return found
        extra = next((key for key in actual if key not in expected), None)
        return None if extra is None else Difference(path, "extra_key", extra, None)
    if same(actual, expected):
        return None
    kind = "value" if describe_type(actual) == describe_type(expected) else "type"
    return Difference(path, kind, actual, expected)


def describe_difference(difference: Difference) -> str:
    """One Dutch sentence that says what differs at the first difference, for visible tests."""
    kind, path = difference.kind, difference.path
    if kind in ("missing", "extra"):
        got, wanted = len(difference.actual), len(difference.expected)
        what = "ontbreekt" if kind == "missing" else "is te veel"
        outer = path.rsplit("[", 1)[0]
        inside = f" in {outer}" if outer else ""
        return f"Je lijst{inside} heeft {got} element{'' if got == 1 else 'en'}, verwacht {wanted}: {path} {what}."
    if kind == "missing_key":
        sentence = f"de sleutel {display(difference.expected, 80, 0)} ontbreekt."
    elif kind == "extra_key":
        sentence = f"de sleutel {display(difference.actual, 80, 0)} hoort er niet bij."
    elif kind == "type" and difference.expected is not None and difference.actual is not None:
        sentence = (f"verwacht een {describe_type(difference.expected)}, "
                    f"je gaf een {describe_type(difference.actual)} ({display(difference.actual, 80, 0)}).")
    elif type(difference.expected) is str and type(difference.actual) is str and is_digest(difference.expected):
        sentence = _digests_differ(difference.expected, difference.actual)
    elif (type(difference.expected) is str and type(difference.actual) is str
          and max(len(difference.expected), len(difference.actual)) > SHORT_STRING):
        sentence = _strings_around_difference(difference.expected, difference.actual)
    else:
        sentence = f"verwacht {display(difference.expected, 120, 0)}, je gaf {display(difference.actual, 120, 0)}."
    return f"Bij {path}: {sentence}" if path else sentence[0].upper() + sentence[1:]


# display(..., detail=0) shows a string up to this length whole; longer ones it cuts in the middle.
SHORT_STRING = 40
# Characters shown on each side of the first difference of two long strings.
STRING_CONTEXT = 20


# A hexadecimal digest (MD5, SHA-1, SHA-2): it differs as a whole, never "from character 0".
DIGEST = re.compile(r"[0-9a-f]+")
DIGEST_LENGTHS = {32, 40, 56, 64, 96, 128}


def is_digest(text: str) -> bool:
    return len(text) in DIGEST_LENGTHS and DIGEST.fullmatch(text) is not None and not text.isalpha() and not text.isdigit()


def _digests_differ(expected: str, actual: str) -> str:
    """A wrong hash, described as one: which character differs first says nothing about a hash,
    any change in the bytes that were hashed changes all of it."""
    shown = repr(actual) if len(actual) <= 128 else display(actual, 120, 0)
    return (f"verwacht de hash {expected!r}, je gaf {shown}. Een hash verandert helemaal zodra de "
            "gehashte bytes ook maar iets verschillen: kijk welke tekst je hasht en hoe je die codeert.")


def _strings_around_difference(expected: str, actual: str) -> str:
    """Two long strings cut around their first difference: cut in the middle, as display() cuts
    them, two texts that differ only there would look the same to the learner."""
    index = next((at for at, (e, a) in enumerate(zip(expected, actual)) if e != a), min(len(expected), len(actual)))
    start = max(0, index - STRING_CONTEXT)

    def piece(text: str) -> str:
        end = min(len(text), index + STRING_CONTEXT)
        return ("…" if start > 0 else "") + repr(text[start:end]) + ("…" if end < len(text) else "")

    return f"verwacht {piece(expected)}, je gaf {piece(actual)} (het eerste verschil is teken {index})."


def explain_difference(difference: Difference) -> str:
    """The first difference in English, for the teacher (the quality gate): hidden values shown."""
    kind, path = difference.kind, difference.path
    at = f"at {path}: " if path else ""
    if kind in ("missing", "extra"):
        got, wanted = len(difference.actual), len(difference.expected)
        outer = path.rsplit("[", 1)[0]
        return (f"{f'at {outer}: ' if outer else ''}the list has {got} item{'' if got == 1 else 's'}, "
                f"expected {wanted} ({path} is {'missing' if kind == 'missing' else 'extra'})")
    if kind == "missing_key":
        return f"{at}key {display(difference.expected, 80, 0)} is missing"
    if kind == "extra_key":
        return f"{at}key {display(difference.actual, 80, 0)} is not expected"
    if kind == "type":
        return (f"{at}expected a {describe_type(difference.expected)} ({display(difference.expected, 120, 0)}), "
                f"got a {describe_type(difference.actual)} ({display(difference.actual, 120, 0)})")
    return f"{at}expected {display(difference.expected, 120, 0)}, got {display(difference.actual, 120, 0)}"


def fail(message: str) -> None:
    raise TestFailed(message)


def same(actual: Any, expected: Any) -> bool:
    """Exact equality for plain values: bool is not int, 1.0 is not 1, Opaque equals nothing."""
    # Fast yes for the usual case, a level at a time at C speed. Any other answer (Opaque inside,
    # NaN, another key order, a real difference) takes the full walk, which decides.
    if plain.equal_exact(actual, expected):
        return True
    return _same(actual, expected)


def _same(actual: Any, expected: Any) -> bool:
    if type(actual) is not type(expected):
        return False
    if type(actual) is list:
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected))
    if type(actual) is dict:
        return actual.keys() == expected.keys() and all(_same(actual[k], expected[k]) for k in actual)
    if type(actual) is float and actual != actual:
        return bool(expected != expected)  # NaN equals NaN here: both are "not a number"
    return bool(actual == expected)


def expect_equal(actual: Any, expected: Any, message: str, show: bool = True) -> None:
    """Fail with message unless actual is exactly expected (types included).

    expected/actual are attached for display; the grader shows them only for visible tests.
    """
    if not same(actual, expected):
        raise TestFailed(message, expected=expected, actual=actual, show=show)


def returns(call: Callable[[], Any], message: str) -> Any:
    """The result of call(); a ValueError there fails with message, since the input was valid."""
    try:
        return call()
    except LearnerRaised as raised:
        if not raised.info.is_value_error:
            raise
        detail = raised.info.message[:120]
        said = f' ("{detail}")' if detail else ""
        raise TestFailed(f"{message} Je functie gaf toch een ValueError{said}.") from None


def expect_true(condition: bool, message: str) -> None:
    if not condition:
        raise TestFailed(message)


class expect_value_error:
    """`with expect_value_error("Een titel van 101 tekens moet een ValueError geven."): ...`"""

    def __init__(self, message: str) -> None:
        self.message = message

    def __enter__(self) -> expect_value_error:
        return self

    def __exit__(self, kind: type | None, error: BaseException | None, tb: Any) -> bool:
        if kind is None:
            raise TestFailed(self.message)
        if isinstance(error, LearnerRaised):
            if error.info.is_value_error:
                return True
            raise TestFailed(f"{self.message} Je functie gaf {error.info.type_name}.")
        return False


def expect_no_mutation(learner: Learner, message: str) -> None:
    """The last call left its arguments exactly as they were sent."""
    outcome = learner.last
    if outcome is None or outcome.args_after is None:
        raise TestFailed(message)
    if not same(outcome.args_after, learner.last_args) or not same(outcome.kwargs_after or {}, learner.last_kwargs):
        raise TestFailed(message)


def expect_new_objects(learner: Learner, message: str) -> None:
    """The last call's result holds none of the dicts or lists that were passed in."""
    outcome = learner.last
    if outcome is None or outcome.aliased_paths:
        raise TestFailed(message)


def expect_no_shared_objects(learner: Learner, message: str) -> None:
    """The last call's result holds no dict or list at two positions (each item got its own)."""
    outcome = learner.last
    if outcome is None or outcome.shared_paths:
        raise TestFailed(message)


def expect_list_of_dicts(value: Any, function: str) -> list[dict[str, Any]]:
    """Fail clearly when a result is not a list of dicts (a tuple, a generator, a dict subclass)."""
    if type(value) is Opaque:
        raise TestFailed(f"{function} moet een list teruggeven, niet een {value.type_name}.")
    if type(value) is not list:
        raise TestFailed(f"{function} moet een list teruggeven, niet een {type(value).__name__}.")
    for item in value:
        if type(item) is Opaque:
            raise TestFailed(f"{function} moet een list met dicts teruggeven, niet met een {item.type_name}.")
        if type(item) is not dict:
            raise TestFailed(f"{function} moet een list met dicts teruggeven, niet met een {type(item).__name__}.")
    return value


def describe_type(value: Any) -> str:
    if type(value) is Opaque:
        return value.type_name
    return type(value).__name__


__all__ = [
    "CallShape",
    "LearnerRaised",
    "NotPlainValue",
    "Opaque",
    "Learner",
    "TestFailed",
    "contains_opaque",
    "display",
    "expect_equal",
    "expect_list_of_dicts",
    "expect_new_objects",
    "expect_no_shared_objects",
    "expect_no_mutation",
    "expect_true",
    "expect_value_error",
    "fail",
    "describe_difference",
    "explain_difference",
    "first_difference",
    "messages",
    "returns",
    "same",
    "signature",
    "test",
]
