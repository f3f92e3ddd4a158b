"""Same verdicts in the browser as offline, for each lesson's corpus of correct, wrong, broken and slow code.

The corpus of a lesson: the reference and every known-wrong and correct solution in
checkpoints/<id>/, plus the broken and slow submissions of tests/lessons/<id>/corpus/ (see
rag-01's README there); a variation of the reference (`# after: solution.py`) is graded composed,
as `runner.offline.gates.quality_gate.compose_source` makes it. Each is graded in the lesson's page, through
the real editor, worker and "Controleer alle checkpoints" button, and by `python -m runner grade`;
every checkpoint must get the same status. Both sides get the same shorter time limit
(`CHECK_SECONDS`, the page's `?checkTimeLimit=` and the grader's `--check-timeout` and
`--call-timeout`): the endless loops of the corpus burn their limit once per checkpoint on both
sides, most of this file's CPU at the lessons' 5 s (and 10 s offline for code that loops at import).
That the page and the grader take a lesson's own limits is tested apart (test_settings_in_browser.py,
test_settings_offline.py). The lesson's tests.toml names
what is left out (`[same_verdicts.not_compared]`, each with its reason) and how many must be
compared at least (`min_compared`).

Offline, code with a syntax error is an `invalid` submission (nothing can be graded); the page
reports it as an `error` on every checkpoint, so that is what it is compared with.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.core.bundle import load_bundle
from runner.offline.gates.quality_gate import compose_source
from runner.offline.grading.records import read_results
from tests.browser.checkpoint_panel import CheckpointPanel
from tests.lessons.lesson_tests import LESSONS, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Enough for a correct submission of any lesson, one checkpoint in the page, under the load of
# four test workers on two cores (two clean-clone runs); below the lessons' own limits.
CHECK_SECONDS = 3
# Slow submissions each wait out CHECK_SECONDS, once per checkpoint in the page.
BATCH_TIMEOUT_S = 900


@pytest.fixture(scope="module", params=LESSONS, ids=[lesson.id for lesson in LESSONS])
def lesson(request):
    return request.param


@pytest.fixture(scope="module")
def checkpoint_ids(lesson) -> tuple[str, ...]:
    return tuple(checkpoint.id for checkpoint in load_bundle(lesson.checkpoints_dir, include_offline=False).checkpoints)


@pytest.fixture(scope="module")
def submissions(lesson, tmp_path_factory) -> dict[str, Path]:
    """Name -> a .py file to grade: every file composed in tmp as the quality gate grades it."""
    composed = tmp_path_factory.mktemp("corpus")
    solution_text = (lesson.checkpoints_dir / "solution.py").read_text(encoding="utf-8")
    found: dict[str, Path] = {}
    sources = [*sorted((lesson.checkpoints_dir / "wrong").glob("*.py")),
               *sorted((lesson.checkpoints_dir / "correct").glob("*.py")), *sorted(lesson.corpus_dir.glob("*.py"))]
    not_compared = lesson.settings.not_compared
    reference = composed / "solution.py"
    reference.write_text(solution_text, encoding="utf-8")
    found["solution.py"] = reference
    for path in sources:
        name = f"{path.parent.name}/{path.name}"
        if name in not_compared:
            continue
        target = composed / name.replace("/", "__")
        target.write_text(compose_source(path.read_text(encoding="utf-8"), solution_text), encoding="utf-8")
        found[name] = target
    return found


@pytest.fixture(scope="module")
def offline_verdicts(lesson, checkpoint_ids, submissions, tmp_path_factory) -> dict[str, dict[str, str]]:
    out = tmp_path_factory.mktemp("graded")
    completed = subprocess.run(
        [sys.executable, "-m", "runner", "grade", "--lesson", lesson.id,
         *(str(path) for path in submissions.values()), "--out", str(out), "--jobs", "2",
         "--check-timeout", str(CHECK_SECONDS), "--call-timeout", str(CHECK_SECONDS)],
        cwd=ROOT, capture_output=True, text=True, timeout=BATCH_TIMEOUT_S,
    )
    assert completed.returncode == 0, completed.stderr
    by_path = {}
    for result in read_results(out / "results.jsonl").results.values():
        if result.graded:
            by_path[result.submission] = result.statuses()
        else:
            assert result.message.startswith("syntax error"), result.message
            by_path[result.submission] = dict.fromkeys(checkpoint_ids, "error")
    return {name: by_path[str(path.resolve())] for name, path in submissions.items()}


def test_the_corpus_is_large_and_varied(lesson, submissions, offline_verdicts):
    assert len(submissions) >= lesson.settings.min_compared
    seen = {status for statuses in offline_verdicts.values() for status in statuses.values()}
    assert seen == {"pass", "fail", "error", "timeout"}
    assert any(set(statuses.values()) == {"pass"} for statuses in offline_verdicts.values())


def test_browser_and_offline_give_the_same_status_for_every_checkpoint(restored_page, site_server, lesson,
                                                                      checkpoint_ids, submissions, offline_verdicts):
    panel = CheckpointPanel.open(restored_page, site_server, f"?checkTimeLimit={CHECK_SECONDS}",
                                 lesson_path=f"{lesson.id}/", checkpoint_ids=checkpoint_ids)
    browser_verdicts = {}
    for name, path in submissions.items():
        panel.editor.set_code(path.read_text(encoding="utf-8"))
        browser_verdicts[name] = panel.check_all(timeout=180_000)
    differences = {
        name: {"browser": browser_verdicts[name], "offline": offline_verdicts[name]}
        for name in submissions if browser_verdicts[name] != offline_verdicts[name]
    }
    assert differences == {}, json.dumps(differences, indent=1)
