# The two commands of the README:  `make run`  and  `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench worker analysis-worker beat prod-local

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

## run: the platform on http://127.0.0.1:8000 — SQLite, Celery in-process, demo league loaded
run: $(VENV)/.installed
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo --if-empty
	DEBUG=1 EMBEDDED_BEAT=1 SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)} \
		ANALYSIS_CATCH_UP_SECONDS=$${ANALYSIS_CATCH_UP_SECONDS:-60} \
		$(PY) manage.py runserver $(HOST):$(PORT)

## test: services up, lint, migrations, the whole pytest suite against PostgreSQL + Redis
test: $(VENV)/.installed-dev
	bash tests/ensure_services.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest

## bench: the benchmarks of bench/, printing their figures (PostgreSQL + Redis for the last two)
bench: $(VENV)/.installed-dev
	bash tests/ensure_services.sh
	$(PY) bench/engine.py
	$(PY) bench/openspiel.py
	$(PY) bench/analysis.py
	$(PY) bench/bots.py --games 2000
	$(PY) bench/standings.py
	$(PY) bench/pages.py
	$(PY) bench/abuse.py
	$(PY) bench/open_draw.py
	$(PY) bench/online.py

## worker: a Celery worker for production-like runs (needs CELERY_BROKER_URL)
worker: $(VENV)/.installed
	$(VENV)/bin/celery -A config worker -l info

## analysis-worker: a Celery worker for the move analyses' own queue (needs CELERY_BROKER_URL)
analysis-worker: $(VENV)/.installed
	$(VENV)/bin/celery -A config worker -l info -Q $${ANALYSIS_QUEUE:-analysis}

## beat: Celery beat, the periodic standings catch-up (needs CELERY_BROKER_URL); run one
beat: $(VENV)/.installed
	$(VENV)/bin/celery -A config beat -l info --schedule var/celerybeat-schedule

## prod-local: DEBUG off, nginx in front of gunicorn + Daphne, worker + beat on PostgreSQL and
## Redis, plain HTTP on http://127.0.0.1:8000 (ALLOW_PLAIN_HTTP=1) — the README's production
## sequence, locally
prod-local: $(VENV)/.installed
	bash tests/ensure_services.sh
	HOST=$(HOST) PORT=$(PORT) bash config/prod_local.sh
