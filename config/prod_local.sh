#!/usr/bin/env bash
# A local production-like run: DEBUG off, PostgreSQL, the Redis broker, nginx in front of
# gunicorn and TWO Daphne servers, a Celery worker, a worker for the move analyses'
# queue and Celery beat, served over plain HTTP on
# 127.0.0.1 (ALLOW_PLAIN_HTTP=1). This is the production topology of the README,
# docs/configuration.md and `bench/online.py --mode production`.
#
# It runs the production command sequence of the README (migrate, collectstatic, web, ASGI,
# proxy, worker, analysis worker, beat) with local defaults; every variable below can be overridden from the
# environment. nginx listens on PORT and passes complete requests to gunicorn on APP_PORT
# and WebSockets (/ws/) to the Daphne servers on ASGI_PORT, ASGI_PORT + 1, … (ASGI_SERVERS of
# them, 2 by default: one upstream, nginx spreads the sockets over both; a room's players on
# different servers meet through the Redis channel layer) (config/nginx.conf.template: slow
# clients never hold a gunicorn worker). Ctrl-C (or SIGTERM) stops every process.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PY="$VENV/bin/python"
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WEB_WORKERS=${WEB_WORKERS:-2}
APP_PORT=${APP_PORT:-$((PORT + 1))}     # gunicorn, loopback only: nginx is the way in
ASGI_PORT=${ASGI_PORT:-$((PORT + 2))}   # the first Daphne, loopback only
ASGI_SERVERS=${ASGI_SERVERS:-2}         # Daphne servers on ASGI_PORT, ASGI_PORT + 1, …
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
mkdir -p var
NGINX_DIR=${NGINX_DIR:-$PWD/var/nginx-$PORT}   # its configuration, pid and buffers

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
export NUM_PROXIES=${NUM_PROXIES:-1}   # nginx: the client address is the one it forwards

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

# 4. web, ASGI, proxy, worker, beat
[[ -x "$NGINX" ]] || { echo "nginx is missing: bash tests/ensure_services.sh installs it" >&2; exit 1; }
mkdir -p "$NGINX_DIR"
# the upstream's servers: "server @ASGI@;" becomes "server A; server B;"
ASGI_UPSTREAM="127.0.0.1:$ASGI_PORT"
for ((i = 1; i < ASGI_SERVERS; i++)); do
    ASGI_UPSTREAM="$ASGI_UPSTREAM; server 127.0.0.1:$((ASGI_PORT + i))"
done
sed -e "s|@PREFIX@|$NGINX_DIR|g" -e "s|@LISTEN@|$HOST:$PORT|g" \
    -e "s|@APP@|127.0.0.1:$APP_PORT|g" -e "s|@ASGI@|$ASGI_UPSTREAM|g" \
    config/nginx.conf.template > "$NGINX_DIR/nginx.conf"
"$NGINX" -t -q -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -g "daemon off; user $(id -un) $(id -gn);"
pids=()
stop() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait || true
}
trap stop EXIT INT TERM
# standings, mails and the rest on one worker; the move analyses (seconds of CPU each) on a
# worker of their own, as the README's production sequence runs them: a backlog of analyses
# never holds up a standings recompute (issue 32: 42 s with 8 analyses queued on one worker)
"$VENV/bin/celery" -A config worker -l info -Q celery -n "default@%h" &
pids+=($!)
"$VENV/bin/celery" -A config worker -l info -Q "${ANALYSIS_QUEUE:-analysis}" \
    -c "${ANALYSIS_CONCURRENCY:-1}" -n "analysis@%h" &
pids+=($!)
"$VENV/bin/celery" -A config beat -l info --schedule var/celerybeat-schedule &
pids+=($!)
# the settings file: max-requests, workers forked from the loaded application, the
# redacting access log (config/gunicorn.conf.py)
"$VENV/bin/gunicorn" -c config/gunicorn.conf.py config.wsgi -b "127.0.0.1:$APP_PORT" \
    -w "$WEB_WORKERS" --timeout 30 --access-logfile - &
pids+=($!)
# a handshake may wait 30 s for its turn (Daphne's default, 5 s, drops the queued handshakes of
# a reconnect storm after a server is lost, and their pages come back in waves)
for ((i = 0; i < ASGI_SERVERS; i++)); do
    "$VENV/bin/daphne" -b 127.0.0.1 -p "$((ASGI_PORT + i))" --websocket_connect_timeout 30 \
        --proxy-headers config.asgi:application &
    pids+=($!)
done
# workers as this user (as root nginx would switch them to nobody, who may not read var/)
"$NGINX" -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -g "daemon off; user $(id -un) $(id -gn);" &
pids+=($!)
echo "serving http://$HOST:$PORT through nginx: gunicorn on $APP_PORT, $ASGI_SERVERS Daphne servers" \
    "from $ASGI_PORT (Ctrl-C stops proxy, web, ASGI, worker and beat)"
wait -n
