"""runner.core.plain: exact types cross, everything else becomes an opaque marker that equals nothing."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.core import plain, wire
from runner.core.plain import Opaque
from runner.core.testkit import _same, same


def roundtrip(value):
    """encode -> JSON text -> decode, the path a value takes from the child to the grader."""
    return plain.decode(wire.loads(wire.dumps(plain.encode(value))))


@pytest.mark.parametrize(
    "value",
    [
        None, True, False, 0, -7, 2**60, 1.5, -0.0, "", "tekst", "😀👩‍💻", "\ud800 los", "a\x00b",
        [], {}, [1, [2, [3]]], {"id": "d", "n": [1, 2.5, None, True]}, {"$opaque": "list", "$$x": 1},
    ],
)
def test_plain_values_survive_the_round_trip_with_their_exact_types(value):
    result = roundtrip(value)
    assert result == value
    assert json.dumps(result) == json.dumps(value)  # same types all the way down (True vs 1, 1.0 vs 1)


def test_bool_stays_bool_and_int_stays_int():
    assert type(roundtrip(True)) is bool
    assert type(roundtrip(1)) is int
    assert type(roundtrip(1.0)) is float


def test_nan_is_a_float_and_survives():
    result = roundtrip(float("nan"))
    assert type(result) is float and math.isnan(result)


def test_lone_surrogate_survives_as_escaped_json():
    line = wire.dumps(plain.encode({"text": "\ud800"}))
    assert line.isascii()
    assert roundtrip({"text": "\ud800"}) == {"text": "\ud800"}


def test_learner_dict_cannot_pose_as_an_opaque_marker():
    fake = {"$opaque": "tuple"}
    assert roundtrip(fake) == fake
    assert type(roundtrip(fake)) is dict


class LyingEquals:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class Loud:
    """Every dunder a careless encoder might call blows up."""

    def __eq__(self, other):
        raise AssertionError("__eq__ called")

    def __iter__(self):
        raise AssertionError("__iter__ called")

    def __len__(self):
        raise AssertionError("__len__ called")

    def __hash__(self):
        raise AssertionError("__hash__ called")

    def __repr__(self):
        raise AssertionError("__repr__ called")


class StrChild(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class DictChild(dict):
    pass


class ListChild(list):
    def __iter__(self):
        raise AssertionError("__iter__ called")


class IntChild(int):
    pass


def gen():
    yield 1


@pytest.mark.parametrize(
    "value, type_name",
    [
        ((1, 2), "tuple"),
        (gen(), "generator"),
        ({1, 2}, "set"),
        (StrChild("x"), "StrChild"),
        (IntChild(3), "IntChild"),
        (DictChild(a=1), "DictChild"),
        (ListChild([1]), "ListChild"),
        (LyingEquals(), "LyingEquals"),
        (Loud(), "Loud"),
        (b"bytes", "bytes"),
        (len, "builtin_function_or_method"),
    ],
)
def test_everything_else_becomes_opaque_and_equals_nothing(value, type_name):
    result = roundtrip(value)
    assert type(result) is Opaque
    assert result.type_name == type_name
    assert result != result and not (result == value)


def test_opaque_inside_containers_keeps_the_rest():
    result = roundtrip([{"a": (1,)}, 2])
    assert result[1] == 2
    assert type(result[0]["a"]) is Opaque
    assert plain.contains_opaque(result)
    assert not plain.contains_opaque([{"a": [1]}, 2])


class LoudKey(Loud):
    armed = False

    def __hash__(self):
        if LoudKey.armed:
            raise AssertionError("__hash__ called")
        return 1


def test_non_str_key_makes_the_dict_opaque_without_hashing_it():
    value = {LoudKey(): 1}
    LoudKey.armed = True
    try:
        assert type(roundtrip(value)) is Opaque
    finally:
        LoudKey.armed = False
    assert type(roundtrip({1: "a"})) is Opaque


def test_hostile_class_name_is_not_run():
    class Meta(type):
        @property
        def __name__(cls):
            raise AssertionError("metaclass __name__ called")

    class Sneaky(metaclass=Meta):
        pass

    assert roundtrip(Sneaky()).type_name == "Sneaky"


def test_self_referencing_list_is_opaque_not_a_crash():
    loop = []
    loop.append(loop)
    result = roundtrip(loop)
    assert plain.contains_opaque(result)


def test_too_deep_nesting_is_marked():
    deep = []
    for _ in range(plain.MAX_DEPTH + 5):
        deep = [deep]
    assert plain.contains_opaque(roundtrip(deep))


def test_too_many_values_make_the_whole_value_opaque():
    result = roundtrip([0] * (plain.MAX_NODES + 1))
    assert type(result) is Opaque and result.reason == "te groot"


def test_too_many_characters_make_the_whole_value_opaque():
    result = roundtrip(["x" * (plain.MAX_CHARS // 2 + 1)] * 2)
    assert type(result) is Opaque


def test_twenty_thousand_and_one_chunks_still_fit():
    chunk = {"id": "d:0", "document_id": "d", "revision": "f" * 64, "word_start": 0, "word_end": 4, "start": 2, "end": 10, "text": "A  B\nC D"}
    encoded = plain.encode([{"id": "d"}, [chunk] * 20001])
    assert not plain.contains_opaque(plain.decode(encoded))


def test_huge_int_is_opaque():
    assert type(roundtrip(1 << (plain.MAX_INT_BITS + 1))) is Opaque


@pytest.mark.parametrize("data", [{"$opaque": 5}, object(), {1: 2}, (1, 2)])
def test_decode_rejects_data_no_encoder_makes(data):
    with pytest.raises(plain.PlainError):
        plain.decode(data)


def test_decoded_opaque_keeps_its_marker_when_encoded_again():
    again = plain.decode(plain.encode(roundtrip((1, 2))))
    assert type(again) is Opaque and again.type_name == "tuple"


any_text = st.text(st.characters(exclude_categories=()))  # lone surrogates included
plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5) | st.text("$opaque", max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(plain_values)
def test_any_plain_value_round_trips_exactly(value):
    result = roundtrip(value)
    assert result == value
    assert repr(result) == repr(value)  # repr tells True from 1, 1.0 from 1 and -0.0 from 0.0


class SubDict(dict):
    pass


@pytest.mark.parametrize(
    "value",
    [(1,), SubDict(), [SubDict()], {1: "a"}, {"a": [1, (2,)]}, Opaque("x"), LyingEquals()],
)
def test_is_exact_plain_refuses_anything_but_exact_builtins(value):
    assert not plain.is_exact_plain(value)
    assert plain.fingerprint(value) is None


def test_is_exact_plain_limits_depth_and_dollar_keys():
    nested = []
    for _ in range(plain.MAX_DEPTH + 2):
        nested = [nested]
    assert not plain.is_exact_plain(nested)
    assert plain.is_exact_plain({"$x": 1}) and not plain.is_exact_plain({"$x": 1}, dollar_keys=False)
    cycle = []
    cycle.append(cycle)
    assert not plain.is_exact_plain(cycle)


@pytest.mark.parametrize("left, right", [(1, True), (1, 1.0), ({"a": 0}, {"a": False}), (["x"], ["x", None])])
def test_fingerprints_tell_types_apart(left, right):
    assert plain.fingerprint(left) != plain.fingerprint(right)


def test_fingerprint_is_equal_for_equal_values_built_differently():
    shared_dict = {"a": "é\ud800", "n": float("nan")}
    assert plain.fingerprint([shared_dict, shared_dict]) == plain.fingerprint([dict(shared_dict), dict(shared_dict)])


def test_exact_copy_is_deep_and_keeps_types():
    value = {"a": [1, 2.0, True, None, "\ud800"]}
    copied = plain.exact_copy(value)
    assert copied == value and copied["a"] is not value["a"]
    assert plain.fingerprint(copied) == plain.fingerprint(value)


def test_decode_still_rebuilds_markers_and_escaped_keys():
    data = plain.encode({"$x": (1, 2), "y": [1]})
    decoded = plain.decode(data)
    assert list(decoded) == ["$x", "y"] and type(decoded["$x"]) is Opaque


def test_huge_flat_lists_are_refused_before_they_are_walked():
    assert plain.encode([0] * (plain.MAX_NODES + 1)) == {"$opaque": "list", "$reason": "te groot"}
    assert plain.encode(["x" * 1000] * 9000)["$reason"] == "te groot"  # over MAX_CHARS


mixed_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from([2**4096 - 1, 2**4096, -(2**4096) + 1, -(2**4096)])
    | st.floats() | any_text | st.sampled_from([(1,), SubDict(), Opaque("x"), LyingEquals()]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=5) | st.text("$opaque", max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(mixed_values)
def test_the_childs_uncopied_encoding_is_the_walks_encoding(value):
    """encode_checked(copy=False) (the child's reply) takes the value as it is exactly when the
    encoder's walk would give the same data back, exact."""
    walked = plain.encode_checked(value)
    as_is = plain.encode_checked(value, copy=False)
    assert as_is[1] == walked[1] and repr(as_is[0]) == repr(walked[0])
    if plain.is_own_encoding(value):
        assert as_is[0] is value and walked[1]


def test_taking_a_value_as_it_is_keeps_the_encoders_limits_to_the_last_node():
    # MAX_NODES counts every value, the outer lists too.
    fits, over = [[0] * (plain.MAX_NODES - 2)], [[0] * (plain.MAX_NODES - 1)]
    assert plain.is_own_encoding(fits) and plain.encode_checked(fits, copy=False)[0] is fits
    assert not plain.is_own_encoding(over) and plain.encode_checked(over, copy=False)[0]["$reason"] == "te groot"
    # MAX_CHARS counts keys as well as strings.
    text = "x" * (plain.MAX_CHARS - 4)
    assert plain.is_own_encoding([{"ab": text, "c": "d"}]) and not plain.is_own_encoding([{"abc": text, "d": "e"}])
    assert plain.encode([{"abc": text, "d": "e"}])["$reason"] == "te groot"
    assert plain.is_own_encoding([{}, 2 ** plain.MAX_INT_BITS - 1]) and not plain.is_own_encoding([2 ** plain.MAX_INT_BITS])
    nested = [1]
    for _ in range(plain.MAX_DEPTH - 1):
        nested = [nested]
    assert plain.is_own_encoding(nested) and not plain.is_own_encoding([nested])
    assert not plain.encode_checked([nested])[1]  # the walk makes the deepest list opaque too
    assert not plain.is_own_encoding({"$k": 1}) and not plain.is_own_encoding([{"a": 1, "$": 2}])


def wire_roundtrip(value):
    """encode -> channel line -> decode: the path a value takes between grader and child."""
    return plain.decode(wire.wire_loads(wire.wire_line(plain.encode(value))))


@pytest.mark.parametrize("text", [
    "\ud83d\ude00",  # a high and a low surrogate: two code points, not the emoji they would form
    "😀",  # the emoji itself: one code point
    "a\ud83d\ude00b😀\ud800\udfff\udc00\ud800",
    "\ud800",
])
def test_surrogates_cross_the_channel_as_the_code_points_they_are(text):
    for value in (text, [text], {text: text}):
        assert wire_roundtrip(value) == value  # str equality compares code point by code point
    assert len(wire_roundtrip("\ud83d\ude00")) == 2 and len(wire_roundtrip("😀")) == 1
    assert list(wire_roundtrip({"\ud83d\ude00": 1})) == ["\ud83d\ude00"]


def test_a_channel_line_is_ascii_unless_a_string_holds_a_surrogate():
    assert wire.wire_line({"text": "é😀\n"}) == b'{"text":"\\u00e9\\ud83d\\ude00\\n"}\n'
    line = wire.wire_line({"text": "é\n\u2028\ud800"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line.decode("utf-8", "surrogatepass") == '{"text":"é\\n\u2028\ud800"}\n'


@pytest.mark.parametrize("line", [
    b'{"a":1,"a":2}',
    b'{"a":1,"b":{"c":2,"c":3}}',
    b'{"a":1 ,"a" :2}',  # white space before the colon
    b'{"a":":","a":2}',  # a string that starts with a colon
    b'{"a\\\\":1,"a\\\\":2}',  # a key that ends in an escaped backslash
    b'[{"x":[{"y":1,"y":1}]}]',
])
def test_the_channel_refuses_a_key_twice_wherever_it_is(line):
    with pytest.raises(ValueError, match="duplicate key"):
        wire.wire_loads(line)


@pytest.mark.parametrize("line", [
    b'{"a":1,"b":{"c":":","d":"\\":"}}',
    b'{"a" : 1, "b":[{"c":2},{"c":3}]}',
    b'{"a\\\\":1,"a":2}',
    b'[]',
])
def test_the_channel_reads_any_object_with_distinct_keys(line):
    assert wire.wire_loads(line) == json.loads(line)


# Few leaves that are == but not the same (1, True, 1.0; 0.0, -0.0; NaN) and few keys, so that
# independently drawn values often compare equal and differ only in a type or a key order.
close_values = st.recursive(
    st.sampled_from([0, 1, True, False, 1.0, 0.0, -0.0, math.nan, None, "a", ""]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from("ab"), children, max_size=2),
    max_leaves=8,
)


@settings(max_examples=500, deadline=None)
@given(close_values, close_values)
def test_the_fast_comparison_agrees_with_the_walk_on_close_values(left, right):
    """testkit.same takes plain.equal_exact's C-speed answer (`==`, then marshal bytes) first;
    it must decide exactly as the walk alone does: 1 is not True nor 1.0, NaN equals NaN."""
    assert same(left, right) == _same(left, right)
    copy = plain.decode(wire.loads(wire.dumps(plain.encode(left))))
    assert same(copy, left) and _same(copy, left)
    if plain.equal_exact(left, right):
        # Same types, values and key order all the way down (-0.0 is 0.0 to the walk, as to ==).
        assert repr(left).replace("-0.0", "0.0") == repr(right).replace("-0.0", "0.0")


def test_equal_values_of_other_types_or_key_order_are_told_apart_by_the_fast_comparison():
    assert not plain.equal_exact([{"a": 1}], [{"a": True}]) and not same([{"a": 1}], [{"a": True}])
    assert not same([1.0], [1]) and not same({"a": [0]}, {"a": [False]})
    assert not plain.equal_exact({"a": 1, "b": 2}, {"b": 2, "a": 1}) and same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert same([-0.0], [0.0]) and same([math.nan], [math.nan])
    assert not same([Opaque("x")], [Opaque("x")])
