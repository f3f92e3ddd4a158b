"""Dutch learner-facing messages about loading main.py and calling its functions.

Kept in one place so the browser and the offline runner say exactly the same thing, and so the
golden transcripts in tests/runner_core/golden/ catch any drift.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # runner.core.model builds its load reports with these messages
    from runner.core.model import ErrorInfo

# The names of the tests that stand in for a checkpoint's tests when none could run.
LOAD_TEST_NAME = "code laden"
SIGNATURE_TEST_NAME = "functie en parameters"


def syntax_error(error: ErrorInfo) -> str:
    where = f" op regel {error.line}" if error.line is not None else ""
    return f"Je code bevat een syntaxfout{where}: {error.message}. Er is nog niets getest."


def exception_at_load(error: ErrorInfo) -> str:
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


def unexpected_exception(function: str, error: ErrorInfo) -> str:
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
