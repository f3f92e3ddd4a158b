"""runner.core.invoke and InProcessHost: loading main.py and calling its functions through plain data."""

import json
from dataclasses import replace

import pytest

from runner.core import invoke, plain, wire
from runner.core.host import InProcessHost
from runner.core.model import CallOutcome, LoadReport
from runner.core.plain import Opaque
from runner.core.testkit import same


def host_with(source, expected=("f",), call_timeout=2.0):
    host = InProcessHost(call_timeout=call_timeout)
    report = host.load(source, expected)
    return host, report


def test_syntax_error_reports_the_line_in_dutch():
    _, report = host_with("def f(x):\n    return x\n\ndef g(:\n    pass\n")
    assert report.problem == "syntax"
    assert report.error.line == 4
    assert report.message.startswith("Je code bevat een syntaxfout op regel 4: ")
    assert report.message.endswith("Er is nog niets getest.")


def test_exception_at_import_reports_type_message_and_line():
    _, report = host_with("x = 1\nprint('hallo')\ny = {}['sleutel']\n")
    assert report.problem == "exception"
    assert report.error.type_name == "KeyError"
    assert report.error.line == 3
    assert report.message == "Je code stopte tijdens het laden met KeyError op regel 3: 'sleutel'. Er is nog niets getest."
    assert report.stdout == "hallo\n"


def test_sys_exit_at_import_is_an_exception_not_an_exit():
    _, report = host_with("import sys\nsys.exit(0)\n")
    assert report.problem == "exception" and report.error.type_name == "SystemExit"


def test_main_block_does_not_run_while_grading():
    _, report = host_with("def f():\n    return 1\n\nif __name__ == '__main__':\n    raise RuntimeError('demo')\n")
    assert report.ok


def test_functions_are_described_with_their_parameters():
    _, report = host_with("def f(a, b=2, *rest, c, **kw):\n    pass\ng = 5\n", expected=("f", "g", "h"))
    f, g, h = (report.function(name) for name in ("f", "g", "h"))
    assert [(p.name, p.kind, p.has_default) for p in f.parameters] == [
        ("a", "POSITIONAL_OR_KEYWORD", False),
        ("b", "POSITIONAL_OR_KEYWORD", True),
        ("rest", "VAR_POSITIONAL", False),
        ("c", "KEYWORD_ONLY", False),
        ("kw", "VAR_KEYWORD", False),
    ]
    assert g.exists and not g.is_callable and g.type_name == "int"
    assert f.type_name == "function"
    assert not h.exists


def test_learner_dataclasses_work_in_the_loaded_module():
    host, report = host_with("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\ndef f():\n    return P(1).x\n")
    assert report.ok
    assert host.call("f", []).value == 1


def test_return_value_crosses_as_plain_data():
    host, _ = host_with("def f(x):\n    return [x, {'n': len(x)}]\n")
    outcome = host.call("f", ["abc"])
    assert outcome.kind == "return" and outcome.value == ["abc", {"n": 3}]


def test_generator_and_tuple_results_are_opaque():
    host, _ = host_with("def f(kind):\n    if kind == 'gen':\n        return (i for i in range(3))\n    return (1, 2)\n")
    assert host.call("f", ["gen"]).value.type_name == "generator"
    assert type(host.call("f", ["tuple"]).value) is Opaque


def test_lying_eq_object_cannot_equal_anything():
    host, _ = host_with("class Yes:\n    def __eq__(self, o):\n        return True\ndef f():\n    return Yes()\n")
    value = host.call("f", []).value
    assert value != [] and value != {"total_words": 8} and value != value


def test_bool_and_int_results_stay_distinct():
    host, _ = host_with("def f(x):\n    return x\n")
    assert type(host.call("f", [True]).value) is bool
    assert type(host.call("f", [1]).value) is int


def test_exception_info_has_type_value_error_flag_message_and_line():
    host, _ = host_with("def f(x):\n    if x:\n        raise UnicodeEncodeError('utf-8', 'a', 0, 1, 'kapot')\n    raise KeyError('k')\n")
    first = host.call("f", [True])
    assert first.kind == "raise"
    assert (first.error.type_name, first.error.is_value_error, first.error.line) == ("UnicodeEncodeError", True, 3)
    second = host.call("f", [False])
    assert (second.error.type_name, second.error.is_value_error, second.error.line) == ("KeyError", False, 4)


