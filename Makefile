# The two commands of the quick start:
#   make serve   set up, build and serve the lab on http://127.0.0.1:8000
#   make test    set up and run every test (what CI runs)
# While working: make test-fast (no browser, no slow tests; see docs/contributing.md).
#
# Python packages come only from requirements/lock.txt (exact versions with hashes), installed
# into the project's own .venv/, never into the interpreter that creates it (PYTHON=).
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-lock

.PHONY: setup browser serve test test-fast lint build bench lock

setup: $(STAMP) node_modules/.package-lock.json

$(STAMP): requirements/lock.txt pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r requirements/lock.txt
	$(VPY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# Refresh the lock on purpose (a reviewed change): newest versions inside pyproject.toml's ranges.
lock:
	$(VPY) -m piptools compile --quiet --upgrade --generate-hashes --allow-unsafe --strip-extras \
		--no-emit-index-url --no-emit-find-links --extra test -o requirements/lock.txt pyproject.toml

# Front-end tests drive Debian's Chromium (never a browser download of Playwright's own): its
# headless shell for the tests (the same engine; a new page costs a tenth to a half of the CPU), the full
# browser for the benches, which time what learners see.
browser:
	@# One apt-get update, one install of what is missing (a fresh CI machine has neither). The
	@# tests take the headless shell when there is one; without it they drive chromium.
	@want=""; \
	command -v chromium >/dev/null 2>&1 || want="chromium"; \
	command -v chromium-headless-shell >/dev/null 2>&1 || want="$$want chromium-headless-shell"; \
	if [ -n "$$want" ]; then \
		apt-get update -qq && { apt-get install -y -qq $$want || apt-get install -y -qq chromium; }; \
	fi; \
	command -v chromium >/dev/null 2>&1 || { echo "chromium could not be installed (apt-get install chromium)" >&2; exit 1; }; \
	command -v chromium-headless-shell >/dev/null 2>&1 || \
		echo "chromium-headless-shell could not be installed: the tests drive chromium (the same verdicts, more CPU)"

build: setup
	$(VPY) build.py

serve: setup
	$(VPY) build.py serve --port $(PORT)

lint: setup
	$(VPY) -m ruff check .
	$(VPY) -m mypy

# Four workers on two cores: the browser tests mostly wait (Python starting in the page, time
# limits), so two more workers fill that waiting. Each worker takes one xdist group at a time
# (a test file, or one lesson's tests of a file), dearest first: tests/shared_fixtures.py.
XDIST := -n 4 --dist loadgroup

test: setup browser lint
	$(VPY) -m pytest $(XDIST) -q

# The loop while working: passed quality gates are kept between its runs (inside .venv/, so a new
# lock starts afresh), and a lesson whose gate inputs did not change is not gated again.
test-fast: setup lint
	WERKPLAATS_TEST_GATE_CACHE=$(CURDIR)/$(VENV)/kept-gates $(VPY) -m pytest $(XDIST) -q -m "not browser and not slow"

bench: setup browser
	$(VPY) bench/run_all.py
