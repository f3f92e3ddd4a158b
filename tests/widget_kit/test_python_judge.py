"""site/src/python-judge.js, in Node, against runner.core.testkit on the same cases: for seeded
pairs of plain values (a reference and a learner's value with one or more changes: a value, a
type such as 1 for 1.0 or True for 1, a list item missing or extra, a dict key missing, extra or
reordered, NaN, -0.0, huge ints, tuples and sets that cross as opaque), the JavaScript judge finds
the same first difference (path and kind) as grading's first_difference, and says "same" exactly
when testkit.same does. Widgets get this judge as context.judge."""

from __future__ import annotations

import math
import random
from pathlib import Path

from runner.core import plain, testkit, wire
from tests.node_bridge import node_fixture

judge = node_fixture(Path(__file__).resolve().parent / "python_judge_ops.mjs")

KEYS = ["id", "start", "end", "text", "it's", 'a"b', "é", "\U0001F642", "$opaque", "$x", "line\nbreak"]


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 3 and roll < 0.25:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 3 and roll < 0.45:
        return {key: random_value(rng, depth + 1) for key in rng.sample(KEYS, rng.randint(0, 4))}
    return rng.choice([0, 1, -7, 2**70, 1.0, 0.5, -0.0, 0.0, math.nan, math.inf, True, False, None,
                       "", "a", "tekst", "\U0001F642", (1, 2), {1, 2}])


def changed(rng: random.Random, value):
    """value with one random change somewhere inside it (or a whole new value)."""
    if isinstance(value, list) and value and rng.random() < 0.8:
        copy = list(value)
        action = rng.choice(["inner", "drop", "add", "swap"])
        index = rng.randrange(len(copy))
        if action == "inner":
            copy[index] = changed(rng, copy[index])
        elif action == "drop":
            del copy[index]
        elif action == "add":
            copy.insert(index, random_value(rng, 2))
        elif len(copy) > 1:
            copy[0], copy[-1] = copy[-1], copy[0]
        return copy
    if isinstance(value, dict) and value and rng.random() < 0.8:
        items = list(value.items())
        action = rng.choice(["inner", "drop", "add", "reorder"])
        index = rng.randrange(len(items))
        if action == "inner":
            items[index] = (items[index][0], changed(rng, items[index][1]))
        elif action == "drop":
            del items[index]
        elif action == "add":
            items.append((rng.choice(KEYS), random_value(rng, 2)))
        else:
            rng.shuffle(items)
        return dict(items)
    # (value, what a learner might return instead): by type, since 1, 1.0 and True are equal keys.
    swaps = [(1, [1.0, True, "1"]), (1.0, [1, 1.0000001]), (0.0, [-0.0, 0, False]), (True, [1, "True"]), (None, [0, ""])]
    for original, options in swaps:
        if type(original) is type(value) and original == value:
            return rng.choice(options)
    return random_value(rng, 2)


def crossed(value):
    """The value as a widget and grading both get it: encoded to plain data and back."""
    return plain.decode(plain.encode(value))


def python_answer(actual, expected) -> dict:
    found = testkit.first_difference(crossed(actual), crossed(expected))
    return {"same": testkit.same(crossed(actual), crossed(expected)),
            "difference": found and {"path": found.path, "kind": found.kind}}


def test_the_same_first_difference_as_grading_on_seeded_pairs(judge):
    pairs, expected = [], []
    for seed in range(600):
        rng = random.Random(seed)
        reference = random_value(rng)
        learner = reference if seed % 7 == 0 else changed(rng, reference)
        pairs.append([wire.dumps(plain.encode(learner)), wire.dumps(plain.encode(reference))])
        expected.append(python_answer(learner, reference))
    answers = judge.ask(op="judge", pairs=pairs)
    differing = [(pair, got, want) for pair, got, want in zip(pairs, answers, expected) if got != want]
    assert differing == []
    kinds = {answer["difference"]["kind"] for answer in expected if answer["difference"]}
    assert kinds == {"missing", "extra", "missing_key", "extra_key", "type", "value"}  # every kind was tried


def test_the_cases_a_widget_meets_by_value(judge):
    cases = [
        ([{"start": 0, "end": 5}], [{"start": 0, "end": 5}], None),
        ([{"start": 0, "end": 5.0}], [{"start": 0, "end": 5}], {"path": "[0]['end']", "kind": "type"}),
        ([True], [1], {"path": "[0]", "kind": "type"}),
        ([1, 2], [1, 2, 3], {"path": "[2]", "kind": "missing"}),
        ({"a": 1}, {"a": 1, "b": 2}, {"path": "", "kind": "missing_key"}),
        ({"b": 2, "a": 1}, {"a": 1, "b": 2}, None),  # key order is no difference
        (math.nan, math.nan, None),
        ((1, 2), [1, 2], {"path": "", "kind": "type"}),
        ((1, 2), (1, 2), {"path": "", "kind": "value"}),  # an opaque value equals nothing
    ]
    answers = judge.ask(op="judge", pairs=[[wire.dumps(plain.encode(a)), wire.dumps(plain.encode(e))] for a, e, _ in cases])
    assert [answer["difference"] for answer in answers] == [want for _, _, want in cases]
    assert [answer["same"] for answer in answers] == [want is None for _, _, want in cases]


def test_dict_keys_in_a_path_are_written_as_python_repr(judge):
    texts = ["start", "it's", 'a"b', "both'\"", "tab\there", "\\", "é\U0001F642", "\x00\x7f", "\ud800"]
    assert judge.ask(op="repr", texts=texts) == [repr(text) for text in texts]