def test_faked_class_attribute_does_not_make_a_value_error():
    source = "class Fake(Exception):\n    @property\n    def __class__(self):\n        return ValueError\ndef f():\n    raise Fake('x')\n"
    host, _ = host_with(source)
    assert host.call("f", []).error.is_value_error is False


def test_long_exception_message_is_truncated():
    host, _ = host_with("def f():\n    raise ValueError('x' * 5000)\n")
    assert len(host.call("f", []).error.message) <= 300


def test_recursion_and_memory_errors_are_reported_as_exceptions():
    host, _ = host_with("def f(n):\n    if n == 'mem':\n        raise MemoryError()\n    return f(n + 1)\n")
    assert host.call("f", [0]).error.type_name == "RecursionError"
    assert host.call("f", ["mem"]).error.type_name == "MemoryError"


def test_infinite_loop_becomes_a_timeout_outcome():
    host, _ = host_with("def f():\n    while True:\n        pass\n", call_timeout=0.2)
    assert host.call("f", []).kind == "timeout"


def test_keyboard_interrupt_in_learner_code_is_a_timeout():
    host, _ = host_with("def f():\n    raise KeyboardInterrupt\n")
    assert host.call("f", []).kind == "timeout"


def test_mutation_of_arguments_is_visible_after_the_call():
    host, _ = host_with("def f(records):\n    records[0]['extra'] = 1\n    records.append('x')\n")
    sent = [{"id": "d"}]
    outcome = host.call("f", [sent])
    assert outcome.args_after == [[{"id": "d", "extra": 1}, "x"]]
    assert sent == [{"id": "d"}]  # the test's own objects are never touched


def test_returned_input_objects_are_reported_as_aliases():
    host, _ = host_with("def f(records):\n    return [records[1], dict(records[0]), records]\n")
    outcome = host.call("f", [[{"a": 1}, {"b": 2}]])
    assert outcome.aliased_paths == ((0,), (2,))


def test_new_objects_are_not_aliases_even_after_clearing_the_input():
    host, _ = host_with("def f(records):\n    records.clear()\n    return [{'a': 1} for _ in range(50)]\n")
    assert host.call("f", [[{"a": 1}] * 3]).aliased_paths == ()


def test_one_object_at_two_places_in_the_result_is_reported_as_shared():
    source = "def f():\n    path = ['A']\n    row = {'k': 1}\n    return [{'h': path}, {'h': path}, row, [row], {'h': ['A']}]\n"
    host, _ = host_with(source)
    outcome = host.call("f", [])
    # The first position in reading order keeps the object; every later one is reported.
    assert outcome.shared_paths == ((1, "h"), (3, 0))
    assert outcome.aliased_paths == ()


def test_equal_but_separate_objects_are_not_shared():
    host, _ = host_with("def f(records):\n    return [{'h': list(r['h'])} for r in records] + [[], []]\n")
    assert host.call("f", [[{"h": ["A"]}, {"h": ["A"]}]]).shared_paths == ()


def test_a_result_that_holds_itself_is_reported_and_the_walk_ends():
    host, _ = host_with("def f():\n    x = []\n    x.append(x)\n    return x\n")
    outcome = host.call("f", [])
    assert outcome.shared_paths == ((0,),)


def test_learner_output_is_captured_and_capped():
    host, _ = host_with("import sys\ndef f():\n    print('hoi')\n    sys.stderr.write('x' * 100000)\n    return 1\n")
    outcome = host.call("f", [])
    assert outcome.value == 1
    assert outcome.stdout.startswith("hoi\nxxx")
    assert len(outcome.stdout) < 21000 and "tekens uitvoer weggelaten" in outcome.stdout


def test_restart_loads_the_same_code_fresh():
    host, _ = host_with("calls = []\ndef f():\n    calls.append(1)\n    return len(calls)\n")
    assert [host.call("f", []).value for _ in range(2)] == [1, 2]
    assert host.restart().ok
    assert host.call("f", []).value == 1


def test_outcome_from_wire_rejects_malformed_replies():
    with pytest.raises(ValueError):
        CallOutcome.from_wire({"kind": "win"})
    with pytest.raises(ValueError):
        CallOutcome.from_wire({"kind": "raise"})
    with pytest.raises(ValueError):
        CallOutcome.from_wire({"kind": "return", "value": {"$opaque": 3}})


