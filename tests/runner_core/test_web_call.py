"""runner.core.web.call: the one entry through which widgets call a function in the browser.

Same host, same plain values and the same Dutch messages as grading; the reply as plain JSON
text for the page (call_for_page)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.core import plain, web, wire

ROOT = Path(__file__).resolve().parents[2]
RAG_01 = ROOT / "checkpoints" / "rag-01"


def test_a_returned_value_crosses_as_plain_data():
    reply = web.call("f", [2, 0.5], source="def f(n, x):\n    print('bezig')\n    return {'n': n * 2, 'x': x}\n")
    assert reply == {"status": "returned", "value": {"n": 4, "x": 0.5}, "error": None, "message": "",
                     "stdout": "bezig\n", "duration_ms": reply["duration_ms"]}


def test_values_that_are_not_plain_come_back_as_opaque_markers():
    reply = web.call("f", [], source="def f():\n    return [(1, 2), {'$x': 1}]\n")
    assert reply["value"] == [{"$opaque": "tuple"}, {"$$x": 1}]
    assert plain.decode(reply["value"])[1] == {"$x": 1}


def test_arguments_arrive_as_the_plain_values_they_encode():
    reply = web.call("f", [{"$$key": 6.0}, 6], source="def f(d, n):\n    return [type(d['$key']).__name__, type(n).__name__]\n")
    assert reply["value"] == ["float", "int"]


def test_an_exception_has_the_graders_message_and_line():
    reply = web.call("f", [0], source="def f(n):\n    return 1 / n\n")
    assert reply["status"] == "raised"
    assert reply["error"] == {"type": "ZeroDivisionError", "is_value_error": False,
                              "message": "division by zero", "line": 2}
    assert reply["message"] == "f gaf een onverwachte fout: ZeroDivisionError: division by zero (regel 2)."


def test_code_that_does_not_load_says_so_as_grading_does():
    reply = web.call("f", [], source="def f(:\n")
    assert reply["status"] == "load-error"
    assert reply["error"]["type"] == "SyntaxError" and reply["error"]["line"] == 1
    assert reply["message"].startswith("Je code bevat een syntaxfout op regel 1: ")


@pytest.mark.parametrize(("source", "message"), [
    ("x = 1\n", "De functie f ontbreekt: definieer def f(...) bovenaan in main.py."),
    ("f = 3\n", "f is geen functie maar een waarde van type int."),
])
def test_a_missing_function_is_named(source, message):
    assert web.call("f", [], source=source)["status"] == "no-function"
    assert web.call("f", [], source=source)["message"] == message


def test_an_endless_call_times_out():
    reply = web.call("f", [], source="def f():\n    while True:\n        pass\n", call_timeout=0.2)
    assert reply["status"] == "timeout"
    assert reply["message"] == "f was niet binnen de tijdslimiet klaar (een oneindige lus?)."


def test_without_source_the_lessons_reference_solution_answers():
    reply = web.call("word_chunks", [{"id": "d", "title": "t", "text": "a b c", "revision": "x"}, 2, 1],
                     lesson_dir=str(RAG_01))
    assert reply["status"] == "raised" and reply["error"]["is_value_error"]
    document = web.call("document_snapshots", [[{"id": "d", "title": "t", "text": "a b c"}]],
                        lesson_dir=str(RAG_01))["value"][0]
    chunks = web.call("word_chunks", [document, 2, 1], lesson_dir=str(RAG_01))["value"]
    assert [(chunk["word_start"], chunk["word_end"]) for chunk in chunks] == [(0, 2), (1, 3)]


def test_the_page_form_keeps_floats_and_says_when_the_page_interrupted():
    request = wire.dumps({"function": "f", "args": [6.0], "source": "def f(x):\n    return [x, float('nan')]\n"})
    envelope = web.call_for_page(request)
    assert envelope["status"] == "done"
    assert '"value":[6.0,NaN]' in envelope["reply"]
    assert json.loads(envelope["reply"])["status"] == "returned"
    endless = wire.dumps({"function": "f", "args": [], "source": "def f():\n    raise KeyboardInterrupt\n"})
    assert web.call_for_page(endless)["status"] == "interrupted"
