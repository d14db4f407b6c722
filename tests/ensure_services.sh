#!/usr/bin/env bash
# Make sure the services the test suite talks to are up on 127.0.0.1: PostgreSQL, Redis,
# RabbitMQ; that Debian's Chromium is installed for the browser tests, and Debian's nginx
# for `make prod-local` (the buffering proxy in front of gunicorn and Daphne). Starts what is
# installed but down (the machine's own start commands); fails loudly when one is missing.
set -euo pipefail

say() { printf '[services] %s\n' "$*"; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {  # name port seconds
  local i
  for ((i = 0; i < $3 * 5; i++)); do
    port_open "$2" && return 0
    sleep 0.2
  done
  die "$1 did not come up on 127.0.0.1:$2 within $3 s"
}

# --- PostgreSQL -------------------------------------------------------------------------
if port_open 5432; then
  say "PostgreSQL is up on 127.0.0.1:5432"
else
  command -v pg_ctlcluster >/dev/null || die "PostgreSQL is not installed (Debian package postgresql); the tests need it on 127.0.0.1:5432 with trust auth for user postgres"
  say "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  wait_port PostgreSQL 5432 60
fi

# --- Redis ------------------------------------------------------------------------------
if port_open 6379; then
  say "Redis is up on 127.0.0.1:6379"
else
  command -v redis-server >/dev/null || die "Redis is not installed (Debian package redis-server); the tests need it on 127.0.0.1:6379"
  say "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port Redis 6379 30
fi

# --- RabbitMQ ---------------------------------------------------------------------------
if port_open 5672; then
  say "RabbitMQ is up on 127.0.0.1:5672"
else
  command -v rabbitmq-server >/dev/null || die "RabbitMQ is not installed (Debian package rabbitmq-server); the tests need it on 127.0.0.1:5672"
  say "starting RabbitMQ"
  rabbitmq-server -detached
  wait_port RabbitMQ 5672 120
fi

# --- Chromium for the browser tests (Debian's, never a downloaded build) -----------------
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  command -v apt-get >/dev/null || die "Chromium is missing and apt-get is not available: install Debian's chromium and chromium-driver"
  say "installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium is missing after installation"

# --- axe-core for the accessibility checks (npm registry, pinned in tests/browser/axe) ----
AXE_DIR="$(dirname "$0")/browser/axe"
if [ ! -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ]; then
  command -v npm >/dev/null || die "npm is missing (Debian package npm): the browser tests load axe-core from tests/browser/axe"
  say "installing axe-core from npm into tests/browser/axe"
  npm ci --prefix "$AXE_DIR" --no-audit --no-fund >/dev/null
fi
[ -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ] || die "axe-core is missing after npm ci"

# --- wrk for bench/pages.py (Debian's package; the bench falls back to Python threads) ---
if ! command -v wrk >/dev/null && command -v apt-get >/dev/null; then
  say "installing Debian's wrk (HTTP load generator of bench/pages.py)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null || say "wrk not installed"
fi
say "Chromium: $(/usr/bin/chromium --version 2>/dev/null | head -1)"

# --- nginx for make prod-local (Debian's; started by config/prod_local.sh, not here) -------
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  command -v apt-get >/dev/null || die "nginx is missing and apt-get is not available: install Debian's nginx-light"
  say "installing Debian's nginx-light"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nginx-light >/dev/null
fi
say "nginx: $( (command -v nginx || echo /usr/sbin/nginx) )"
