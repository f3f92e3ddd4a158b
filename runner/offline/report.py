"""report.html: the teacher's one-page overview of a graded batch.

Self-contained: inline CSS and SVG, no script, no external resource, so it opens from a USB stick
or an e-mail attachment. Every string that can come from a submission (learner names, paths,
exception messages inside test messages, reasons) goes through `html.escape`; learner output is
text, never HTML.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from os.path import commonpath, dirname, relpath
from typing import Sequence

from runner.core.messages import LOAD_TEST_NAME, uses_failing
from runner.offline.gradebook import latest_per_learner, submission_order
from runner.offline.records import CheckpointRecord, ResultRecord, TestRecord

STATUS_LABELS = {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout"}
MOST_FAILED_LIMIT = 15
ALL_CHECKPOINTS = "(all)"  # where a load problem is listed once instead of per checkpoint
# Wide tables scroll on their own on a phone instead of widening the page.
TABLE_OPEN = '<div class="table-scroll"><table>'
TABLE_CLOSE = "</table></div>"

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem;
       color: #1d2330; background: #fff; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid #d6dbe4; padding-bottom: .2rem; }
.meta { color: #566074; font-size: .9rem; }
.warning { background: #fde2e1; color: #8a1c17; padding: .6rem 1rem; border-radius: .4rem; font-weight: 600; }
.meta code { font-size: .85rem; }
table { border-collapse: collapse; width: 100%; margin-top: .6rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #e4e7ed; }
th { background: #f3f5f8; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.status { display: inline-block; padding: 0 .45rem; border-radius: .6rem; font-size: .8rem;
          font-weight: 600; }
.pass { background: #d8f3df; color: #0f5c27; }
.fail { background: #fde2e1; color: #8a1c17; }
.error { background: #fbe8cc; color: #7a4300; }
.timeout { background: #e7e1fb; color: #3f2a8a; }
.invalid { background: #e4e7ed; color: #39414f; }
.why { display: block; color: #566074; font-size: .8rem; max-width: 22rem; white-space: pre-wrap;
       overflow-wrap: anywhere; }
.path { font-family: ui-monospace, monospace; font-size: .8rem; overflow-wrap: anywhere; }
.cards { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1rem; }
.card { border: 1px solid #d6dbe4; border-radius: .5rem; padding: .6rem 1rem; min-width: 8rem; }
.card b { display: block; font-size: 1.5rem; }
svg { max-width: 100%; height: auto; }
svg text { font: 13px system-ui, sans-serif; fill: #1d2330; }
details { border-bottom: 1px solid #e4e7ed; padding: .35rem 0; }
summary { cursor: pointer; font-weight: 600; }
.feedback li { margin: .3rem 0; }
.feedback .why { max-width: none; }
.table-scroll { overflow-x: auto; }
"""


def e(value: object) -> str:
    """Escape for HTML text and attribute values alike."""
    return html.escape("" if value is None else str(value), quote=True)


@dataclass(frozen=True)
class CheckpointInfo:
    id: str
    title: str


def _status_badge(status: str) -> str:
    css = status if status in STATUS_LABELS or status == "invalid" else "invalid"
    return f'<span class="status {css}">{e(status)}</span>'


def _display_paths(results: Sequence[ResultRecord]) -> dict[str, str]:
    """Paths relative to the batch's common folder: shorter, and no teacher's home dir."""
    paths = [r.submission for r in results]
    if not paths:
        return {}
    try:
        root = commonpath(paths) if len(paths) > 1 else dirname(paths[0])
    except ValueError:
        return {p: p for p in paths}
    if root in paths:
        root = dirname(root)
    return {p: relpath(p, root) for p in paths}


def _passes(result: ResultRecord, checkpoint_id: str) -> bool:
    return any(c.id == checkpoint_id and c.status == "pass" for c in result.checkpoints)


def _pass_rate_chart(checkpoints: Sequence[CheckpointInfo], latest: Sequence[ResultRecord]) -> str:
    """One bar per checkpoint: the share of learners whose most recent submission passes it."""
    label_width, bar_width, row_height = 230, 420, 30
    height = row_height * len(checkpoints) + 10
    width = label_width + bar_width + 90
    rows = []
    for index, checkpoint in enumerate(checkpoints):
        passed = sum(1 for result in latest if _passes(result, checkpoint.id))
        total = len(latest)
        rate = passed / total if total else 0.0
        y = index * row_height + 5
        rows.append(
            f'<text x="0" y="{y + 19}">{e(checkpoint.id)}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{bar_width}" height="20" fill="#eef0f4"/>'
            f'<rect x="{label_width}" y="{y + 4}" width="{rate * bar_width:.1f}" height="20" fill="#2f8f4e">'
            f"<title>{e(checkpoint.id)}: {passed} of {total} learners passed</title></rect>"
            f'<text x="{label_width + bar_width + 8}" y="{y + 19}">{rate:.0%} ({passed}/{total})</text>'
        )
    return (
        f'<svg role="img" aria-label="Pass rate per checkpoint" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">{"".join(rows)}</svg>'
    )


