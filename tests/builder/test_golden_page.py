"""Golden file of each lesson's rendered page: a change in the builder's output must be deliberate.

The page is rendered from our own templates only: the editor partial belongs to another part and
has its own tests, so it is left out here. The lesson's widgets are part of the lesson: their
markup (widgets/<name>/template.html) is in. Lines are compared stripped and without blank lines,
so indentation-only template edits do not count. The golden file of lesson <id> is
tests/lessons/<id>/page.html.

Regenerate after an intended change:  python tests/lessons/update_golden.py <id>
"""

from __future__ import annotations

import jinja2
import pytest

from builder.build_site import TEMPLATES_DIR
from builder.render_page import Site, create_templates, render_page
from tests.lessons.lesson_tests import check_golden, lesson_param


class WithoutPartials(jinja2.FileSystemLoader):
    def get_source(self, environment, template):
        if template.startswith("partials/"):
            raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


def normalise(html: str) -> str:
    return "".join(line.strip() + "\n" for line in html.splitlines() if line.strip())


@pytest.fixture(scope="module")
def site(real_lessons) -> Site:
    templates = create_templates(TEMPLATES_DIR)
    templates.loader = WithoutPartials(TEMPLATES_DIR)
    return Site(real_lessons, templates)


@lesson_param
def test_the_page_matches_its_golden_file(lesson, site):
    page = next((candidate for candidate in site.lessons if candidate.id == lesson.id), None)
    assert page is not None, f"checkpoints/{lesson.id}/ has no lesson: lessons/{lesson.id}.md is missing"
    check_golden(lesson.page, normalise(render_page(page, site).html), lesson)
