# The two commands of the README:  `make run`  and  `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench worker analysis-worker beat prod-local lock

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The application installs from its lock files (every version and hash pinned: two installs
# a month apart run the same code), then itself without dependencies. pyproject.toml keeps
# the ranges; `make lock` writes the locks from them (README, "Dependencies").
$(VENV)/.installed: pyproject.toml requirements.lock | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements.lock
	$(PY) -m pip install -q --no-deps -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml requirements-dev.lock | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements-dev.lock
	$(PY) -m pip install -q --no-deps -e .
	touch $@ $(VENV)/.installed

## lock: requirements.lock and requirements-dev.lock from pyproject.toml's ranges (pip-tools in
## a throw-away virtualenv, hashes included); commit both
PIP_COMPILE_FLAGS := --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
	--no-emit-find-links --quiet
lock:
	rm -rf /tmp/maedn-pip-tools && $(PYTHON) -m venv /tmp/maedn-pip-tools
	/tmp/maedn-pip-tools/bin/pip install -q pip-tools
	/tmp/maedn-pip-tools/bin/pip-compile $(PIP_COMPILE_FLAGS) -o requirements.lock pyproject.toml
	/tmp/maedn-pip-tools/bin/pip-compile $(PIP_COMPILE_FLAGS) --extra dev \
		-o requirements-dev.lock pyproject.toml
	rm -rf /tmp/maedn-pip-tools

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
	$(PY) bench/scale.py --sizes 1,10
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
