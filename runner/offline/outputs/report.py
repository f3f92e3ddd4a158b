"""report.html: the page a teacher grades a batch with, in Dutch (English with `language="en"`).

Self-contained: inline CSS and SVG, no script, no external resource, so it opens from a USB stick
or an e-mail attachment. Every string that can come from a submission (learner names, paths,
code, exception messages inside test messages, reasons, the teacher's comments) goes through
`html.escape`; learner output and code are text, never HTML, and code is never run here.

What it holds: the grades (runner.offline.grading.grades), pass rates, the most common mistakes grouped
(one row per test with the learners who failed it), who did not begin (the starter untouched),
similar pairs (runner.offline.outputs.similarity), the teacher's corrections, and per learner every test
that did not pass and their code.

The class view (runner.offline.outputs.class_view: latest submission per learner, grades, who did
not begin) is computed once by the caller and shared with the gradebook and the feedback pages;
the HTML comes from runner.offline.outputs.html_kit, the words from runner.offline.outputs.texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from runner.offline.grading.grades import LessonGrading
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.class_view import ClassView, class_view, submission_order
from runner.offline.outputs.findings import (
    ALL_CHECKPOINTS,
    disagreements,
    display_paths,
    first_problem,
    load_problem,
    missing_protections,
    most_failed,
    passes,
)
from runner.offline.outputs.html_kit import (
    code_block,
    e,
    failures_list,
    generated_line,
    grade_text,
    html_document,
    html_section,
    html_table,
    points_text,
    signed_points,
    status_badge,
)
from runner.offline.outputs.reasons import reason_text
from runner.offline.outputs.similarity import SimilarPair, similar_pairs
from runner.offline.outputs.texts import LANGUAGES, TEXTS

NAMES_SHOWN = 12  # learners named in one row of the mistakes table


@dataclass(frozen=True)
class CheckpointInfo:
    id: str
    title: str


@dataclass(frozen=True)
class ReportInputs:
    """What the report needs besides the results: the lesson's points and pass mark (with the
    teacher's corrections), its starter (to recognise who did not begin), and the language."""

    grading: LessonGrading | None = None
    starter: str | None = None
    language: str = "nl"
    similar: Sequence[SimilarPair] | None = None  # computed here when None
    view: ClassView | None = None  # the class view of the results with `grading` and `starter`; computed here when None
    extra_css: str = field(default="", repr=False)


def pass_rate_chart(checkpoints: Sequence[CheckpointInfo], latest: Sequence[ResultRecord], texts: dict) -> str:
    """One bar per checkpoint: the share of learners whose most recent submission passes it."""
    label_width, bar_width, row_height = 230, 420, 30
    height = row_height * len(checkpoints) + 10
    width = label_width + bar_width + 90
    rows = []
    for index, checkpoint in enumerate(checkpoints):
        passed = sum(1 for result in latest if passes(result, checkpoint.id))
        total = len(latest)
        rate = passed / total if total else 0.0
        y = index * row_height + 5
        title = texts["bar_title"].format(checkpoint=e(checkpoint.id), passed=passed, total=total)
        rows.append(
            f'<text x="0" y="{y + 19}">{e(checkpoint.id)}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{bar_width}" height="20" fill="#eef0f4"/>'
            f'<rect x="{label_width}" y="{y + 4}" width="{rate * bar_width:.1f}" height="20" fill="#2f8f4e">'
            f"<title>{title}</title></rect>"
            f'<text x="{label_width + bar_width + 8}" y="{y + 19}">{rate:.0%} ({passed}/{total})</text>'
        )
    return (
        f'<svg role="img" aria-label="{e(texts["chart_label"])}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">{"".join(rows)}</svg>'
    )


def protections_warning(results: Sequence[ResultRecord], texts: dict) -> str:
    missing = missing_protections(results)
    if not missing:
        return ""
    names = texts.get("protections", {})
    shown = ", ".join(names.get(name, name) for name in missing)
    return f'<p class="warning">{texts["warning"].format(missing=e(shown))}</p>'


def score_cell(result: ResultRecord, texts: dict) -> str:
    if not result.graded:
        return status_badge("invalid", texts)
    return f"{e(result.score)}/{e(result.max_score)}"


