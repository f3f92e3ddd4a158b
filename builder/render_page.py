"""Render stage: lessons -> HTML strings, through the Jinja2 templates in site/templates/."""

from __future__ import annotations

import datetime
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup

from builder.errors import BuildError
from builder.lesson_markdown import create_markdown, render_inline
from builder.lesson_progress import progress_facts
from builder.lesson_sequence import neighbours_in_module
from builder.model import Checkpoint, Lesson, PlannedLesson
from builder.plugins.examples import render_example
from runner.offline.gates.gate_report import VerifiedBundle

DUTCH_MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
                "september", "oktober", "november", "december"]


@dataclass
class Page:
    path: str  # relative to the site root, e.g. "woorden-01/index.html"
    html: str


@dataclass
class Site:
    """What every page may refer to: the lessons that exist, the templates and the build's parser."""

    lessons: list[Lesson]
    templates: jinja2.Environment
    # The build's one parser (create_page_markdown); made for `templates` when none is given.
    markdown: InitVar[MarkdownIt | None] = None
    # Lessons left out of this build (`build.py --only`) that exist: links to them are kept.
    other_lesson_ids: set[str] = field(default_factory=set)
    planned: list[PlannedLesson] = field(default_factory=list)  # lessons/planned.yaml: "Binnenkort"
    # The verify stage's shipped tests per lesson id (a lesson left out is loaded when rendered).
    verified: dict[str, VerifiedBundle] = field(default_factory=dict)
    md: MarkdownIt = field(init=False)
    lesson_ids: set[str] = field(init=False)  # the lessons a page may link to

    def __post_init__(self, markdown: MarkdownIt | None) -> None:
        self.md = create_page_markdown(self.templates) if markdown is None else markdown
        self.lesson_ids = {lesson.id for lesson in self.lessons} | self.other_lesson_ids


@dataclass(frozen=True)
class CheckpointView:
    id: str
    number: str  # "01"
    title: str
    task_html: Markup
    hint_html: Markup
    check_seconds: int  # data-time-limit of its card


def create_templates(templates_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt variable fails the build, not the page
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def create_page_markdown(templates: jinja2.Environment) -> MarkdownIt:
    """The lesson parser that also renders; widgets render through their own templates."""
    return create_markdown()


def dutch_date(day: datetime.date) -> str:
    return f"{day.day} {DUTCH_MONTHS[day.month - 1]} {day.year}"


def module_anchor(module_id: str) -> str:
    return f"module-{module_id}"


def render_page(lesson: Lesson, site: Site) -> Page:
    md = site.md

    def inline(text: str) -> Markup:
        return Markup(render_inline(md, text))

    def lesson_url(lesson_id: str | None) -> str | None:
        return f"../{lesson_id}/" if lesson_id in site.lesson_ids else None

    neighbours = neighbours_in_module(site.lessons, lesson)
    # A next-step card that names the module's next lesson is that lesson's link: the pager then
    # leaves its own "Volgende les" out, so the page does not offer the same lesson twice.
    next_step_is_next_lesson = bool(lesson.next_step and neighbours.next
                                    and lesson.next_step.lesson_id == neighbours.next.id)
    context: dict[str, Any] = {
        "root": "../",
        "lesson": lesson,
        "previous_lesson": neighbours.previous,
        "next_lesson": None if next_step_is_next_lesson else neighbours.next,
        "next_step_is_next_lesson": next_step_is_next_lesson,
        "lesson_label": f"MODULE {lesson.module.number:02d} · LES {lesson.number:02d}",
        "module_url": f"../#{module_anchor(lesson.module.id)}",
        "goals_html": [inline(goal) for goal in lesson.goals],
        "takeaways_html": [inline(takeaway) for takeaway in lesson.takeaways],
        "body_html": Markup(md.renderer.render(lesson.body_tokens, md.options, {})),
        "reviewed_text": dutch_date(lesson.reviewed),
        "lesson_url": lesson_url,
        "checkpoints": [checkpoint_view(md, checkpoint) for checkpoint in lesson.checkpoints],
        "settings": lesson.settings,
        "limits_text": limits_text(lesson),
        "starter_code": lesson.starter_code,
        "solution_html": (Markup(render_example(lesson.solution_code, label="Voorbeeldoplossing"))
                          if lesson.solution_code and lesson.show_solution else None),
    }
    return Page(f"{lesson.id}/index.html", render_template(site.templates, "lesson.html", context))


def seconds_text(seconds: int) -> str:
    return f"{seconds} {'seconde' if seconds == 1 else 'seconden'}"  # as editor.js secondsText says it


def limits_text(lesson: Lesson) -> str:
    """The limits that apply, for the checkpoint panel's intro (Dutch; from the lesson's settings)."""
    settings = lesson.settings
    own = [f"checkpoint {checkpoint.number:02d}: {seconds_text(checkpoint.check_seconds)}"
           for checkpoint in lesson.checkpoints if checkpoint.check_seconds != settings.check_seconds]
    exceptions = f" ({'; '.join(own)})" if own else ""
    return (f"De tests van één checkpoint mogen samen {seconds_text(settings.check_seconds)} rekenen{exceptions}; "
            f"Uitvoeren stopt je programma na {seconds_text(settings.run_seconds)}. "
            "Je docent controleert je inzending met dezelfde tests plus een paar extra, met dezelfde limiet per "
            f"checkpoint en hoogstens {seconds_text(settings.offline_call_seconds)} per aanroep van een functie, "
            "tenzij je docent andere limieten kiest.")


def checkpoint_view(md: MarkdownIt, checkpoint: Checkpoint) -> CheckpointView:
    return CheckpointView(
        id=checkpoint.id,
        number=f"{checkpoint.number:02d}",
        title=checkpoint.title,
        task_html=Markup(render_inline(md, checkpoint.task)),
        hint_html=Markup(render_inline(md, checkpoint.hint)),
        check_seconds=checkpoint.check_seconds,
    )


def render_index(site: Site) -> Page:
    modules: dict[str, dict[str, Any]] = {}
    for lesson in site.lessons:  # already sorted by module and lesson number
        entry = modules.setdefault(lesson.module.id, {
            "module": lesson.module, "anchor": module_anchor(lesson.module.id), "lessons": [],
        })
        entry["lessons"].append(lesson)
    context = {
        "root": "",
        "modules": list(modules.values()),
        "progress": {lesson.id: progress_facts(lesson, site.verified.get(lesson.id)) for lesson in site.lessons},
        "coming_soon": [planned for planned in site.planned if planned.id not in site.lesson_ids],
    }
    return Page("index.html", render_template(site.templates, "index.html", context))


def render_template(templates: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    try:
        return templates.get_template(name).render(context)
    except jinja2.TemplateError as error:
        raise template_error(error, name) from None


def template_error(error: jinja2.TemplateError, name: str) -> BuildError:
    where = getattr(error, "name", None) or name
    line = getattr(error, "lineno", None)
    return BuildError(f"site/templates/{where}", line, f"template error: {error.message or error}")
