# Stormwise: `make run` for the embedded app, `make test` for the whole suite on real services.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Python keeps the modules it compiles (__pycache__/, which git ignores), whatever the caller's
# environment says: each test process and each server a test starts imports the project again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test bench bench-quick services browser axe gettext messages lint nginx clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

## run: embedded default (SQLite, in-memory channel layer, in-process tasks); keeps its data.
run: $(VENV)/.run-installed
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py migrate --noinput -v 0
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py collectstatic --noinput -v 0
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py seed_demo
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py serve --host $(HOST) --port $(PORT)

## browser: Debian's Chromium headless shell for the Playwright tests (playwright cannot download
## browsers here), the fonts and Pango that WeasyPrint draws PDFs with, and poppler's pdftotext,
## which the tests read those PDFs with.
browser:
	@command -v chromium-headless-shell >/dev/null && command -v pdftotext >/dev/null || { apt-get update -q && apt-get install -y -q chromium-headless-shell fonts-dejavu-core libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 poppler-utils; }

## axe: axe-core for the browser suite's accessibility checks, from the project's package-lock.json.
axe: node_modules/axe-core/axe.min.js

node_modules/axe-core/axe.min.js: package.json package-lock.json
	@command -v npm >/dev/null || { apt-get update -q && apt-get install -y -q npm; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## gettext: GNU gettext, which `messages` and the catalogue tests use to collect strings.
gettext:
	@command -v xgettext >/dev/null || { apt-get update -q && apt-get install -y -q gettext; }

## messages: collect new strings into every catalogue (.po), then compile them (.mo); translate
## the new entries in between and run it again (README, "Add a language").
messages: $(VENV)/.dev-installed gettext
	$(PY) scripts/messages.py collect
	$(PY) scripts/messages.py compile

## nginx: Debian's nginx, the proxy of the district harness (python -m benchmarks.district).
nginx:
	@command -v nginx >/dev/null || { apt-get update -q && apt-get install -y -q nginx; }

## services: make sure PostgreSQL and Redis answer on their standard local ports.
services:
	@bash scripts/services.sh

## lint: ruff's checks and its formatting (ruff.toml) and the import contracts (.importlinter: engines never import Django).
lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

## test: everything, against real PostgreSQL, Redis, a Celery worker and headless Chromium, in
## TEST_PROCESSES processes: twice the cores, as most tests wait on browsers, servers and clocks,
## and at most 6 (each has a Redis database of its own of Redis's 16, and PostgreSQL connections
## of its default 100); TEST_PROCESSES=0 runs it in this one process.
TEST_PROCESSES ?= $(shell n=$$(( $$(nproc) * 2 )); echo $$(( n < 6 ? n : 6 )))
test: $(VENV)/.dev-installed browser axe gettext services lint
	CI=$${CI:-true} PYTHONFAULTHANDLER=1 $(PY) -m pytest -n $(TEST_PROCESSES) --dist worksteal --durations=25 $(PYTEST_ARGS)

## bench: one line per figure, `name: value unit`.
bench: $(VENV)/.dev-installed services
	@bash scripts/bench.sh

## bench-quick: every benchmark module with the least work that runs all its code (CI runs it
## after the tests): fails when a module cannot run, measures nothing.
bench-quick: $(VENV)/.dev-installed services nginx
	@bash scripts/bench.sh --quick

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .test-media node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
