"""runner.core.grade: load first, then each checkpoint's tests in order; time-outs and crashes fail closed."""

import json
from pathlib import Path

import pytest

from runner.core.grade import LOAD_TEST_NAME, SIGNATURE_TEST_NAME, grade
from runner.core.host import InProcessHost
from runner.core.model import CallOutcome, LoadReport
from runner.core.testkit import describe_difference, first_difference


class ScriptedHost:
    """A host that forwards to InProcessHost but answers chosen calls with a fixed outcome."""

    def __init__(self, replace):
        self.inner = InProcessHost()
        self.replace = replace  # (function, call number) -> CallOutcome
        self.calls = {}
        self.restarts = 0

    def load(self, source, expected=()):
        return self.inner.load(source, expected)

    def call(self, function, args, kwargs=None):
        number = self.calls.get(function, 0)
        self.calls[function] = number + 1
        if (function, number) in self.replace:
            return self.replace[(function, number)]
        return self.inner.call(function, args, kwargs)

    def restart(self):
        self.restarts += 1
        return self.inner.restart()

    def close(self):
        self.inner.close()


def test_reference_solution_passes_every_checkpoint(bundle, reference_source):
    report = grade(bundle, InProcessHost(), reference_source)
    assert report.statuses() == {"document_snapshots": "pass", "word_chunks": "pass", "chunk_coverage": "pass"}
    assert (report.score, report.max_score) == (3, 3)


def test_syntax_error_gives_every_checkpoint_one_error_test_before_anything_runs(bundle):
    report = grade(bundle, InProcessHost(), "def document_snapshots(records:\n    pass\n")
    for checkpoint in report.checkpoints:
        assert checkpoint.status == "error"
        assert [t.name for t in checkpoint.tests] == [LOAD_TEST_NAME]
        assert checkpoint.tests[0].message.startswith("Je code bevat een syntaxfout op regel 1: ")


def test_import_error_names_type_and_line(bundle):
    report = grade(bundle, InProcessHost(), "import hashlib\n\nraise RuntimeError('stop')\n")
    message = report.checkpoint("word_chunks").tests[0].message
    assert message == "Je code stopte tijdens het laden met RuntimeError op regel 3: stop. Er is nog niets getest."


def test_missing_function_affects_only_its_checkpoint(bundle, reference_source):
    source = reference_source.replace("def chunk_coverage(", "def chunk_coverage_v2(")
    report = grade(bundle, InProcessHost(), source)
    assert report.statuses() == {"document_snapshots": "pass", "word_chunks": "pass", "chunk_coverage": "error"}
    only_test = report.checkpoint("chunk_coverage").tests
    assert [(t.name, t.message) for t in only_test] == [
        (SIGNATURE_TEST_NAME, "De functie chunk_coverage ontbreekt: definieer def chunk_coverage(...) bovenaan in main.py.")
    ]


def test_wrong_signature_is_reported_before_tests_run(bundle, reference_source):
    source = reference_source.replace("def word_chunks(document, window=40, overlap=8):", "def word_chunks(doc, size=40, step=8):")
    report = grade(bundle, InProcessHost(), source)
    tests = report.checkpoint("word_chunks").tests
    assert [(t.status, t.message) for t in tests] == [
        ("error", "word_chunks moet aan te roepen zijn als word_chunks(document, window=40, overlap=8); de parameters van jouw functie passen daar niet bij.")
    ]


def test_name_bound_to_a_value_is_not_callable(bundle, reference_source):
    report = grade(bundle, InProcessHost(), reference_source + "\ndocument_snapshots = 42\n")
    assert report.checkpoint("document_snapshots").tests[0].message == "document_snapshots is geen functie maar een waarde van type int."


def test_varargs_signature_is_accepted(bundle, reference_source):
    source = reference_source + "\n_real = word_chunks\ndef word_chunks(*args, **kwargs):\n    return _real(*args, **kwargs)\n"
    assert grade(bundle, InProcessHost(), source).checkpoint("word_chunks").status == "pass"


