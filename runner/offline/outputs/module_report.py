"""report.html of a module run: which lessons count and why, the grades per lesson and each
module's total, then each lesson's report (runner.offline.outputs.report) one level down."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from runner.offline.grading.grades import LearnerGrade
from runner.offline.grading.records import ResultRecord
from runner.offline.outputs.findings import display_paths
from runner.offline.outputs.html_kit import (
    e,
    generated_line,
    grade_text,
    html_document,
    html_section,
    html_table,
    points_text,
)
from runner.offline.outputs.reasons import reason_text
from runner.offline.outputs.report import CheckpointInfo, ReportInputs, report_sections
from runner.offline.outputs.texts import MODULE_TEXTS, TEXTS


@dataclass(frozen=True)
class LessonPart:
    """One lesson of a module report: its results and what its report needs."""

    lesson: str
    results: Sequence[ResultRecord]
    checkpoints: Sequence[CheckpointInfo]
    bundle_sha256: str
    inputs: ReportInputs


def render_module_report(parts: Sequence[LessonPart], unplaced: Sequence[ResultRecord], modules: Sequence,
                         strays: Sequence[str], grades: dict[str, dict[str, LearnerGrade | None]],
                         learners: Sequence[str], runner_version: str, generated_at: str, language: str = "nl") -> str:
    """One page for several lessons: which lessons count and why, the grades per lesson and each
    module's total, then each lesson's report. `modules`: runner.offline.outputs.ModuleTotal."""
    t, m = TEXTS[language], MODULE_TEXTS[language]
    title = m["title"].format(lessons=e(", ".join(part.lesson for part in parts)))
    columns = [lesson for module in modules for lesson in module.counted.lessons]
    columns += [lesson for lesson in strays if lesson not in columns]
    rows = []
    for learner in learners:
        cells = "".join(f'<td class="num">{grade_text(grades.get(lesson, {}).get(learner), t)}</td>'
                        for lesson in columns)
        for module in modules:
            total = module.totals.get(learner)
            cells += (f'<td class="num">{e(points_text(total, t)) if total is not None else ""}</td>'
                      f'<td class="num">{grade_text(total, t)}</td>')
        rows.append(f"<tr><td>{e(learner)}</td>{cells}</tr>")
    headers = [m["learner"], *(e(lesson) for lesson in columns)]
    for module in modules:
        headers += [e(m["points"].format(module=module.counted.module)), e(m["total"].format(module=module.counted.module))]
    counted = []
    for module in modules:
        line = m[f"counted_{module.counted.reason}"].format(module=e(module.counted.module),
                                                           lessons=e(", ".join(module.counted.lessons)))
        mark = m["pass_mark"].format(pass_percent=module.pass_percent, max_points=module.max_points)
        counted.append(f"<li>{line} {e(mark)}</li>")
    if strays:
        counted.append(f"<li>{m['stray'].format(lessons=e(', '.join(strays)))}</li>")
    body = [f"<h1>{title}</h1>",
            html_section(m["counted"], "", f'<ul class="feedback">{"".join(counted)}</ul>'),
            html_section(m["overview"], m["overview_intro"], html_table(headers, rows))]
    if unplaced:
        paths = display_paths(unplaced)
        body.append(html_section(m["unplaced"], "", html_table(m["unplaced_headers"], [
            f'<tr><td class="path">{e(paths.get(r.submission, r.submission))}</td><td>{e(r.learner)}</td>'
            f"<td>{e(reason_text(r.message, language))}</td></tr>" for r in unplaced])))
    for part in parts:
        body.append(f'<h2 class="lesson">{e(m["lesson"].format(lesson=part.lesson))}</h2>')
        body.append(generated_line(t, generated_at, runner_version, part.bundle_sha256))
        # The lesson's own sections one level down; their headings are ours (learner text is escaped).
        sections = report_sections(part.results, part.checkpoints, part.inputs)
        body.extend(section.replace("<h2>", "<h3>").replace("</h2>", "</h3>") for section in sections if section)
    return html_document(title, t, body)
