"""Golden file of the rendered rag-01 page: a change in the builder's output must be deliberate.

The page is rendered from our own templates only: the editor partial belongs to another part and
has its own tests, so it is left out here. The lesson's widgets are part of the lesson: their
markup (widgets/<name>/template.html) is in. Lines are compared stripped and
without blank lines, so indentation-only template edits do not count.

Regenerate after an intended change:  WERKPLAATS_UPDATE_GOLDEN=1 python -m pytest tests/builder/test_golden_page.py
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from builder.build_site import TEMPLATES_DIR
from builder.load_lessons import load_lessons
from builder.render_page import Site, create_templates, render_page

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "rag-01.html"
UPDATE_VARIABLE = "WERKPLAATS_UPDATE_GOLDEN"


class WithoutPartials(jinja2.FileSystemLoader):
    def get_source(self, environment, template):
        if template.startswith("partials/"):
            raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


def normalise(html: str) -> str:
    return "".join(line.strip() + "\n" for line in html.splitlines() if line.strip())


def render_rag_01() -> str:
    lessons = load_lessons(ROOT / "lessons", ROOT / "checkpoints", root=ROOT)
    templates = create_templates(TEMPLATES_DIR)
    templates.loader = WithoutPartials(TEMPLATES_DIR)
    site = Site(lessons, templates)
    lesson = next(lesson for lesson in lessons if lesson.id == "rag-01")
    return normalise(render_page(lesson, site).html)


def test_rag_01_page_matches_the_golden_file():
    rendered = render_rag_01()
    if os.environ.get(UPDATE_VARIABLE):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert GOLDEN.exists(), f"no golden file yet: run with {UPDATE_VARIABLE}=1"
    expected = GOLDEN.read_text(encoding="utf-8")
    assert rendered == expected, f"the rendered page changed; if intended, regenerate with {UPDATE_VARIABLE}=1"
