#!/usr/bin/env bash
# A local production-like run: DEBUG off, PostgreSQL, the Redis broker, gunicorn, a Celery
# worker and Celery beat, served over plain HTTP on 127.0.0.1 (ALLOW_PLAIN_HTTP=1).
#
# It runs the production command sequence of the README (migrate, collectstatic, web, worker,
# beat) with local defaults; every variable below can be overridden from the environment.
# Ctrl-C (or SIGTERM) stops all three processes.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PY="$VENV/bin/python"
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WEB_WORKERS=${WEB_WORKERS:-2}
mkdir -p var

export DJANGO_SETTINGS_MODULE=config.settings.base
unset DEBUG
if [[ -z "${SECRET_KEY:-}" ]]; then
    # one random key per checkout, kept so that sessions survive a restart
    [[ -s var/prod-local-secret-key ]] || "$PY" -c \
        "import secrets; print(secrets.token_urlsafe(50))" > var/prod-local-secret-key
    SECRET_KEY=$(cat var/prod-local-secret-key)
fi
export SECRET_KEY
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-127.0.0.1,localhost}
export ALLOW_PLAIN_HTTP=${ALLOW_PLAIN_HTTP:-1}   # no TLS locally: no redirect, no HSTS
export EMAIL_BACKEND=${EMAIL_BACKEND:-console}   # local only: mails go to this terminal
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/maedn_prod_local}
export CELERY_BROKER_URL=${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}
export CACHE_URL=${CACHE_URL:-redis://127.0.0.1:6379/1}

if [[ "$DATABASE_URL" == postgres* ]]; then
    "$PY" - <<'PYEOF'
import os
import psycopg
url = os.environ["DATABASE_URL"]
base, name = url.rsplit("/", 1)
with psycopg.connect(base + "/postgres", autocommit=True) as conn:
    if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
        conn.execute(f'CREATE DATABASE "{name}"')
        print(f"created database {name}")
PYEOF
fi

# 1. schema, 2. static files (the manifest every page needs), 3. deployment checks
"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput -v0
"$PY" manage.py check --deploy || true   # prints the plain-HTTP / console-mail warnings

# 4. web, worker, beat
pids=()
stop() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait || true
}
trap stop EXIT INT TERM
"$VENV/bin/celery" -A config worker -l info -Q "celery,${ANALYSIS_QUEUE:-analysis}" &
pids+=($!)
"$VENV/bin/celery" -A config beat -l info --schedule var/celerybeat-schedule &
pids+=($!)
"$VENV/bin/gunicorn" config.wsgi -b "$HOST:$PORT" -w "$WEB_WORKERS" --timeout 30 \
    --access-logfile - &
pids+=($!)
echo "serving http://$HOST:$PORT (Ctrl-C stops web, worker and beat)"
wait -n
