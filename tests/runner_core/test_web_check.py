"""runner.core.web.check's "status": "interrupted" when an interrupt (the page's time limit, or the
learner's Stop: only the page knows which, worker-client.js) ended some checkpoint's grading, so
that a check the learner stopped can give its card back instead of a "Te traag" it never earned
(tests/browser/test_checkpoints.py). Fixture lesson chain-01; CPython's call timer raises the same
KeyboardInterrupt the page's interrupt does."""

from __future__ import annotations

from pathlib import Path

from runner.core import web

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = str(ROOT / "tests" / "fixtures" / "chain" / "checkpoints" / "chain-01")
REFERENCE = (Path(LESSON_DIR) / "solution.py").read_text(encoding="utf-8")


def test_a_check_that_ran_to_its_verdict_is_done():
    assert web.check(REFERENCE, LESSON_DIR, ["words"], call_timeout=2)["status"] == "done"
    wrong = REFERENCE + "\n\ndef words(text):\n    return []\n"
    answer = web.check(wrong, LESSON_DIR, ["words"], call_timeout=2)
    assert (answer["status"], answer["checkpoints"][0]["status"]) == ("done", "fail")


def test_an_interrupted_function_makes_the_check_interrupted():
    endless = REFERENCE + "\n\ndef words(text):\n    while True:\n        pass\n"
    answer = web.check(endless, LESSON_DIR, ["words"], call_timeout=0.2)
    assert (answer["status"], answer["checkpoints"][0]["status"]) == ("interrupted", "timeout")


def test_code_interrupted_while_it_loads_makes_the_check_interrupted():
    answer = web.check(REFERENCE + "\nwhile True:\n    pass\n", LESSON_DIR, ["words", "longest_line"], call_timeout=0.2)
    assert answer["status"] == "interrupted"
    assert [item["status"] for item in answer["checkpoints"]] == ["timeout", "timeout"]
