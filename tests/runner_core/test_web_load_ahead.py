"""runner.core.web.load_ahead: the page loads the code once before a batch of checks, so code that
loops while it loads costs one time limit, not one per checkpoint (fixture lesson chain-01)."""

from __future__ import annotations

from pathlib import Path

from runner.core import messages, web

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = str(ROOT / "tests" / "fixtures" / "chain" / "checkpoints" / "chain-01")
REFERENCE = (Path(LESSON_DIR) / "solution.py").read_text(encoding="utf-8")
CHECKPOINTS = ["words", "word_counts", "longest_line"]
LOOPS_WHILE_LOADING = REFERENCE + "\nwhile True:\n    pass\n"


def without_duration(feedback: dict) -> dict:
    return {key: value for key, value in feedback.items() if key != "duration_ms"}


def test_code_that_loads_is_left_to_the_checks():
    assert web.load_ahead(REFERENCE, LESSON_DIR, CHECKPOINTS, call_timeout=2) == {"status": "loaded"}
    # A load that fails at once is no reason to skip the checks: each says it in its own words.
    assert web.load_ahead("def words(:\n", LESSON_DIR, CHECKPOINTS, call_timeout=2) == {"status": "loaded"}


def test_code_that_loops_while_loading_gets_for_each_checkpoint_what_its_own_check_gives():
    ahead = web.load_ahead(LOOPS_WHILE_LOADING, LESSON_DIR, ["word_counts", "longest_line"], call_timeout=0.3)
    assert ahead["status"] == "interrupted"
    own_checks = [web.check(LOOPS_WHILE_LOADING, LESSON_DIR, [checkpoint], call_timeout=0.3)["checkpoints"][0]
                  for checkpoint in ["word_counts", "longest_line"]]
    assert [without_duration(item) for item in ahead["checkpoints"]] == [without_duration(item) for item in own_checks]
    first = ahead["checkpoints"][0]
    assert (first["id"], first["status"], first["passed"], first["before_tests"]) == ("word_counts", "timeout", 0, True)
    assert first["message"] == messages.timeout_at_load()
