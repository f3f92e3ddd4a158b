"""One set of shared fixtures for every test folder: tests/ and each widget's own tests
(widgets/<name>/tests/), so one Chromium per worker and one built site serve them all (a second
Playwright in the same worker cannot start)."""

pytest_plugins = ["tests.shared_fixtures"]