def _load_problem(result: ResultRecord) -> TestRecord | None:
    """The one test that stands for every checkpoint when the code did not load (or no function
    could be checked): then each checkpoint holds only that test, with the same message."""
    checkpoints = result.checkpoints
    firsts = [c.tests[0] for c in checkpoints if c.tests]
    if (len(firsts) == len(checkpoints) and firsts and all(t.name == LOAD_TEST_NAME for t in firsts)
            and len({t.message for t in firsts}) == 1):
        return firsts[0]
    return None


def _first_failures(result: ResultRecord) -> list[tuple[str, TestRecord]]:
    """(checkpoint id, test) for the test that decided each non-passing checkpoint's status; a
    load problem once, under ALL_CHECKPOINTS, instead of once per checkpoint."""
    load_problem = _load_problem(result)
    if load_problem is not None:
        return [(ALL_CHECKPOINTS, load_problem)]
    found = []
    for checkpoint in result.checkpoints:
        test = checkpoint.first_failure
        if test is not None:
            found.append((checkpoint.id, test))
    return found


def _most_failed(latest_graded: Sequence[ResultRecord]) -> list[tuple[str, str, int, Counter, str]]:
    """(checkpoint, test, count, statuses, most common message) for the most-failed tests over the
    learners' most recent submissions. Only the test that decided a checkpoint's status counts:
    the rest of a checkpoint after a time-out or a load problem says nothing about those tests."""
    counts: Counter = Counter()
    statuses: dict[tuple[str, str], Counter] = {}
    messages: dict[tuple[str, str], Counter] = {}
    for result in latest_graded:
        for checkpoint_id, test in _first_failures(result):
            key = (checkpoint_id, test.name)
            counts[key] += 1
            statuses.setdefault(key, Counter())[test.status] += 1
            messages.setdefault(key, Counter())[test.message] += 1
    rows = []
    for (checkpoint_id, name), count in counts.most_common(MOST_FAILED_LIMIT):
        message = messages[(checkpoint_id, name)].most_common(1)[0][0]
        rows.append((checkpoint_id, name, count, statuses[(checkpoint_id, name)], message))
    return rows


def missing_protections(results: Sequence[ResultRecord]) -> list[str]:
    """The sandbox protections that did not hold for at least one graded submission, sorted."""
    return sorted({name for result in results if result.sandbox is not None for name in result.sandbox.missing()})


def _protections_warning(results: Sequence[ResultRecord]) -> str:
    missing = missing_protections(results)
    if not missing:
        return ""
    return (f'<p class="warning">Learner code ran without {e(", ".join(missing))} for some submissions '
            "(see the <code>sandbox</code> record of each result). Without the private filesystem it could "
            "read the hidden tests and reference solutions; without network isolation, use the network; "
            "without cgroup limits, use more memory together than --memory-mb. See docs/grading.md, "
            "\"The sandbox\".</p>")


def _score_cell(result: ResultRecord) -> str:
    if not result.graded:
        return _status_badge("invalid")
    return f"{e(result.score)}/{e(result.max_score)}"


def _first_problem(checkpoint: CheckpointRecord) -> str:
    test = checkpoint.first_failure
    return "" if test is None else f"{test.name}: {test.message}"


def _disagreements(results: Sequence[ResultRecord]) -> list[tuple[ResultRecord, str, str, str]]:
    """(result, checkpoint id, browser verdict, grader verdict) wherever the learner's browser
    showed another verdict than this grader reached, over every submission (superseded ones too)."""
    found = []
    for result in results:
        graded = result.statuses()
        for checkpoint_id, browser in sorted(result.browser_verdicts.items()):
            if result.graded and checkpoint_id not in graded:
                continue  # not a checkpoint of this lesson: nothing to compare with
            grader = graded.get(checkpoint_id, "invalid")
            if browser != grader:
                found.append((result, checkpoint_id, browser, grader))
    return found


def _local_time(timestamp: str) -> str:
    """An ISO timestamp as this machine's local time, e.g. "2026-11-30 11:50 (UTC+01:00)"."""
    try:
        moment = datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return timestamp
    offset = moment.strftime("%z")
    return f"{moment:%Y-%m-%d %H:%M} (UTC{offset[:3]}:{offset[3:]})"


