"""Standings page under load: 20 concurrent clients against gunicorn on PostgreSQL.

Loads the demo season into a scratch database, starts gunicorn on 127.0.0.1, and has
CLIENTS threads fetch the standings page (full page, and the live-refresh fragment with
its ETag: the idle poll) for DURATION seconds each. Prints requests/s, p50, p95, max.

    .venv/bin/python bench/pages.py [--clients 20] [--seconds 10] [--workers 3]
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn_pages")
PORT = int(os.environ.get("BENCH_PORT", "8799"))
ENV = dict(
    os.environ,
    DATABASE_URL=DB_URL,
    DEBUG="0",
    SECRET_KEY="bench-only-not-secret",
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_SSL_REDIRECT="0",
    LOG_LEVEL="WARNING",
    DJANGO_SETTINGS_MODULE="config.settings.base",
    EMAIL_BACKEND="console",
    CACHE_URL="locmem://",
)
ENV.pop("CELERY_BROKER_URL", None)


def prepare() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    for args in (["migrate", "-v0"], ["demo", "--force"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=ENV,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def wait_until_serving(seconds: float = 10) -> None:
    """Wait for the server on PORT to answer /healthz."""
    for _ in range(int(seconds * 10)):
        try:
            fetch("/healthz")
            return
        except OSError:
            time.sleep(0.1)


def fetch(path: str, headers: dict | None = None) -> tuple[int, float, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    start = time.perf_counter()
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    return response.status, elapsed, dict(response.getheaders())


def load(path: str, clients: int, seconds: float, headers: dict | None = None) -> None:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client():
        mine, codes = [], {}
        while time.monotonic() < stop:
            status, elapsed, _ = fetch(path, headers)
            mine.append(elapsed)
            codes[status] = codes.get(status, 0) + 1
        with lock:
            latencies.extend(mine)
            for code, n in codes.items():
                statuses[code] = statuses.get(code, 0) + n

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000
    print(
        f"{path} {'(If-None-Match)' if headers else ''}: {len(latencies) / seconds:.0f} req/s, "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {p95:.1f} ms, "
        f"max {latencies[-1] * 1000:.1f} ms, statuses {statuses}"
    )


WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("WRK %d %.3f %.3f %.3f %.3f %d\\n", summary.requests,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout))
end
"""


def load_wrk(path: str, clients: int, seconds: float, headers: dict | None = None) -> None:
    """The same measurement with wrk (Debian package), which costs the machine far less
    than Python client threads: the figures then describe the server."""
    script = ROOT / "var" / "bench-wrk.lua"
    script.parent.mkdir(exist_ok=True)
    script.write_text(WRK_SCRIPT)
    cmd = ["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds:.0f}s", "-s", str(script)]
    for name, value in (headers or {}).items():
        cmd += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*cmd, f"http://127.0.0.1:{PORT}{path}"], capture_output=True, text=True, check=True
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("WRK "))
    requests, p50, p95, p99, worst, errors = line.split()[1:]
    print(
        f"{path} {'(If-None-Match)' if headers else ''} [wrk]: "
        f"{int(requests) / seconds:.0f} req/s, p50 {float(p50):.1f} ms, "
        f"p95 {float(p95):.1f} ms, p99 {float(p99):.1f} ms, max {float(worst):.1f} ms, "
        f"errors {errors}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    prepare()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{PORT}",
            "-w",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=ENV,
    )
    try:
        wait_until_serving()
        page = "/leagues/nine-2t-plus/standings/"
        fragment = "/leagues/nine-2t-plus/standings/table/"
        for path in (page, fragment):
            fetch(path)  # warm up
        etag = fetch(fragment)[2].get("ETag")
        print(
            f"{args.clients} concurrent clients, {args.seconds:.0f} s each, "
            f"gunicorn with {args.workers} workers, PostgreSQL"
        )
        conditional = {"If-None-Match": etag} if etag else None
        if shutil.which("wrk"):
            load_wrk(page, args.clients, args.seconds)
            load_wrk(fragment, args.clients, args.seconds, conditional)
        else:
            print("(wrk not installed: `apt-get install wrk`; using Python client threads)")
            load(page, args.clients, args.seconds)
            load(fragment, args.clients, args.seconds, conditional)
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
