"""The plain-data rule (issue 9, part 4): a learner function that returns a tuple, a Counter, a
subclass of str/int/dict/list, a generator, ... is told plainly what to return instead, whatever
the test compares; in the browser's host and in the offline child alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runner.core import plain
from runner.core.host import InProcessHost
from runner.core.testkit import Learner, NotPlainValue

ROOT = Path(__file__).resolve().parents[2]

LEARNER_CODE = '''
import collections
import enum


class Words(str):
    pass


class Size(enum.IntEnum):
    SMALL = 1


class Row(list):
    pass


class Thing:
    pass


def returns(kind):
    return {
        "counter": lambda: collections.Counter("aab"),
        "defaultdict": lambda: collections.defaultdict(int),
        "ordereddict": lambda: collections.OrderedDict(a=1),
        "tuple": lambda: (1, 2),
        "generator": lambda: (n for n in range(3)),
        "set": lambda: {1},
        "str subclass": lambda: Words("a b"),
        "int subclass": lambda: Size.SMALL,
        "list subclass": lambda: Row([1]),
        "object": lambda: Thing(),
        "nested tuple": lambda: [{"id": "a", "span": (0, 4)}],
        "int keys": lambda: {1: "een"},
        "nested int keys": lambda: [{1: "een"}],
        "plain": lambda: [{"id": "a", "n": 1}],
    }[kind]()
'''

MESSAGES = {
    "counter": "Je functie returns gaf een Counter terug; geef een gewone dict terug.",
    "defaultdict": "Je functie returns gaf een defaultdict terug; geef een gewone dict terug.",
    "ordereddict": "Je functie returns gaf een OrderedDict terug; geef een gewone dict terug.",
    "tuple": "Je functie returns gaf een tuple terug; geef een gewone list terug.",
    "generator": "Je functie returns gaf een generator terug; geef een gewone list terug.",
    "set": "Je functie returns gaf een set terug; geef een gewone list terug.",
    "str subclass": "Je functie returns gaf een Words terug; geef een gewone str terug.",
    "int subclass": "Je functie returns gaf een Size terug; geef een gewone int terug.",
    "list subclass": "Je functie returns gaf een Row terug; geef een gewone list terug.",
    "object": "Je functie returns gaf een Thing terug; geef alleen gewone waarden terug "
              "(dict, list, str, int, float, bool of None).",
    "nested tuple": "Je functie returns gaf een waarde terug met op [0]['span'] een tuple; geef daar een gewone list.",
    "int keys": "Je functie returns gaf een dict terug met een sleutel van type int; gebruik alleen str als sleutel.",
    "nested int keys": "Je functie returns gaf een waarde terug met op [0] een dict met een sleutel van type int; "
                       "gebruik alleen str als sleutel.",
}


@pytest.fixture(scope="module")
def learner():
    host = InProcessHost(call_timeout=2)
    assert host.load(LEARNER_CODE, ["returns"]).ok
    yield Learner(host)
    host.close()


@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_every_call_says_what_to_return_instead(learner, kind):
    with pytest.raises(NotPlainValue) as raised:
        learner.returns(kind)
    assert raised.value.message == MESSAGES[kind]


def test_plain_values_come_through(learner):
    assert learner.returns("plain") == [{"id": "a", "n": 1}]


def test_the_plain_base_is_read_without_running_learner_code():
    class Meta(type):
        def __eq__(cls, other):
            raise AssertionError("a learner's __eq__ ran")

        __hash__ = type.__hash__

    class Sneaky(dict, metaclass=Meta):
        pass

    class Stranger(metaclass=Meta):
        pass

    assert plain.plain_base(Sneaky()) == "dict"
    assert plain.encode(Sneaky()) == {"$opaque": "Sneaky", "$like": "dict"}
    assert plain.encode(Stranger()) == {"$opaque": "Stranger"}


def test_a_forged_like_is_refused():
    with pytest.raises(plain.PlainError):
        plain.decode({"$opaque": "x", "$like": "tuple"})


def test_runner_check_offline_says_the_same(tmp_path):
    main = tmp_path / "main.py"
    main.write_text("from collections import Counter\n\n\ndef words(text):\n    return text.lower().split()\n\n\n"
                    "def word_counts(text):\n    return Counter(words(text))\n\n\n"
                    "def longest_line(text):\n    return max(text.splitlines(), key=len)\n", encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "runner", "check", str(main), "--lesson", "chain-01",
                                "--checkpoints-dir", str(ROOT / "tests" / "fixtures" / "chain" / "checkpoints")],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 1, completed.stderr
    assert ("    voorbeeld: de kat en de hond: Je functie word_counts gaf een Counter terug; "
            "geef een gewone dict terug.") in completed.stdout.splitlines()
