# The two commands of the quick start:
#   make serve   set up, build and serve the lab on http://127.0.0.1:8000
#   make test    set up and run every test (what CI runs)
PYTHON ?= python3
PORT ?= 8000

.PHONY: setup browser serve test build bench

setup:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	npm ci --no-audit --no-fund --loglevel=error

# Front-end tests drive Debian's Chromium (never a browser download of Playwright's own).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }

build: setup
	$(PYTHON) build.py

serve: setup
	$(PYTHON) build.py serve --port $(PORT)

test: setup browser
	$(PYTHON) -m pytest -n 2 -q

bench: setup browser
	$(PYTHON) bench/run_all.py