def test_outcome_wire_round_trip():
    outcome = CallOutcome(kind="return", value=[{"a": 1}], args_after=[1], kwargs_after={}, aliased_paths=((0,),),
                          shared_paths=((1, "h"),))
    assert CallOutcome.from_wire(outcome.to_wire()) == outcome


def test_load_report_wire_round_trip():
    _, report = host_with("def f(a, b=1):\n    pass\nx = 3\n", expected=("f", "x", "y"))
    assert LoadReport.from_wire(json.loads(json.dumps(report.to_wire()))) == report


def test_json_channel_and_in_process_give_identical_outcomes():
    """What the child process sends (JSON text) decodes to exactly what InProcessHost returns."""
    source = "def f(records):\n    records[0]['x'] = (1, 2)\n    return [records[0], 'é\\ud800', 1.0, True, {'k': None}]\n"
    host, _ = host_with(source)
    args = [[{"id": "d"}]]
    in_process = host.call("f", args)
    loaded = invoke.load_module(source, "main.py", ("f",))
    wire_text = wire.dumps(invoke.invoke(loaded.namespace, "f", wire.loads(wire.dumps(plain.encode(args))), {}))
    over_json = CallOutcome.from_wire(wire.loads(wire_text))
    def comparable(outcome):
        return wire.dumps(replace(outcome, duration_ms=0).to_wire())

    assert comparable(over_json) == comparable(in_process)
    assert type(over_json.value[0]["x"]) is Opaque and over_json.value[0]["x"].type_name == "tuple"
    assert over_json.aliased_paths == ((0,),)


def test_json_channel_reports_shared_objects_as_in_process():
    source = "def f():\n    path = ['A']\n    return [{'h': path}, {'h': path}]\n"
    host, _ = host_with(source)
    in_process = host.call("f", [])
    wire = json.loads(json.dumps(invoke.invoke(host.namespace, "f", plain.encode([]), plain.encode({}))))
    assert in_process.shared_paths == CallOutcome.from_wire(wire).shared_paths == ((1, "h"),)


def test_exception_whose_str_never_returns_is_still_stopped():
    source = "class Stuck(Exception):\n    def __str__(self):\n        while True:\n            pass\ndef f():\n    raise Stuck()\n"
    host, _ = host_with(source, call_timeout=0.2)
    assert host.call("f", []).kind == "timeout"


@pytest.mark.parametrize(
    "change",
    [
        "records[0]['n'] = True",  # 1 -> True: equal under ==, still a change
        "records[0]['n'] = 1.0",
        "records[0] = type('D', (dict,), {})(records[0])",  # same content, no longer a plain dict
        "records[0]['$x'] = 1",
        "records.append(records)",  # a cycle
    ],
)
def test_every_kind_of_mutation_is_reported_even_when_it_compares_equal(change):
    host, _ = host_with(f"def f(records):\n    {change}\n")
    sent = [{"n": 1}]
    outcome = host.call("f", [sent])
    assert outcome.args_after is not None
    assert not same(outcome.args_after, [sent])


def test_unchanged_arguments_are_reported_as_sent_without_a_copy_on_the_wire():
    source = "def f(records, k=None):\n    return len(records)\n"
    host, _ = host_with(source)
    loaded = invoke.load_module(source, "main.py", ("f",))
    sent = [{"n": 1, "$d": float("nan"), "t": "\ud800"}]
    wire = invoke.invoke(loaded.namespace, "f", plain.encode([sent]), plain.encode({"k": [True]}))
    assert wire[invoke.ARGS_UNCHANGED] is True and "args_after" not in wire
    outcome = host.call("f", [sent], {"k": [True]})
    assert same(outcome.args_after, [sent]) and same(outcome.kwargs_after, {"k": [True]})


def test_arguments_with_opaque_markers_come_back_in_full():
    source = "def f(records):\n    return len(records)\n"
    host, _ = host_with(source)
    loaded = invoke.load_module(source, "main.py", ("f",))
    wire = invoke.invoke(loaded.namespace, "f", plain.encode([[("t", "u")]]), {})
    assert invoke.ARGS_UNCHANGED not in wire and wire["args_after"] == [[{"$opaque": "tuple"}]]
    assert type(host.call("f", [[("t", "u")]]).args_after[0][0]) is Opaque


def test_capped_output_keeps_the_start_and_says_how_much_was_cut():
    output = invoke.CappedText(5)
    output.write("abc")
    output.write("defgh")
    assert output.take() == "abcde\n… (3 tekens uitvoer weggelaten)"
    assert output.take() == ""
