"""Dutch learner-facing messages about loading main.py and calling its functions.

Kept in one place so the browser and the offline runner say exactly the same thing, and so the
golden transcripts in tests/lessons/<id>/transcripts/ catch any drift.
"""

from __future__ import annotations

from typing import Protocol


class RaisedError(Protocol):
    """What a message needs of an exception the learner's code raised (runner.core.model's
    ErrorInfo): described here, so that this module imports nothing of the model that uses it."""

    @property
    def type_name(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    def describe(self) -> str: ...


# The names of the tests that stand in for a checkpoint's tests when none could run.
LOAD_TEST_NAME = "code laden"
SIGNATURE_TEST_NAME = "functie en parameters"


def syntax_error(error: RaisedError) -> str:
    where = f" op regel {error.line}" if error.line is not None else ""
    return f"Je code bevat een syntaxfout{where}: {error.message}. Er is nog niets getest."


def exception_at_load(error: RaisedError) -> str:
    where = f" op regel {error.line}" if error.line is not None else ""
    return (
        f"Je code stopte tijdens het laden met {error.type_name}{where}: {error.message}. "
        "Er is nog niets getest."
    )


def timeout_at_load() -> str:
    return "Je code werd niet binnen de tijdslimiet geladen (een oneindige lus?). Er is nog niets getest."


def host_error_at_load(detail: str) -> str:
    return f"Je code kon niet geladen worden: {detail}. Er is nog niets getest."


def missing_function(name: str) -> str:
    return f"De functie {name} ontbreekt: definieer def {name}(...) bovenaan in main.py."


def not_callable(name: str, type_name: str) -> str:
    return f"{name} is geen functie maar een waarde van type {type_name}."


def wrong_signature(name: str, call_text: str) -> str:
    return f"{name} moet aan te roepen zijn als {call_text}; de parameters van jouw functie passen daar niet bij."


def unexpected_exception(function: str, error: RaisedError) -> str:
    if error.type_name == "NotImplementedError":
        # The starter code raises this until the learner fills the function in.
        return f"{function} is nog niet af: {error.describe()}."
    return f"{function} gaf een onverwachte fout: {error.describe()}."


def call_timeout(function: str) -> str:
    return f"{function} was niet binnen de tijdslimiet klaar (een oneindige lus?)."


def checkpoint_too_slow(function: str, seconds: float) -> str:
    unit = "seconde" if seconds == 1 else "seconden"
    return (f"{function} was te traag: de tests van dit checkpoint mogen samen {seconds:g} {unit} rekenen, "
            "net als in de browser.")


def call_host_error(function: str, detail: str) -> str:
    return f"Het uitvoeren van {function} mislukte: {detail}."


def not_run_after_timeout() -> str:
    return "niet uitgevoerd na een time-out"


def not_run_after_load_problem() -> str:
    return "niet uitgevoerd: je code laadde niet"


def test_crashed(detail: str) -> str:
    return f"De test zelf kon niet worden uitgevoerd ({detail}); meld dit aan je docent."


def uses_failing(used: tuple[str, ...] | list[str]) -> str:
    """Said on a checkpoint that did not pass while checkpoints it uses (checkpoints.toml `uses`)
    did not pass either: the cause may well be there."""
    if len(used) == 1:
        return f"Checkpoint {used[0]}, die deze checkpoint gebruikt, slaagt nog niet: los die eerst op."
    names = ", ".join(used[:-1]) + f" en {used[-1]}"
    return f"De checkpoints {names}, die deze checkpoint gebruikt, slagen nog niet: los die eerst op."


# What to return instead of a value that cannot cross as plain data, for the usual suspects
# whose class derives from no plain type (a subclass of dict, list, ... says so itself).
PLAIN_INSTEAD = {
    "tuple": "list", "set": "list", "frozenset": "list", "generator": "list", "map": "list",
    "filter": "list", "zip": "list", "range": "list", "enumerate": "list", "reversed": "list",
    "list_iterator": "list", "deque": "list", "dict_keys": "list", "dict_values": "list",
    "dict_items": "list", "ndarray": "list", "mappingproxy": "dict", "SimpleNamespace": "dict",
    "int64": "int", "int32": "int", "float32": "float", "bool_": "bool", "Decimal": "float",
    "Fraction": "float",
}
PLAIN_TYPES_TEXT = "dict, list, str, int, float, bool of None"


def not_plain(function: str, path: str, type_name: str, reason: str, like: str) -> str:
    """A learner function returned something that is not plain data (a tuple, a Counter, a str
    subclass, a generator, ...): say what it returned and what to return instead. `path` is
    where in the result ("" for the result itself); it names a place in the learner's own output,
    never a test's input."""
    if reason in ("te groot", "te groot getal"):
        return f"Je functie {function} gaf een waarde terug die te groot is om na te kijken."
    if reason == "te diep genest":
        return f"Je functie {function} gaf een waarde terug die te diep genest is om na te kijken."
    returned = f"gaf een waarde terug met op {path} een" if path else "gaf een"
    if reason.startswith("sleutel van type "):
        key_type = reason.removeprefix("sleutel van type ")
        dict_text = "dict met een sleutel" if path else "dict terug met een sleutel"
        return f"Je functie {function} {returned} {dict_text} van type {key_type}; gebruik alleen str als sleutel."
    instead = like or PLAIN_INSTEAD.get(type_name)
    if path:
        if instead:
            return f"Je functie {function} {returned} {type_name}; geef daar een gewone {instead}."
        return f"Je functie {function} {returned} {type_name}; gebruik alleen gewone waarden ({PLAIN_TYPES_TEXT})."
    if instead:
        return f"Je functie {function} gaf een {type_name} terug; geef een gewone {instead} terug."
    return f"Je functie {function} gaf een {type_name} terug; geef alleen gewone waarden terug ({PLAIN_TYPES_TEXT})."