def test_timeout_restarts_the_host_and_marks_the_rest_of_that_checkpoint(bundle, reference_source):
    host = ScriptedHost({("word_chunks", 2): CallOutcome.timed_out("te lang")})
    report = grade(bundle, host, reference_source)
    tests = report.checkpoint("word_chunks").tests
    statuses = [t.status for t in tests]
    timed_out = statuses.index("timeout")
    assert all(s == "pass" for s in statuses[:timed_out])
    assert tests[timed_out].message == "word_chunks was niet binnen de tijdslimiet klaar (een oneindige lus?)."
    assert all(t.status == "timeout" and t.message == "niet uitgevoerd na een time-out" for t in tests[timed_out + 1:])
    assert len(tests) == len(bundle.checkpoint("word_chunks").tests)
    assert host.restarts == 1
    # The next checkpoint is still graded on the restarted host.
    assert report.statuses() == {"document_snapshots": "pass", "word_chunks": "timeout", "chunk_coverage": "pass"}


def test_a_host_crash_is_an_error_never_a_pass(bundle, reference_source):
    host = ScriptedHost({("document_snapshots", 0): CallOutcome.host_error("het kindproces stopte onverwacht")})
    report = grade(bundle, host, reference_source)
    first = report.checkpoint("document_snapshots").tests[0]
    assert (first.status, first.message) == ("error", "Het uitvoeren van document_snapshots mislukte: het kindproces stopte onverwacht.")
    assert report.checkpoint("document_snapshots").status == "error"
    assert host.restarts == 1


def test_timeout_at_load_gives_timeout_everywhere(bundle):
    class SlowLoad(ScriptedHost):
        def load(self, source, expected=()):
            return LoadReport(problem="timeout", message="Je code werd niet binnen de tijdslimiet geladen.")

    report = grade(bundle, SlowLoad({}), "while True: pass\n")
    assert set(report.statuses().values()) == {"timeout"}


def test_checkpoint_status_is_its_first_non_passing_test(bundle, reference_source):
    # Raising a TypeError where a ValueError is due fails that test only; later tests still run.
    source = reference_source.replace('raise ValueError("window is een geheel getal van 1 tot en met 256")', 'raise TypeError("window")')
    report = grade(bundle, InProcessHost(), source)
    tests = report.checkpoint("word_chunks").tests
    first_bad = next(t for t in tests if t.status != "pass")
    assert report.checkpoint("word_chunks").status == first_bad.status == "fail"
    assert first_bad.message == "window=0 moet een ValueError geven. Je functie gaf TypeError."
    assert len(tests) == len(bundle.checkpoint("word_chunks").tests)


def test_visible_tests_show_expected_and_actual_hidden_ones_do_not(bundle, reference_source):
    source = reference_source.replace('"id": f"{document[\'id\']}:{word_start}",', '"id": f"{document[\'id\']}-{word_start}",')
    report = grade(bundle, InProcessHost(), source)
    tests = report.checkpoint("word_chunks").tests
    visible = tests[0]
    assert visible.status == "fail" and visible.visible
    assert "'d:0'" in visible.expected and "'d-0'" in visible.actual
    # The message itself says where and what, so the learner need not compare two long reprs.
    assert visible.message.endswith("Bij [0]['id']: verwacht 'd:0', je gaf 'd-0'.")
    hidden_failures = [t for t in tests if not t.visible and t.status != "pass"]
    assert hidden_failures and all(t.expected is None and t.actual is None for t in hidden_failures)
    assert all("expected" not in t.to_json() for t in hidden_failures)