class _Report:
    def __init__(self, results: Sequence[ResultRecord], checkpoints: Sequence[CheckpointInfo],
                 inputs: ReportInputs) -> None:
        if inputs.language not in TEXTS:
            raise ValueError(f"unknown report language {inputs.language!r} (known: {', '.join(LANGUAGES)})")
        self.texts = TEXTS[inputs.language]
        self.results = results
        self.checkpoints = checkpoints
        self.inputs = inputs
        self.paths = display_paths(results)
        view = inputs.view if inputs.view is not None else class_view(results, inputs.grading, inputs.starter)
        self.learners = [(learner.result, learner.submissions) for learner in view.learners]
        self.latest = view.latest
        self.grades = view.grades
        self.not_started = view.not_started
        starter = inputs.starter
        self.latest_graded = [r for r in self.latest if r.graded]
        if inputs.similar is not None:
            self.similar = list(inputs.similar)
        else:
            codes = {r.submission: r.code for r in self.latest
                     if r.code is not None and r.submission not in self.not_started}
            self.similar = similar_pairs(codes, starter)

    def badge(self, status: str) -> str:
        return status_badge(status, self.texts)

    def path(self, result: ResultRecord) -> str:
        return e(self.paths.get(result.submission, result.submission))

    def cards(self) -> str:
        t = self.texts
        labels = t["cards"]
        passed = sum(1 for g in self.grades.values() if g is not None and g.passed)
        all_passed = sum(1 for r in self.latest_graded if r.score == r.max_score)
        values = [(len(self.learners), labels[0])]
        if self.grades:
            values.append((passed, labels[1]))
        values += [(all_passed, labels[2]), (len(self.not_started), labels[3]), (len(self.results), labels[4]),
                   (sum(1 for r in self.results if not r.graded), labels[5])]
        return '<div class="cards">' + "".join(f'<div class="card"><b>{n}</b>{e(label)}</div>'
                                               for n, label in values) + "</div>"

    def grades_section(self) -> str:
        grading = self.inputs.grading
        if grading is None:
            return ""
        t = self.texts
        rows = []
        for result in self.latest:
            grade = self.grades[result.submission]
            if grade is None:  # work that could not be graded has no grade, only its reason
                rows.append(f"<tr><td>{e(result.learner)}</td><td class=\"num\"></td>"
                            f'<td class="num">{self.badge("invalid")}</td><td><span class="why">'
                            f"{e(reason_text(result.message, self.inputs.language))}</span></td></tr>")
                continue
            notes = "; ".join(f"{c.checkpoint} {signed_points(c.points, t)}: {c.comment}" for c in grade.corrections)
            rows.append(f"<tr><td>{e(result.learner)}</td><td class=\"num\">{e(points_text(grade, t))}</td>"
                        f'<td class="num">{grade_text(grade, t)}</td><td><span class="why">{e(notes)}</span></td></tr>')
        points = ", ".join(f"{e(cid)} {worth}" for cid, worth in grading.points.items())
        return html_section(t["grades"], t["grades_intro"].format(points=points, pass_percent=grading.pass_percent),
                        html_table(t["grade_headers"], rows))

    def most_failed_section(self) -> str:
        t = self.texts
        rows = []
        counted = [r for r in self.latest_graded if r.submission not in self.not_started]
        for group in most_failed(counted):
            badges = " ".join(f"{self.badge(s)}&nbsp;{n}" for s, n in group.statuses.most_common())
            names = sorted(group.learners, key=str.casefold)
            shown = ", ".join(e(name) for name in names[:NAMES_SHOWN])
            if len(names) > NAMES_SHOWN:
                shown += ", " + e(t["and_more"].format(count=len(names) - NAMES_SHOWN))
            messages = "".join(f'<span class="why">{count}× {e(message)}</span>'
                               for message, count in group.messages.most_common(3))
            rows.append(
                f"<tr><td>{e(t['all_checkpoints'] if group.checkpoint == ALL_CHECKPOINTS else group.checkpoint)}</td>"
                f"<td>{e(group.test)}</td>"
                f'<td class="num">{len(group.learners)}<span class="why">{badges}</span>'
                f'<span class="why">{shown}</span></td><td>{messages}</td></tr>'
            )
        body = html_table(t["most_failed_headers"], rows) if rows else f"<p>{e(t['no_failures'])}</p>"
        return html_section(t["most_failed"], t["most_failed_intro"], body)

    def not_started_section(self) -> str:
        t = self.texts
        if not self.inputs.starter:
            return ""
        names = sorted((r.learner for r in self.latest if r.submission in self.not_started), key=str.casefold)
        body = f"<p>{', '.join(e(n) for n in names)}</p>" if names else f"<p>{e(t['none_not_started'])}</p>"
        return html_section(t["not_started"], t["not_started_intro"], body)

    def similar_section(self) -> str:
        t = self.texts
        by_path = {r.submission: r for r in self.latest}
        rows = []
        for pair in self.similar:
            first, second = by_path.get(pair.first), by_path.get(pair.second)
            if first is None or second is None:
                continue
            stretches = []
            for stretch in pair.stretches:
                label = t["lines_pair"].format(a1=stretch.first_lines[0], a2=stretch.first_lines[1],
                                               first=e(first.learner), b1=stretch.second_lines[0],
                                               b2=stretch.second_lines[1], second=e(second.learner))
                code = code_block(first.code or "", first_line=stretch.first_lines[0],
                                  last_line=stretch.first_lines[1])
                stretches.append(f"<details><summary>{label}</summary>{code}</details>")
            rows.append(f"<tr><td>{e(first.learner)}</td><td>{e(second.learner)}</td>"
                        f'<td class="num">{pair.share:.0%}</td><td>{"".join(stretches)}</td></tr>')
        body = html_table(t["similar_headers"], rows) if rows else f"<p>{e(t['no_similar'])}</p>"
        return html_section(t["similar"], t["similar_intro"], body)

    def corrections_section(self) -> str:
        grading = self.inputs.grading
        if grading is None:
            return ""
        t = self.texts
        rows = [f"<tr><td>{e(c.learner)}</td><td>{e(c.checkpoint)}</td><td class=\"num\">{e(signed_points(c.points, t))}</td>"
                f'<td>{e(c.comment)}</td><td class="num">{c.line}</td></tr>' for c in grading.corrections]
        body = html_table(t["corrections_headers"], rows) if rows else f"<p>{e(t['no_corrections'])}</p>"
        return html_section(t["corrections"], t["corrections_intro"], body)

    def checkpoint_cells(self, result: ResultRecord) -> str:
        """A learner's row: one cell per checkpoint, or one wide cell when nothing could be tested."""
        span = max(1, len(self.checkpoints))
        if not result.graded:
            reason = reason_text(result.message, self.inputs.language)
            return f'<td colspan="{span}">{self.badge("invalid")}<span class="why">{e(reason)}</span></td>'
        if result.submission in self.not_started:
            return f'<td colspan="{span}">{self.badge("not-started")}</td>'
        problem = load_problem(result)
        if problem is not None:
            return (f'<td colspan="{span}">{self.badge(problem.status)}'
                    f'<span class="why">{e(problem.name)}: {e(problem.message)}</span></td>')
        by_id = {c.id: c for c in result.checkpoints}
        cells = []
        for checkpoint in self.checkpoints:
            entry = by_id.get(checkpoint.id)
            if entry is None:
                cells.append("<td></td>")
                continue
            problem_text = first_problem(entry)
            disagreement = ""
            browser = result.browser_verdicts.get(checkpoint.id)
            if browser is not None and browser != entry.status:
                disagreement = f'<span class="why">{e(self.texts["browser_said"].format(verdict=browser))}</span>'
            cells.append(
                f"<td>{self.badge(entry.status)}"
                f'{f"<span class=why>{e(problem_text)}</span>" if problem_text else ""}{disagreement}</td>'
            )
        return "".join(cells)

    def learners_section(self) -> str:
        t = self.texts
        rows = []
        for result, count in self.learners:
            more = f'<span class="why">{e(t["submissions_count"].format(count=count))}</span>' if count > 1 else ""
            grade = grade_text(self.grades.get(result.submission), t)
            rows.append(
                f"<tr><td>{e(result.learner)}{more}</td>"
                f'<td class="path">{self.path(result)}</td>'
                f'<td class="num">{score_cell(result, t)}</td><td class="num">{grade}</td>'
                f"{self.checkpoint_cells(result)}</tr>"
            )
        headers = [*t["learner_headers"], *(e(c.id) for c in self.checkpoints)]
        return html_section(t["learners"], t["learners_intro"], html_table(headers, rows))

    def repeated_section(self) -> str:
        t = self.texts
        rows = []
        for latest_result, count in self.learners:
            if count < 2:
                continue
            same_learner = sorted((r for r in self.results if r.learner == latest_result.learner), key=submission_order)
            for result in same_learner:
                rows.append(
                    f"<tr><td>{e(result.learner)}</td>"
                    f'<td class="path">{self.path(result)}</td>'
                    f"<td>{e(result.created_at)}</td>"
                    f"<td>{score_cell(result, t)}</td>"
                    f"<td>{e(t['yes']) if result is latest_result else ''}</td></tr>"
                )
        if not rows:
            return html_section(t["repeated"], "", f"<p>{e(t['repeated_none'])}</p>")
        return html_section(t["repeated"], t["repeated_intro"], html_table(t["repeated_headers"], rows))

    def disagreements_section(self) -> str:
        t = self.texts
        rows = [
            f"<tr><td>{e(result.learner)}</td><td class=\"path\">{self.path(result)}</td>"
            f"<td>{e(checkpoint_id)}</td><td>{self.badge(browser)}</td><td>{self.badge(grader)}</td></tr>"
            for result, checkpoint_id, browser, grader in disagreements(self.results)
        ]
        if not rows:
            return html_section(t["disagree"], "", f"<p>{e(t['disagree_none'])}</p>")
        return html_section(t["disagree"], t["disagree_intro"], html_table(t["disagree_headers"], rows))

    def invalid_section(self) -> str:
        t = self.texts
        rows = [
            f'<tr><td class="path">{self.path(result)}</td>'
            f"<td>{e(result.learner)}</td><td>{e(reason_text(result.message, self.inputs.language))}</td></tr>"
            for result in self.results if not result.graded
        ]
        body = html_table(t["invalid_headers"], rows) if rows else f"<p>{e(t['invalid_none'])}</p>"
        return html_section(t["invalid"], "", body)

    def feedback_section(self) -> str:
        t = self.texts
        details = []
        for result in self.latest_graded:
            grade = self.grades.get(result.submission)
            grade_part = f" · {grade_text(grade, t)}" if grade is not None else ""
            status = f" · {self.badge('not-started')}" if result.submission in self.not_started else ""
            code = (code_block(result.code) if result.code is not None else f'<p class="meta">{e(t["no_code"])}</p>')
            details.append(
                f"<details><summary>{e(result.learner)}: {e(result.score)}/{e(result.max_score)}{grade_part}{status}"
                f"</summary>{failures_list(result, t)}<details><summary>{e(t['code'])}</summary>{code}</details>"
                "</details>"
            )
        return html_section(t["feedback"], t["feedback_intro"], "\n".join(details))


