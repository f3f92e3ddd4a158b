"""The one HTML kit of the outputs (report.html, feedback pages, the LMS section): the style sheet,
escaping, badges, code with line numbers, tables, sections and the page around them.

Every string that can come from a submission goes through `e` (html.escape, hidden characters
made visible); learner output and code are text, never HTML."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime

from runner.core.messages import uses_failing
from runner.offline.grading.grades import LearnerGrade, format_grade, format_points
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.findings import load_problem
from runner.offline.outputs.gradebook import visible_text

STATUS_LABELS = {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout"}


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
.invalid, .not-started { background: #e4e7ed; color: #39414f; }
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
.code { font: 12.5px/1.4 ui-monospace, monospace; background: #f6f7f9; border: 1px solid #e4e7ed;
        border-radius: .3rem; overflow-x: auto; margin: .4rem 0; }
.code table { margin: 0; width: auto; }
.code td { border: 0; padding: 0 .6rem; white-space: pre; }
.code td.ln { color: #8a93a3; text-align: right; user-select: none; }
.code tr.shared td { background: #fff3bf; }
.grade { font-weight: 700; }
.fails-grade { color: #8a1c17; }
"""


def e(value: object) -> str:
    """Escape for HTML text and attribute values alike; hidden and reordering characters (a bidi
    override in a learner's name) become visible escapes, so text reads as it is stored."""
    return html.escape(visible_text("" if value is None else str(value)), quote=True)


def status_badge(status: str, texts: dict) -> str:
    css = status if status in STATUS_LABELS or status in ("invalid", "not-started") else "invalid"
    return f'<span class="status {css}">{e(texts["status"].get(status, status))}</span>'


def code_block(code: str, shared: set[int] = frozenset(), first_line: int = 1, last_line: int | None = None) -> str:
    """Code with line numbers, as escaped text in a table (copying takes the code, not the
    numbers); lines in `shared` are marked."""
    # Once for the whole code (a report escapes a lot); a bidi override in code is shown, not obeyed.
    lines = html.escape(visible_text(code.replace("\r\n", "\n")), quote=True).splitlines() or [""]
    last = len(lines) if last_line is None else min(last_line, len(lines))
    rows = []
    for number in range(first_line, last + 1):
        mark = ' class="shared"' if number in shared else ""
        rows.append(f'<tr{mark}><td class="ln">{number}</td><td>{lines[number - 1]}</td></tr>')
    return f'<div class="code"><table>{"".join(rows)}</table></div>'


def failures_list(result: ResultRecord, texts: dict) -> str:
    """Every test of a submission that did not pass, as a list (the report and feedback files)."""
    problem = load_problem(result)
    failures = ([(texts["all_checkpoints"], problem)] if problem is not None else
                [(c.id, t) for c in result.checkpoints for t in c.failures])
    if not failures:
        return f"<p>{e(texts['all_passed'])}</p>"
    items = []
    for checkpoint_id, test in failures:
        shown = ""
        if test.shows_values:
            shown = (f'<span class="why">{e(texts["expected"])}: {e(test.expected)}</span>'
                     f'<span class="why">{e(texts["got"])}: {e(test.actual)}</span>')
        items.append(
            f"<li>{status_badge(test.status, texts)} <b>{e(checkpoint_id)}</b>, {e(test.name)}"
            f'<span class="why">{e(test.message)}</span>{shown}</li>'
        )
    if problem is None:  # a checkpoint that uses another that failed too: what the learner read
        items.extend(f'<li><b>{e(c.id)}</b><span class="why">{e(uses_failing(c.uses_failing))}</span></li>'
                     for c in result.checkpoints if c.uses_failing)
    return f'<ul class="feedback">{"".join(items)}</ul>'


def html_table(headers: Sequence[str], rows: Sequence[str]) -> str:
    """A table that scrolls on its own on a phone; headers are HTML already (escape ids first)."""
    head = "".join(f"<th>{header}</th>" for header in headers)
    return "\n".join([f"{TABLE_OPEN}<thead><tr>{head}</tr></thead><tbody>", *rows, f"</tbody>{TABLE_CLOSE}"])


def html_section(title: str, intro: str, body: str) -> str:
    parts = [f"<h2>{title}</h2>"]
    if intro:
        parts.append(f'<p class="meta">{intro}</p>')
    parts.append(body)
    return "\n".join(parts)


def html_document(title: str, texts: dict, body: Sequence[str]) -> str:
    head = [
        "<!DOCTYPE html>",
        f'<html lang="{texts["lang"]}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        f"<style>{CSS}</style></head><body>",
    ]
    return "\n".join([*head, *(part for part in body if part), "</body></html>\n"])


def grade_text(grade: LearnerGrade | None, texts: dict) -> str:
    if grade is None:
        return ""
    css = "grade" if grade.passed else "grade fails-grade"
    return f'<span class="{css}">{e(format_grade(grade.grade, texts["decimal_comma"]))}</span>'


def points_text(grade: LearnerGrade, texts: dict) -> str:
    return f"{format_points(grade.points, texts['decimal_comma'])}/{grade.max_points}"


def signed_points(points, texts: dict) -> str:
    text = format_points(abs(points), texts["decimal_comma"])
    return f"-{text}" if points < 0 else f"+{text}"


def local_time(timestamp: str) -> str:
    """An ISO timestamp as this machine's local time, e.g. "2026-11-30 11:50 (UTC+01:00)"."""
    try:
        moment = datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return timestamp
    offset = moment.strftime("%z")
    return f"{moment:%Y-%m-%d %H:%M} (UTC{offset[:3]}:{offset[3:]})"


def generated_line(texts: dict, generated_at: str, runner_version: str, bundle_sha256: str) -> str:
    line = texts["generated"].format(when=e(local_time(generated_at)), version=e(runner_version),
                                     bundle=e(bundle_sha256[:16]))
    return f'<p class="meta">{line}</p>'
