"""Every lesson's grading costs stay within the budget it records (runner/offline/gates/budget.py).

The counts are deterministic (learner calls, bytes each way through the channel, the largest
line), so this test cannot be flaky: it fails only when a change makes grading dearer, and then
says by how much and how to raise the budget on purpose. Seconds stay in bench/grade_batch.py.
"""

from __future__ import annotations

import json

import pytest

from runner.core import wire
from runner.offline.gates.budget import (
    BudgetError,
    Costs,
    LessonCosts,
    LoopbackHost,
    measure,
    over_budget,
    read_budget,
)
from runner.offline.sandbox.host import ChildProcessHost
from tests.lessons.lesson_tests import LessonTests, lesson_param, shown
from tests.runner_offline.offline_support import MINI_LESSON


def budget_failure(lesson: LessonTests) -> str | None:
    """The one-line message the budget test fails with for this lesson, or None."""
    if not lesson.budget.is_file():
        return (f"{shown(lesson.budget)} is missing: create it with `{lesson.budget_command}`, "
                f"review it and commit it")
    try:
        recorded = read_budget(lesson.budget)
    except BudgetError as error:
        return f"{error}; record it again with `{lesson.budget_command}`"
    problems = over_budget(measure(lesson.checkpoints_dir), recorded)
    if not problems:
        return None
    return (f"{lesson.id} grades dearer than {shown(lesson.budget)} allows: {'; '.join(problems)}. "
            f"If that is intended, run `python bench/grade_batch.py` before and after, raise the budget "
            f"with `{lesson.budget_command}` and put the bench figures in the commit message")


@lesson_param
def test_grading_the_reference_stays_within_the_lessons_budget(lesson):
    failure = budget_failure(lesson)
    if failure is not None:
        pytest.fail(failure, pytrace=False)


def test_a_lesson_without_a_budget_is_told_how_to_make_one():
    lesson = LessonTests("nieuw-01")
    assert budget_failure(lesson) == ("tests/lessons/nieuw-01/budget.json is missing: create it with "
                                      "`python tests/lessons/record_budget.py nieuw-01`, review it and commit it")


def test_a_dearer_change_fails_with_what_grew_and_how_to_raise_the_budget(tmp_path, monkeypatch):
    measured = measure(MINI_LESSON)
    recorded = LessonCosts(measured.lesson, {name: Costs(**vars(costs)) for name, costs in measured.checkpoints.items()})
    assert over_budget(measured, recorded) == []
    # One call more is within the slack; 10 KB more sent is past it, in the checkpoint and in all.
    words = recorded.checkpoints["words"]
    measured.checkpoints["words"] = Costs(words.calls + 1, words.bytes_sent + 10_000, words.bytes_received,
                                          words.largest_line)
    assert over_budget(measured, recorded) == [
        f"words: bytes_sent {words.bytes_sent + 10_000} > budget {words.bytes_sent} (+10%)",
        f"the whole lesson: bytes_sent {recorded.total.bytes_sent + 10_000} > budget {recorded.total.bytes_sent} (+10%)",
    ]
    monkeypatch.setitem(globals(), "measure", lambda _lesson_dir: measured)  # budget_failure's measure
    lesson = LessonTests("mini-01")
    monkeypatch.setattr(LessonTests, "folder", property(lambda self: tmp_path))
    monkeypatch.setattr(LessonTests, "checkpoints_dir", property(lambda self: MINI_LESSON))
    lesson.budget.write_text(recorded.to_json(), encoding="utf-8")
    message = budget_failure(lesson)
    assert message.startswith("mini-01 grades dearer than ")
    assert "words: bytes_sent" in message
    assert message.endswith("raise the budget with `python tests/lessons/record_budget.py mini-01` "
                            "and put the bench figures in the commit message")
    lesson.budget.write_text("{", encoding="utf-8")
    assert "not a budget file" in budget_failure(lesson)


def test_the_loopback_host_counts_what_the_real_channel_carries(monkeypatch):
    """LoopbackHost builds its lines as ChildProcessHost and the child do: the requests the real
    host sends and the replies its real child sends (ids written as "1" and duration_ms as 0 on
    both sides, as the budget counts them) add up to the same counts."""
    real = Costs()
    original_exchange = ChildProcessHost._exchange

    def counting_exchange(self, request, time_limit=None, raw=None):
        body = original_exchange(self, request, time_limit, raw)
        request_line = wire.wire_line_with({"id": "1", **request}, raw or {})
        reply_line = wire.wire_line({"id": "1", "body": dict(body, duration_ms=0) if "duration_ms" in body else body})
        real.add_exchange(request_line, reply_line, request["op"] == "call")
        return body

    monkeypatch.setattr(ChildProcessHost, "_exchange", counting_exchange)
    from runner.core.bundle import load_bundle
    from runner.core.grade import grade

    bundle = load_bundle(MINI_LESSON, include_offline=True)
    source = (MINI_LESSON / "solution.py").read_text(encoding="utf-8")
    loopback = LoopbackHost()
    loopback.checkpoint = "all"
    with ChildProcessHost() as host:
        assert grade(bundle, host, source).score == grade(bundle, loopback, source).score
    counted = loopback.costs["all"]
    assert (counted.calls, counted.bytes_sent, counted.largest_line) == (real.calls, real.bytes_sent, real.largest_line)
    assert counted.bytes_received == real.bytes_received
    assert json.loads(measure(MINI_LESSON).to_json())["total"]["calls"] == real.calls