def report_sections(results: Sequence[ResultRecord], checkpoints: Sequence[CheckpointInfo],
                    inputs: ReportInputs) -> list[str]:
    """The sections of one lesson's report, from the cards to the feedback per learner."""
    report = _Report(results, checkpoints, inputs)
    t = report.texts
    return [
        protections_warning(results, t),
        report.cards(),
        html_section(t["pass_rate"], t["pass_rate_intro"].format(count=len(report.learners)),
                 pass_rate_chart(checkpoints, report.latest, t)),
        report.grades_section(),
        report.most_failed_section(),
        report.not_started_section(),
        report.similar_section(),
        report.corrections_section(),
        report.learners_section(),
        report.repeated_section(),
        report.disagreements_section(),
        report.invalid_section(),
        report.feedback_section(),
    ]


def render_report(
    results: Sequence[ResultRecord],
    lesson: str,
    checkpoints: Sequence[CheckpointInfo],
    runner_version: str,
    bundle_sha256: str,
    generated_at: str,
    inputs: ReportInputs = ReportInputs(),
) -> str:
    if inputs.language not in TEXTS:
        raise ValueError(f"unknown report language {inputs.language!r} (known: {', '.join(LANGUAGES)})")
    t = TEXTS[inputs.language]
    title = t["title"].format(lesson=e(lesson))
    return html_document(title, t, [f"<h1>{title}</h1>", generated_line(t, generated_at, runner_version, bundle_sha256),
                                *report_sections(results, checkpoints, inputs)])
