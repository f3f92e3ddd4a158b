"""The whole build, in four stages called in this order:

1. load   (builder/load_lessons.py): read, parse and validate every lesson, and the planned ones;
2. verify (builder/verify_lessons.py): run the examples and the quality gate of each lesson;
   what the gate verified of each lesson's shipped tests is carried on to stages 3 and 4;
3. render (builder/render_page.py): lessons -> HTML pages;
4. write  (builder/write_site.py): pages, assets and checkpoint archives into the output.

Nothing is written before stages 1 and 2 (and, under --strict, the warnings) found no mistake;
their mistakes are reported together.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.errors import BuildError, BuildWarning, raise_if_any
from builder.links import find_dangling_links
from builder.load_lessons import LoadedLessons, load_content
from builder.model import Lesson
from builder.paths import CODE_ROOT
from builder.planned_lessons import find_written_planned
from builder.render_page import Page, Site, create_page_markdown, create_templates, render_index, render_page
from builder.verify_checkpoints import PassedGates
from builder.verify_lessons import verify_site
from builder.write_site import default_steps, write_site

TEMPLATES_DIR = CODE_ROOT / "site" / "templates"


@dataclass
class BuildReport:
    lessons: list[Lesson]
    warnings: list[BuildWarning]


def build_site(content_root: Path, out_dir: Path, strict: bool = False,
               passed_gates: PassedGates | None = None, only: str | None = None) -> BuildReport:
    """Build `content_root`'s lessons/ and checkpoints/ into `out_dir`.

    Raises BuildError for an authoring mistake, BuildErrors for several; under `strict` warnings
    are mistakes too.
    `passed_gates` (the dev server's) skips the quality gate of lessons that passed it unchanged.
    `only` (a lesson id) builds a site of that lesson alone: only it is loaded, verified and
    rendered, and links to the other lessons are kept.
    """
    lessons_dir = content_root / "lessons"
    if not lessons_dir.is_dir():
        raise BuildError(str(lessons_dir), None, "no lessons directory here")
    templates = create_templates(TEMPLATES_DIR)
    markdown = create_page_markdown(templates)  # one parser for every lesson, in every stage
    loaded = load_content(lessons_dir, content_root / "checkpoints", root=content_root,
                          markdown=markdown, only=only)
    verified = verify_site(loaded.lessons, passed_gates)
    raise_if_any([*loaded.errors, *verified.errors])
    warnings = collect_warnings(loaded)
    if strict:
        raise_if_any([warning.as_error() for warning in warnings])

    site = Site(loaded.lessons, templates, markdown, other_lesson_ids=set(loaded.other_lessons),
                planned=loaded.planned, verified=verified.bundles)
    write_site(render_pages(site), out_dir, default_steps(loaded.lessons, verified.bundles))
    return BuildReport(loaded.lessons, warnings)


def collect_warnings(loaded: LoadedLessons) -> list[BuildWarning]:
    existing = {**loaded.other_lessons, **{lesson.id: lesson.path for lesson in loaded.lessons}}
    return [
        *(warning for lesson in loaded.lessons for warning in lesson.warnings),
        *find_dangling_links(loaded.lessons, loaded.planned, loaded.other_lessons),
        *find_written_planned(loaded.planned, existing),
    ]


def render_pages(site: Site) -> list[Page]:
    """The render stage: the index and one page per lesson."""
    return [render_index(site), *(render_page(lesson, site) for lesson in site.lessons)]
