"""report.html: the page a teacher grades a batch with, in Dutch (English with `language="en"`).

Self-contained: inline CSS and SVG, no script, no external resource, so it opens from a USB stick
or an e-mail attachment. Every string that can come from a submission (learner names, paths,
code, exception messages inside test messages, reasons, the teacher's comments) goes through
`html.escape`; learner output and code are text, never HTML, and code is never run here.

What it holds: the grades (runner.offline.grading.grades), pass rates, the most common mistakes grouped
(one row per test with the learners who failed it), who did not begin (the starter untouched),
similar pairs (runner.offline.outputs.similarity), the teacher's corrections, and per learner every test
that did not pass and their code.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from os.path import commonpath, dirname, relpath

from runner.core.messages import LOAD_TEST_NAME, uses_failing
from runner.offline.grading.grades import LearnerGrade, LessonGrading, format_grade, format_points
from runner.offline.grading.records import CheckpointRecord, ResultRecord, TestRecord
from runner.offline.outputs.gradebook import latest_per_learner, submission_order, visible_text
from runner.offline.outputs.reasons import reason_text
from runner.offline.outputs.similarity import SimilarPair, not_started, similar_pairs

STATUS_LABELS = {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout"}
MOST_FAILED_LIMIT = 15
NAMES_SHOWN = 12  # learners named in one row of the mistakes table
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

# Every sentence the report says, per language. Dutch is the default: the teacher's own language
# and the learners' (their messages inside are Dutch either way).
TEXTS = {
    "nl": {
        "lang": "nl",
        "title": "Nakijkrapport: {lesson}",
        "generated": "Gemaakt {when} door runner {version}; testbundel <code>{bundle}</code>.",
        "cards": ("leerlingen", "voldoende", "alles gehaald", "niet begonnen", "inzendingen", "ongeldig"),
        "status": {"pass": "gehaald", "fail": "niet gehaald", "error": "fout", "timeout": "te traag",
                   "invalid": "ongeldig", "not-started": "niet begonnen"},
        "pass_rate": "Gehaald per checkpoint",
        "pass_rate_intro": "Aandeel van de {count} leerlingen van wie de laatste inzending het checkpoint haalt; "
                           "een laatste inzending die niet kon worden nagekeken telt als niet gehaald.",
        "bar_title": "{checkpoint}: {passed} van {total} leerlingen gehaald",
        "chart_label": "Gehaald per checkpoint",
        "grades": "Cijfers",
        "grades_intro": "Punten per checkpoint uit de les ({points}); cijfer 1 tot 10 met één decimaal, "
                        "5,5 bij {pass_percent}% van de punten, half naar boven afgerond, maar onder de "
                        "cesuur nooit een voldoende. "
                        "Correcties van de docent zijn meegeteld.",
        "grade_headers": ("Leerling", "Punten", "Cijfer", "Correcties"),
        "most_failed": "Meest gemaakte fouten",
        "most_failed_intro": "Over de laatste nagekeken inzending van elke leerling: de test die bepaalde dat een "
                             "checkpoint niet gehaald werd, één rij per test met de leerlingen erbij (code die niet "
                             "laadde telt één keer, voor alle checkpoints). Wie niet begon, staat hier niet.",
        "most_failed_headers": ("Checkpoint", "Test", "Leerlingen", "Meldingen"),
        "no_failures": "Geen enkele test faalde.",
        "and_more": "en nog {count}",
        "not_started": "Niet begonnen",
        "not_started_intro": "De inzending is (bijna) de startcode: niets gehaald en hoogstens een tiende eigen code.",
        "none_not_started": "Iedereen is begonnen.",
        "similar": "Inzendingen die sterk op elkaar lijken",
        "similar_intro": "Paren waarvan de eigen code (zonder de startcode en wat meer dan tien leerlingen of de "
                         "helft van de klas delen) na het gelijk maken van namen en opmaak bijna hetzelfde is. Dit is een reden om "
                         "te kijken, geen beschuldiging: korte opdrachten kun je maar op weinig manieren schrijven.",
        "similar_headers": ("Leerling", "Leerling", "Gedeeld", "Gedeelde regels"),
        "no_similar": "Geen paren gevonden.",
        "lines_pair": "regels {a1}-{a2} van {first} ≈ regels {b1}-{b2} van {second}",
        "shared_code": "gedeelde code van {learner}",
        "corrections": "Correcties van de docent",
        "corrections_intro": "Uit <code>corrections.csv</code> naast de uitvoer; elke nieuwe nakijkronde houdt ze.",
        "corrections_headers": ("Leerling", "Checkpoint", "Punten", "Toelichting", "Regel"),
        "no_corrections": "Geen correcties.",
        "learners": "Leerlingen",
        "learners_intro": "De laatste inzending van elke leerling. Een cel toont de status van het checkpoint en, als "
                          "het niet gehaald is, de eerste test die faalde.",
        "learner_headers": ("Leerling", "Inzending", "Score", "Cijfer"),
        "submissions_count": "{count} inzendingen",
        "browser_said": "browser zei {verdict}",
        "repeated": "Leerlingen met meer dan één inzending",
        "repeated_intro": "Naam en <code>created_at</code> van een export zijn wat de leerling zelf opgaf: kijk of "
                          "deze bestanden echt van één leerling zijn. De nieuwste telt.",
        "repeated_headers": ("Leerling", "Inzending", "Gemaakt", "Score", "Telt"),
        "repeated_none": "Geen: één inzending per leerling.",
        "yes": "ja",
        "disagree": "Browser en nakijker verschillen",
        "disagree_intro": "Elke inzending (ook eerdere) waarvan de export zegt dat de browser van de leerling een "
                          "ander oordeel gaf dan deze nakijker. Het oordeel van de nakijker telt; de browser draait "
                          "minder tests (geen offline-tests) en zijn oordeel is te vervalsen.",
        "disagree_headers": ("Leerling", "Inzending", "Checkpoint", "Browser", "Nakijker"),
        "disagree_none": "Geen: waar een export de oordelen van de browser meegaf, kloppen ze.",
        "invalid": "Ongeldige inzendingen",
        "invalid_headers": ("Inzending", "Leerling", "Reden"),
        "invalid_none": "Geen: elke inzending kon worden nagekeken.",
        "feedback": "Per leerling",
        "feedback_intro": "Elke test van de laatste nagekeken inzending die niet slaagde, met de melding die de "
                          "leerling zag; verwacht en gekregen alleen bij de uitgewerkte voorbeelden van de les. "
                          "Daaronder de code (alleen getoond, nooit uitgevoerd).",
        "all_passed": "Alle tests geslaagd.",
        "expected": "verwacht",
        "got": "gekregen",
        "code": "Code",
        "no_code": "De code is niet bewaard in deze resultaten (nagekeken met een oudere runner; --regrade "
                   "bewaart hem).",
        "warning": "De code van leerlingen draaide bij sommige inzendingen zonder {missing} (zie het "
                   "<code>sandbox</code>-record van elk resultaat). Zonder het eigen bestandssysteem kon ze de "
                   "verborgen tests en voorbeeldoplossingen lezen; zonder netwerkisolatie het netwerk gebruiken; "
                   "zonder cgroup-limieten samen meer geheugen dan --memory-mb. Meer hierover in docs/grading.md "
                   "(over de sandbox).",
        "protections": {"sandbox_user": "eigen sandbox-gebruiker", "private_filesystem": "eigen bestandssysteem",
                        "network_isolation": "netwerkisolatie", "cgroup_limits": "cgroup-limieten"},
        "all_checkpoints": "(alle)",
        "decimal_comma": True,
    },
    "en": {
        "lang": "en",
        "title": "Grading report: {lesson}",
        "generated": "Generated {when} by runner {version}; test bundle <code>{bundle}</code>.",
        "cards": ("learners", "passed", "learners passed every checkpoint", "not started", "submissions",
                  "invalid"),
        "status": {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout", "invalid": "invalid",
                   "not-started": "not started"},
        "pass_rate": "Pass rate per checkpoint",
        "pass_rate_intro": "Share of the {count} learners whose most recent submission passes each checkpoint; a "
                           "most recent submission that could not be graded counts as not passed.",
        "bar_title": "{checkpoint}: {passed} of {total} learners passed",
        "chart_label": "Pass rate per checkpoint",
        "grades": "Grades",
        "grades_intro": "Points per checkpoint from the lesson ({points}); grade 1 to 10 with one decimal, 5.5 at "
                        "{pass_percent}% of the points, rounded half up, but never a pass below the pass mark "
                        "(docs/grading.md, \"Points and grades\"). The teacher's corrections are included.",
        "grade_headers": ("Learner", "Points", "Grade", "Corrections"),
        "most_failed": "Most-failed tests",
        "most_failed_intro": "Over the learners' most recent graded submissions: the test that decided each "
                             "checkpoint that did not pass, one row per test with its learners (code that did not "
                             "load counts once, for all checkpoints). Learners who did not start are not counted.",
        "most_failed_headers": ("Checkpoint", "Test", "Learners", "Messages"),
        "no_failures": "No test failed.",
        "and_more": "and {count} more",
        "not_started": "Not started",
        "not_started_intro": "The submission is (nearly) the starter: nothing passed, at most a tenth own code.",
        "none_not_started": "Everyone started.",
        "similar": "Near-identical submissions",
        "similar_intro": "Pairs whose own code (without the starter and what more than ten learners or half the class share) is "
                         "nearly the same once names and layout are made equal. A prompt to look, never an "
                         "accusation: short tasks can be written in few ways.",
        "similar_headers": ("Learner", "Learner", "Shared", "Shared lines"),
        "no_similar": "No pairs found.",
        "lines_pair": "lines {a1}-{a2} of {first} ≈ lines {b1}-{b2} of {second}",
        "shared_code": "shared code of {learner}",
        "corrections": "The teacher's corrections",
        "corrections_intro": "From <code>corrections.csv</code> beside the outputs; every regrade keeps them.",
        "corrections_headers": ("Learner", "Checkpoint", "Points", "Comment", "Line"),
        "no_corrections": "No corrections.",
        "learners": "Learners",
        "learners_intro": "The most recent submission of each learner. A cell shows the checkpoint's status and, "
                          "when it did not pass, the first test that did not.",
        "learner_headers": ("Learner", "Submission", "Score", "Grade"),
        "submissions_count": "{count} submissions",
        "browser_said": "browser said {verdict}",
        "repeated": "Learners with more than one submission",
        "repeated_intro": "The learner name and <code>created_at</code> of an export are the learner's own claims: "
                          "check that these files really are one learner's. The newest counts.",
        "repeated_headers": ("Learner", "Submission", "Created", "Score", "Counts"),
        "repeated_none": "None: one submission per learner.",
        "yes": "yes",
        "disagree": "Browser and grader disagree",
        "disagree_intro": "Every submission (earlier ones included) whose export says the learner's browser showed "
                          "another verdict than this grader reached. The grader's verdict counts; the browser runs "
                          "fewer tests (no offline-only ones) and its verdict can be faked.",
        "disagree_headers": ("Learner", "Submission", "Checkpoint", "Browser", "Grader"),
        "disagree_none": "None: wherever an export carried the browser's verdicts, they match.",
        "invalid": "Invalid submissions",
        "invalid_headers": ("Submission", "Learner", "Reason"),
        "invalid_none": "None: every submission could be graded.",
        "feedback": "Feedback per learner",
        "feedback_intro": "Every test of the most recent graded submission that did not pass, with its message (the "
                          "learner saw the same Dutch text); expected and got only for the lesson's own worked "
                          "examples. Below it the code (shown, never run).",
        "all_passed": "Every test passed.",
        "expected": "expected",
        "got": "got",
        "code": "Code",
        "no_code": "The code is not kept in these results (graded by an older runner; --regrade keeps it).",
        "warning": "Learner code ran without {missing} for some submissions (see the <code>sandbox</code> record "
                   "of each result). Without the private filesystem it could read the hidden tests and reference "
                   "solutions; without network isolation, use the network; without cgroup limits, use more "
                   "memory together than --memory-mb. See docs/grading.md, \"The sandbox\".",
        "all_checkpoints": "(all)",
        "decimal_comma": False,
    },
}
LANGUAGES = tuple(TEXTS)


def e(value: object) -> str:
    """Escape for HTML text and attribute values alike; hidden and reordering characters (a bidi
    override in a learner's name) become visible escapes, so text reads as it is stored."""
    return html.escape(visible_text("" if value is None else str(value)), quote=True)


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
    extra_css: str = field(default="", repr=False)


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


def _pass_rate_chart(checkpoints: Sequence[CheckpointInfo], latest: Sequence[ResultRecord], texts: dict) -> str:
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


def load_problem(result: ResultRecord) -> TestRecord | None:
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
    problem = load_problem(result)
    if problem is not None:
        return [(ALL_CHECKPOINTS, problem)]
    found = []
    for checkpoint in result.checkpoints:
        test = checkpoint.first_failure
        if test is not None:
            found.append((checkpoint.id, test))
    return found


@dataclass
class MistakeGroup:
    checkpoint: str
    test: str
    learners: list[str] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    messages: Counter = field(default_factory=Counter)


def most_failed(latest_graded: Sequence[ResultRecord]) -> list[MistakeGroup]:
    """The most-failed tests over the learners' most recent submissions, each once with its
    learners and its messages by frequency. Only the test that decided a checkpoint's status
    counts: the rest of a checkpoint after a time-out or a load problem says nothing."""
    groups: dict[tuple[str, str], MistakeGroup] = {}
    for result in latest_graded:
        for checkpoint_id, test in _first_failures(result):
            group = groups.setdefault((checkpoint_id, test.name), MistakeGroup(checkpoint_id, test.name))
            group.learners.append(result.learner)
            group.statuses[test.status] += 1
            group.messages[test.message] += 1
    ordered = sorted(groups.values(), key=lambda g: (-len(g.learners), g.checkpoint, g.test))
    return ordered[:MOST_FAILED_LIMIT]


def missing_protections(results: Sequence[ResultRecord]) -> list[str]:
    """The sandbox protections that did not hold for at least one graded submission, sorted."""
    return sorted({name for result in results if result.sandbox is not None for name in result.sandbox.missing()})


def _protections_warning(results: Sequence[ResultRecord], texts: dict) -> str:
    missing = missing_protections(results)
    if not missing:
        return ""
    names = texts.get("protections", {})
    shown = ", ".join(names.get(name, name) for name in missing)
    return f'<p class="warning">{texts["warning"].format(missing=e(shown))}</p>'


def _score_cell(result: ResultRecord, texts: dict) -> str:
    if not result.graded:
        return status_badge("invalid", texts)
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


def grade_text(grade: LearnerGrade | None, texts: dict) -> str:
    if grade is None:
        return ""
    css = "grade" if grade.passed else "grade fails-grade"
    return f'<span class="{css}">{e(format_grade(grade.grade, texts["decimal_comma"]))}</span>'


def points_text(grade: LearnerGrade, texts: dict) -> str:
    return f"{format_points(grade.points, texts['decimal_comma'])}/{grade.max_points}"


class _Report:
    def __init__(self, results: Sequence[ResultRecord], checkpoints: Sequence[CheckpointInfo],
                 inputs: ReportInputs) -> None:
        if inputs.language not in TEXTS:
            raise ValueError(f"unknown report language {inputs.language!r} (known: {', '.join(LANGUAGES)})")
        self.texts = TEXTS[inputs.language]
        self.results = results
        self.checkpoints = checkpoints
        self.inputs = inputs
        self.paths = _display_paths(results)
        self.learners = latest_per_learner(results)
        self.latest = [result for result, _count in self.learners]
        self.grades = ({r.submission: inputs.grading.grade(r) for r in self.latest}
                       if inputs.grading is not None else {})
        starter = inputs.starter
        self.not_started = {r.submission for r in self.latest
                            if starter and r.graded and r.code is not None and r.score == 0
                            and not_started(r.code, starter)}
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
            notes = "; ".join(f"{c.checkpoint} {_signed(c.points, t)}: {c.comment}" for c in grade.corrections)
            rows.append(f"<tr><td>{e(result.learner)}</td><td class=\"num\">{e(points_text(grade, t))}</td>"
                        f'<td class="num">{grade_text(grade, t)}</td><td><span class="why">{e(notes)}</span></td></tr>')
        points = ", ".join(f"{e(cid)} {worth}" for cid, worth in grading.points.items())
        return _section(t["grades"], t["grades_intro"].format(points=points, pass_percent=grading.pass_percent),
                        _table(t["grade_headers"], rows))

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
        body = _table(t["most_failed_headers"], rows) if rows else f"<p>{e(t['no_failures'])}</p>"
        return _section(t["most_failed"], t["most_failed_intro"], body)

    def not_started_section(self) -> str:
        t = self.texts
        if not self.inputs.starter:
            return ""
        names = sorted((r.learner for r in self.latest if r.submission in self.not_started), key=str.casefold)
        body = f"<p>{', '.join(e(n) for n in names)}</p>" if names else f"<p>{e(t['none_not_started'])}</p>"
        return _section(t["not_started"], t["not_started_intro"], body)

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
        body = _table(t["similar_headers"], rows) if rows else f"<p>{e(t['no_similar'])}</p>"
        return _section(t["similar"], t["similar_intro"], body)

    def corrections_section(self) -> str:
        grading = self.inputs.grading
        if grading is None:
            return ""
        t = self.texts
        rows = [f"<tr><td>{e(c.learner)}</td><td>{e(c.checkpoint)}</td><td class=\"num\">{e(_signed(c.points, t))}</td>"
                f'<td>{e(c.comment)}</td><td class="num">{c.line}</td></tr>' for c in grading.corrections]
        body = _table(t["corrections_headers"], rows) if rows else f"<p>{e(t['no_corrections'])}</p>"
        return _section(t["corrections"], t["corrections_intro"], body)

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
            problem_text = _first_problem(entry)
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
                f'<td class="num">{_score_cell(result, t)}</td><td class="num">{grade}</td>'
                f"{self.checkpoint_cells(result)}</tr>"
            )
        headers = [*t["learner_headers"], *(e(c.id) for c in self.checkpoints)]
        return _section(t["learners"], t["learners_intro"], _table(headers, rows))

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
                    f"<td>{_score_cell(result, t)}</td>"
                    f"<td>{e(t['yes']) if result is latest_result else ''}</td></tr>"
                )
        if not rows:
            return _section(t["repeated"], "", f"<p>{e(t['repeated_none'])}</p>")
        return _section(t["repeated"], t["repeated_intro"], _table(t["repeated_headers"], rows))

    def disagreements_section(self) -> str:
        t = self.texts
        rows = [
            f"<tr><td>{e(result.learner)}</td><td class=\"path\">{self.path(result)}</td>"
            f"<td>{e(checkpoint_id)}</td><td>{self.badge(browser)}</td><td>{self.badge(grader)}</td></tr>"
            for result, checkpoint_id, browser, grader in _disagreements(self.results)
        ]
        if not rows:
            return _section(t["disagree"], "", f"<p>{e(t['disagree_none'])}</p>")
        return _section(t["disagree"], t["disagree_intro"], _table(t["disagree_headers"], rows))

    def invalid_section(self) -> str:
        t = self.texts
        rows = [
            f'<tr><td class="path">{self.path(result)}</td>'
            f"<td>{e(result.learner)}</td><td>{e(reason_text(result.message, self.inputs.language))}</td></tr>"
            for result in self.results if not result.graded
        ]
        body = _table(t["invalid_headers"], rows) if rows else f"<p>{e(t['invalid_none'])}</p>"
        return _section(t["invalid"], "", body)

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
        return _section(t["feedback"], t["feedback_intro"], "\n".join(details))