def _feedback(result: ResultRecord) -> str:
    """Every test of a learner's most recent submission that did not pass, as a list."""
    load_problem = _load_problem(result)
    failures = ([(ALL_CHECKPOINTS, load_problem)] if load_problem is not None else
                [(c.id, t) for c in result.checkpoints for t in c.failures])
    if not failures:
        return "<p>Every test passed.</p>"
    items = []
    for checkpoint_id, test in failures:
        shown = ""
        if test.shows_values:
            shown = (f'<span class="why">expected: {e(test.expected)}</span>'
                     f'<span class="why">got: {e(test.actual)}</span>')
        items.append(
            f"<li>{_status_badge(test.status)} <b>{e(checkpoint_id)}</b>, {e(test.name)}"
            f'<span class="why">{e(test.message)}</span>{shown}</li>'
        )
    if load_problem is None:  # a checkpoint that uses another that failed too: what the learner read
        items.extend(f'<li><b>{e(c.id)}</b><span class="why">{e(uses_failing(c.uses_failing))}</span></li>'
                     for c in result.checkpoints if c.uses_failing)
    return f'<ul class="feedback">{"".join(items)}</ul>'


def _table(headers: Sequence[str], rows: Sequence[str]) -> str:
    """A table that scrolls on its own on a phone; headers are HTML already (escape ids first)."""
    head = "".join(f"<th>{header}</th>" for header in headers)
    return "\n".join([f"{TABLE_OPEN}<thead><tr>{head}</tr></thead><tbody>", *rows, f"</tbody>{TABLE_CLOSE}"])


def _section(title: str, intro: str, body: str) -> str:
    parts = [f"<h2>{title}</h2>"]
    if intro:
        parts.append(f'<p class="meta">{intro}</p>')
    parts.append(body)
    return "\n".join(parts)


def _most_failed_section(latest_graded: Sequence[ResultRecord]) -> str:
    rows = []
    for checkpoint_id, name, count, statuses, message in _most_failed(latest_graded):
        badges = " ".join(f"{_status_badge(s)}&nbsp;{n}" for s, n in statuses.most_common())
        rows.append(
            f"<tr><td>{e(checkpoint_id)}</td><td>{e(name)}</td>"
            f'<td class="num">{count}<span class="why">{badges}</span></td>'
            f'<td><span class="why">{e(message)}</span></td></tr>'
        )
    body = _table(["Checkpoint", "Test", "Learners", "Most common message"], rows) if rows else "<p>No test failed.</p>"
    return _section(
        "Most-failed tests",
        "Over the learners\' most recent graded submissions: the test that decided each checkpoint that "
        "did not pass (code that did not load counts once, for all checkpoints).",
        body,
    )


def _checkpoint_cells(result: ResultRecord, checkpoints: Sequence[CheckpointInfo]) -> str:
    """A learner's row: one cell per checkpoint, or one wide cell when nothing could be tested."""
    span = max(1, len(checkpoints))
    if not result.graded:
        return (f'<td colspan="{span}">{_status_badge("invalid")}'
                f'<span class="why">{e(result.message)}</span></td>')
    load_problem = _load_problem(result)
    if load_problem is not None:
        return (f'<td colspan="{span}">{_status_badge(load_problem.status)}'
                f'<span class="why">{e(load_problem.name)}: {e(load_problem.message)}</span></td>')
    by_id = {c.id: c for c in result.checkpoints}
    cells = []
    for checkpoint in checkpoints:
        entry = by_id.get(checkpoint.id)
        if entry is None:
            cells.append("<td></td>")
            continue
        problem = _first_problem(entry)
        disagreement = ""
        browser = result.browser_verdicts.get(checkpoint.id)
        if browser is not None and browser != entry.status:
            disagreement = f'<span class="why">browser said {e(browser)}</span>'
        cells.append(
            f"<td>{_status_badge(entry.status)}"
            f'{f"<span class=why>{e(problem)}</span>" if problem else ""}{disagreement}</td>'
        )
    return "".join(cells)


def _learners_section(learners: Sequence[tuple[ResultRecord, int]], checkpoints: Sequence[CheckpointInfo],
                      paths: dict[str, str]) -> str:
    rows = []
    for result, count in learners:
        more = f'<span class="why">{count} submissions</span>' if count > 1 else ""
        rows.append(
            f"<tr><td>{e(result.learner)}{more}</td>"
            f'<td class="path">{e(paths.get(result.submission, result.submission))}</td>'
            f'<td class="num">{e(result.score)}/{e(result.max_score)}</td>'
            f"{_checkpoint_cells(result, checkpoints)}</tr>"
        )
    headers = ["Learner", "Submission", "Score", *(e(c.id) for c in checkpoints)]
    return _section(
        "Learners",
        "The most recent submission of each learner. A cell shows the checkpoint\'s status and, when it "
        "did not pass, the first test that did not.",
        _table(headers, rows),
    )


