"""For every widget's own tests (widgets/<name>/tests/): `page` is a new page of this worker's
browser context that keeps the Python snapshot of a first visit (`restored_page`,
tests/shared_fixtures.py), its localStorage and sessionStorage emptied first. A widget's tests are
about the widget once Python runs, not about how Python starts (tests/browser/ tests that); with
a cold start for each, the 38 of them took 245 busy CPU seconds instead of 188 (docs/contributing.md).
A test of what a widget shows before Python starts takes `first_visit_page`."""

import pytest


@pytest.fixture
def page(restored_page):
    return restored_page