def _signed(points, texts: dict) -> str:
    text = format_points(abs(points), texts["decimal_comma"])
    return f"-{text}" if points < 0 else f"+{text}"


def _document(title: str, texts: dict, body: Sequence[str]) -> str:
    head = [
        "<!DOCTYPE html>",
        f'<html lang="{texts["lang"]}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        f"<style>{CSS}</style></head><body>",
    ]
    return "\n".join([*head, *(part for part in body if part), "</body></html>\n"])


def report_sections(results: Sequence[ResultRecord], checkpoints: Sequence[CheckpointInfo],
                    inputs: ReportInputs) -> list[str]:
    """The sections of one lesson's report, from the cards to the feedback per learner."""
    report = _Report(results, checkpoints, inputs)
    t = report.texts
    return [
        _protections_warning(results, t),
        report.cards(),
        _section(t["pass_rate"], t["pass_rate_intro"].format(count=len(report.learners)),
                 _pass_rate_chart(checkpoints, report.latest, t)),
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


def _generated(texts: dict, generated_at: str, runner_version: str, bundle_sha256: str) -> str:
    line = texts["generated"].format(when=e(_local_time(generated_at)), version=e(runner_version),
                                     bundle=e(bundle_sha256[:16]))
    return f'<p class="meta">{line}</p>'


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
    return _document(title, t, [f"<h1>{title}</h1>", _generated(t, generated_at, runner_version, bundle_sha256),
                                *report_sections(results, checkpoints, inputs)])


@dataclass(frozen=True)
class LessonPart:
    """One lesson of a module report: its results and what its report needs."""

    lesson: str
    results: Sequence[ResultRecord]
    checkpoints: Sequence[CheckpointInfo]
    bundle_sha256: str
    inputs: ReportInputs


MODULE_TEXTS = {
    "nl": {"title": "Nakijkrapport: {lessons}", "overview": "Cijfers per les",
           "overview_intro": "Het cijfer van de laatste inzending per les en leerling; per module het cijfer over "
                             "alle punten van de lessen die meetellen samen. Leeg: niets ingeleverd voor die les; "
                             "niets wat kon worden nagekeken telt als 0 punten.",
           "learner": "Leerling", "total": "Totaal {module}", "points": "Punten {module}", "lesson": "Les {lesson}",
           "counted": "Welke lessen meetellen",
           "counted_teacher": "Module {module}: {lessons}, zoals opgegeven met <code>--lessons</code>.",
           "counted_published": "Module {module}: {lessons}: de gepubliceerde lessen van deze module (volgens de "
                                "lesbestanden). Een les die niemand inleverde telt mee met 0 punten; geef "
                                "<code>--lessons</code> om zelf te kiezen welke lessen tellen.",
           "counted_checkpoints": "Module {module}: {lessons}: de lessen van deze module in de checkpoints-map (er zijn "
                                  "geen lesbestanden). Een les die niemand inleverde telt mee met 0 punten; geef "
                                  "<code>--lessons</code> om zelf te kiezen welke lessen tellen.",
           "pass_mark": "Een 5,5 bij {pass_percent}% van de {max_points} punten.",
           "stray": "Nagekeken maar niet meegeteld: {lessons}. Inzendingen noemen deze lessen, maar ze horen niet bij "
                    "de lessen die meetellen; ze staan hieronder met een eigen cijfer en tellen in geen enkel totaal.",
           "unplaced": "Inzendingen zonder bekende les", "unplaced_headers": ("Inzending", "Leerling", "Reden")},
    "en": {"title": "Grading report: {lessons}", "overview": "Grades per lesson",
           "overview_intro": "The grade of the most recent submission per lesson and learner; per module the grade "
                             "over all points of the lessons that count. Empty: nothing handed in for that lesson; "
                             "nothing gradable counts as 0 points.",
           "learner": "Learner", "total": "Total {module}", "points": "Points {module}", "lesson": "Lesson {lesson}",
           "counted": "Which lessons count",
           "counted_teacher": "Module {module}: {lessons}, as given with <code>--lessons</code>.",
           "counted_published": "Module {module}: {lessons}: the published lessons of this module (by the lesson "
                                "files). A lesson nobody handed in counts as 0 points; give <code>--lessons</code> to "
                                "choose which lessons count.",
           "counted_checkpoints": "Module {module}: {lessons}: this module's lessons in the checkpoints tree (there are "
                                  "no lesson files). A lesson nobody handed in counts as 0 points; give "
                                  "<code>--lessons</code> to choose which lessons count.",
           "pass_mark": "A 5.5 at {pass_percent}% of the {max_points} points.",
           "stray": "Graded but not counted: {lessons}. Submissions name these lessons, but they are not among the "
                    "lessons that count; they have their own grade below and are in no total.",
           "unplaced": "Submissions without a known lesson", "unplaced_headers": ("Submission", "Learner", "Reason")},
}


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
            _section(m["counted"], "", f'<ul class="feedback">{"".join(counted)}</ul>'),
            _section(m["overview"], m["overview_intro"], _table(headers, rows))]
    if unplaced:
        paths = _display_paths(unplaced)
        body.append(_section(m["unplaced"], "", _table(m["unplaced_headers"], [
            f'<tr><td class="path">{e(paths.get(r.submission, r.submission))}</td><td>{e(r.learner)}</td>'
            f"<td>{e(reason_text(r.message, language))}</td></tr>" for r in unplaced])))
    for part in parts:
        body.append(f'<h2 class="lesson">{e(m["lesson"].format(lesson=part.lesson))}</h2>')
        body.append(_generated(t, generated_at, runner_version, part.bundle_sha256))
        # The lesson's own sections one level down; their headings are ours (learner text is escaped).
        sections = report_sections(part.results, part.checkpoints, part.inputs)
        body.extend(section.replace("<h2>", "<h3>").replace("</h2>", "</h3>") for section in sections if section)
    return _document(title, t, body)