def _repeated_section(results: Sequence[ResultRecord], learners: Sequence[tuple[ResultRecord, int]],
                      paths: dict[str, str]) -> str:
    rows = []
    for latest_result, count in learners:
        if count < 2:
            continue
        same_learner = sorted((r for r in results if r.learner == latest_result.learner), key=submission_order)
        for result in same_learner:
            rows.append(
                f"<tr><td>{e(result.learner)}</td>"
                f'<td class="path">{e(paths.get(result.submission, result.submission))}</td>'
                f"<td>{e(result.created_at)}</td>"
                f"<td>{_score_cell(result)}</td>"
                f"<td>{'yes' if result is latest_result else ''}</td></tr>"
            )
    if not rows:
        return _section("Learners with more than one submission", "", "<p>None: one submission per learner.</p>")
    return _section(
        "Learners with more than one submission",
        "The learner name and <code>created_at</code> of an export are the learner\'s own claims: check "
        "that these files really are one learner\'s. The newest counts.",
        _table(["Learner", "Submission", "Created", "Score", "Counts"], rows),
    )


def _disagreements_section(results: Sequence[ResultRecord], paths: dict[str, str]) -> str:
    rows = [
        f"<tr><td>{e(result.learner)}</td>"
        f'<td class="path">{e(paths.get(result.submission, result.submission))}</td>'
        f"<td>{e(checkpoint_id)}</td><td>{_status_badge(browser)}</td><td>{_status_badge(grader)}</td></tr>"
        for result, checkpoint_id, browser, grader in _disagreements(results)
    ]
    if not rows:
        return _section("Browser and grader disagree", "",
                        "<p>None: wherever an export carried the browser\'s verdicts, they match.</p>")
    return _section(
        "Browser and grader disagree",
        "Every submission (earlier ones included) whose export says the learner\'s browser showed another "
        "verdict than this grader reached. The grader\'s verdict counts; the browser runs fewer tests (no "
        "offline-only ones) and its verdict can be faked.",
        _table(["Learner", "Submission", "Checkpoint", "Browser", "Grader"], rows),
    )


def _invalid_section(invalid: Sequence[ResultRecord], paths: dict[str, str]) -> str:
    rows = [
        f'<tr><td class="path">{e(paths.get(result.submission, result.submission))}</td>'
        f"<td>{e(result.learner)}</td><td>{e(result.message)}</td></tr>"
        for result in invalid
    ]
    body = _table(["Submission", "Learner", "Reason"], rows) if rows else "<p>None: every submission could be graded.</p>"
    return _section("Invalid submissions", "", body)


def _feedback_section(latest_graded: Sequence[ResultRecord]) -> str:
    details = [
        f"<details><summary>{e(result.learner)}: {e(result.score)}/{e(result.max_score)}"
        f"</summary>{_feedback(result)}</details>"
        for result in latest_graded
    ]
    return _section(
        "Feedback per learner",
        "Every test of the most recent graded submission that did not pass, with its message (the learner "
        "saw the same Dutch text); expected and got only for the lesson\'s own worked examples.",
        "\n".join(details),
    )


def render_report(
    results: Sequence[ResultRecord],
    lesson: str,
    checkpoints: Sequence[CheckpointInfo],
    runner_version: str,
    bundle_sha256: str,
    generated_at: str,
) -> str:
    graded = [r for r in results if r.graded]
    invalid = [r for r in results if not r.graded]
    paths = _display_paths(results)
    learners = latest_per_learner(results)
    latest = [result for result, _count in learners]
    latest_graded = [result for result in latest if result.graded]
    all_passed = sum(1 for r in latest_graded if r.score == r.max_score)
    cards = [(len(learners), "learners"), (all_passed, "learners passed every checkpoint"),
             (len(results), "submissions"), (len(graded), "graded"), (len(invalid), "invalid")]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Grading report: {e(lesson)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Grading report: {e(lesson)}</h1>",
        f'<p class="meta">Generated {e(_local_time(generated_at))} by runner {e(runner_version)}; '
        f"test bundle <code>{e(bundle_sha256[:16])}</code>.</p>",
        _protections_warning(results),
        '<div class="cards">' + "".join(f'<div class="card"><b>{n}</b>{label}</div>' for n, label in cards) + "</div>",
        _section(
            "Pass rate per checkpoint",
            f"Share of the {len(learners)} learners whose most recent submission passes each checkpoint; a "
            "most recent submission that could not be graded counts as not passed.",
            _pass_rate_chart(checkpoints, latest),
        ),
        _most_failed_section(latest_graded),
        _learners_section(learners, checkpoints, paths),
        _repeated_section(results, learners, paths),
        _disagreements_section(results, paths),
        _invalid_section(invalid, paths),
        _feedback_section(latest_graded),
        "</body></html>\n",
    ]
    return "\n".join(parts)