@pytest.mark.parametrize(("actual", "expected", "sentence"), [
    ([1, 2, 3], [1, 2], "Je lijst heeft 3 elementen, verwacht 2: [2] is te veel."),
    ([[1]], [[1, 2]], "Je lijst in [0] heeft 1 element, verwacht 2: [0][1] ontbreekt."),
    ([{"a": 1}], [{"a": 1, "b": 2}], "Bij [0]: de sleutel 'b' ontbreekt."),
    ({"a": 1, "c": 3}, {"a": 1}, "De sleutel 'c' hoort er niet bij."),
    ({"n": True}, {"n": 1}, "Bij ['n']: verwacht een int, je gaf een bool (True)."),
    (4, 3, "Verwacht 3, je gaf 4."),
    ({"d": 0.0}, {"d": None}, "Bij ['d']: verwacht None, je gaf 0.0."),
    # Long strings are shown around their first difference, not cut where they differ.
    ({"t": "Handleiding lamp\nDe lamp brandt groen na reset."}, {"t": "Handleiding lamp\n\nDe lamp brandt groen na reset."},
     "Bij ['t']: verwacht 'Handleiding lamp\\n\\nDe lamp brandt groe'…, je gaf 'Handleiding lamp\\nDe lamp brandt groen'… (het eerste verschil is teken 17)."),
    ("x" * 30 + "Q" + "y" * 30, "x" * 30 + "R" + "y" * 30, "Verwacht …'xxxxxxxxxxxxxxxxxxxxRyyyyyyyyyyyyyyyyyyy'…, je gaf …'xxxxxxxxxxxxxxxxxxxxQyyyyyyyyyyyyyyyyyyy'… (het eerste verschil is teken 30)."),
    ("a" * 50, "a" * 51, "Verwacht …'aaaaaaaaaaaaaaaaaaaaa', je gaf …'aaaaaaaaaaaaaaaaaaaa' (het eerste verschil is teken 50)."),
    # A hash differs as a whole: no "first difference" inside it (issue 25).
    ({"revision": "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"},
     {"revision": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"},
     "Bij ['revision']: verwacht de hash 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb', "
     "je gaf '3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d'. Een hash verandert helemaal "
     "zodra de gehashte bytes ook maar iets verschillen: kijk welke tekst je hasht en hoe je die codeert."),
])
def test_a_difference_is_said_in_one_sentence(actual, expected, sentence):
    assert describe_difference(first_difference(actual, expected)) == sentence
    assert first_difference(expected, expected) is None


def test_only_grades_the_named_checkpoints(bundle, reference_source):
    report = grade(bundle, InProcessHost(), reference_source, only=["chunk_coverage"])
    assert [c.id for c in report.checkpoints] == ["chunk_coverage"]
    with pytest.raises(ValueError, match="unknown checkpoint"):
        grade(bundle, InProcessHost(), reference_source, only=["nope"])


def test_progress_is_reported_per_test(bundle, reference_source):
    seen = []
    grade(bundle, InProcessHost(), reference_source, only=["document_snapshots"], on_progress=lambda cid, result: seen.append((cid, result.status)))
    assert len(seen) == len(bundle.checkpoint("document_snapshots").tests)
    assert set(seen) == {("document_snapshots", "pass")}


def test_report_json_follows_the_result_schema(bundle, reference_source):
    data = json.loads(json.dumps(grade(bundle, InProcessHost(), reference_source).to_json()))
    assert set(data) >= {"lesson", "score", "max_score", "runner_version", "bundle_sha256", "checkpoints"}
    for checkpoint in data["checkpoints"]:
        assert set(checkpoint) == {"id", "status", "tests"}
        for test in checkpoint["tests"]:
            assert set(test) >= {"name", "status", "message", "duration_ms"}
            assert test["status"] in {"pass", "fail", "error", "timeout"}


def test_a_learner_cannot_fake_a_pass_through_the_grader(bundle, reference_source):
    # Patching the testkit from learner code must not change verdicts computed from plain data.
    source = reference_source + (
        "\nimport sys\n"
        "def document_snapshots(records):\n"
        "    class Yes(list):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "    return Yes()\n"
    )
    report = grade(bundle, InProcessHost(), source)
    assert report.checkpoint("document_snapshots").status == "fail"


def test_starter_code_says_the_functions_are_not_done_yet(bundle):
    starter = Path(__file__).resolve().parents[2] / "checkpoints" / "rag-01" / "starter.py"
    report = grade(bundle, InProcessHost(), starter.read_text(encoding="utf-8"))
    assert set(report.statuses().values()) == {"error"}
    first = report.checkpoint("document_snapshots").tests[0]
    assert first.message.startswith("document_snapshots is nog niet af: NotImplementedError: ")


def test_a_host_that_breaks_while_loading_gives_errors_not_an_exception(bundle, reference_source):
    class Broken(ScriptedHost):
        def load(self, source, expected=()):
            raise OSError("geen kindproces")

    report = grade(bundle, Broken({}), reference_source)
    assert set(report.statuses().values()) == {"error"}
    assert report.checkpoints[0].tests[0].message == "Je code kon niet geladen worden: OSError. Er is nog niets getest."
