"""The whole build: pass 1 (load and validate every lesson), then pass 2 (render and write)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.errors import BuildError, BuildWarning, raise_if_any
from builder.links import find_dangling_links
from builder.load_lessons import load_lessons
from builder.model import Lesson
from builder.paths import CODE_ROOT
from builder.render_page import Site, create_page_markdown, create_templates, render_index, render_page
from builder.verify_checkpoints import PassedGates
from builder.write_site import default_steps, write_site

TEMPLATES_DIR = CODE_ROOT / "site" / "templates"


@dataclass
class BuildReport:
    lessons: list[Lesson]
    warnings: list[BuildWarning]


def build_site(content_root: Path, out_dir: Path, strict: bool = False,
               passed_gates: PassedGates | None = None) -> BuildReport:
    """Build `content_root`'s lessons/ and checkpoints/ into `out_dir`.

    Raises BuildError for an authoring mistake, BuildErrors for several; under `strict` warnings
    are mistakes too.
    `passed_gates` (the dev server's) skips the quality gate of lessons that passed it unchanged.
    """
    lessons_dir = content_root / "lessons"
    if not lessons_dir.is_dir():
        raise BuildError(str(lessons_dir), None, "no lessons directory here")
    templates = create_templates(TEMPLATES_DIR)
    markdown = create_page_markdown(templates)  # one parser for every lesson, in both passes
    lessons = load_lessons(lessons_dir, content_root / "checkpoints", root=content_root,
                           markdown=markdown, passed_gates=passed_gates)
    warnings = [*(warning for lesson in lessons for warning in lesson.warnings), *find_dangling_links(lessons)]
    if strict:
        raise_if_any([warning.as_error() for warning in warnings])

    site = Site(lessons, templates, markdown)
    pages = [render_index(site), *(render_page(lesson, site) for lesson in lessons)]
    write_site(pages, out_dir, default_steps(lessons))
    return BuildReport(lessons, warnings)
