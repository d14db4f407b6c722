"""Public pages under load: 20 concurrent clients against gunicorn on PostgreSQL.

Loads the demo season into a scratch database, starts gunicorn on 127.0.0.1, and has
CLIENTS connections fetch, for DURATION seconds each: the standings page (anonymous, its
page cache warm), the live-refresh fragment and the page itself with their ETag (what a
browser or a shared cache revalidating gets: 304), the schedule, bracket, game and player
pages, the embeddable standings (HTML and JSON), and "My games" signed in. Prints
requests/s, p50, p95, p99, max with wrk (Debian package `wrk`, installed by
tests/ensure_services.sh; Python client threads otherwise).

Then the shared-cache check: each anonymous page's headers (public, s-maxage, ETag, Vary)
and its conditional GET (304), and the share of anonymous requests a shared cache in front
(a CDN honouring s-maxage and revalidating with If-None-Match) answers without a full page
from the application, for a page polled at a given rate (a model over the measured
headers: one request per s-maxage window reaches the application, as a 304 while the page
is unchanged).

    .venv/bin/python bench/pages.py [--clients 20] [--seconds 10] [--workers 2]
        [--only standings,me] [--rounds N]

``--only`` measures some of the pages (names: standings, standings-304, fragment-304,
schedule, bracket, game, player, home, embed, embed-json, me); ``--rounds`` repeats the
runs (interleaved), for comparing figures on a busy machine.

BENCH_DATABASE_URL (scratch database, dropped and made again), BENCH_PORT, BENCH_CACHE_URL
(redis://… to measure the production cache; locmem:// by default) override the defaults.
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
sys.path.insert(0, str(ROOT))  # tests.processes: the one start-up of the helper processes
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
    CACHE_URL=os.environ.get("BENCH_CACHE_URL", "locmem://"),
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


SESSION_SCRIPT = """
from django.contrib.auth import get_user_model
from django.test import Client
from tournaments.models import Player
player = Player.objects.filter(entries__league__slug="nine-2t-plus").order_by("pk").first()
user, _ = get_user_model().objects.get_or_create(username="bench-player")
if player.user_id is None:
    player.user = user
    player.save(update_fields=["user"])
else:
    user = player.user
client = Client()
client.force_login(user)
print("SESSION", client.cookies["sessionid"].value)
"""


def signed_in_cookie() -> str:
    """A session of an account holding a demo player (for "My games")."""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SESSION_SCRIPT],
        cwd=ROOT,
        env=ENV,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return next(x for x in out.splitlines() if x.startswith("SESSION ")).split()[1]


def shared_cache_check(paths: dict[str, str]) -> None:
    """Headers and conditional GETs of the anonymous pages, and the share of requests a
    shared cache answers (fresh from its copy, or after a 304) for a page polled at
    ``rate`` requests per second (the standings poll every 15 s: 100 visitors ≈ 6.7/s)."""
    print("\nshared cache (anonymous requests):")
    s_maxage = None
    for name, path in paths.items():
        status, _, headers = fetch(path)
        cc = headers.get("Cache-Control", "")
        etag = headers.get("ETag")
        again = fetch(path, {"If-None-Match": etag})[0] if etag else None
        for part in cc.split(","):
            if part.strip().startswith("s-maxage="):
                s_maxage = int(part.strip().split("=")[1])
        print(
            f"  {name:10} {status} Cache-Control: {cc} · Vary: {headers.get('Vary')} · "
            f"conditional GET: {again}"
        )
    if not s_maxage:
        print("  no s-maxage: a shared cache could answer none of them")
        return
    change = 600  # a new result on the page every 10 minutes
    for rate in (0.1, 1, 6.7, 50):
        # per s-maxage window the first request goes to the application (answered 304 while
        # the cache's copy is current), the others are fresh hits; a full page is rendered
        # only after a change
        requests = rate * change
        fresh = max(0.0, 1 - (change / s_maxage) / requests)
        full = min(requests, 1.0) / requests
        print(
            f"  polled at {rate:>4} req/s, a change every {change // 60} min: "
            f"{fresh:.1%} fresh from the cache, {1 - full:.1%} fresh or 304 "
            f"(full pages from the application: {full:.1%})"
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


def _text(path: str) -> list[str]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request("GET", path)
    body = conn.getresponse().read().decode()
    conn.close()
    return body.splitlines()


def load(path: str, clients: int, seconds: float, headers: dict | None = None) -> float:
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
        f"{path} {_label(headers)}: {len(latencies) / seconds:.0f} req/s, "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {p95:.1f} ms, "
        f"max {latencies[-1] * 1000:.1f} ms, statuses {statuses}"
    )
    return len(latencies) / seconds


def _label(headers: dict | None) -> str:
    if not headers:
        return "(anonymous)"
    return "(signed in)" if "Cookie" in headers else "(If-None-Match)"


WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("WRK %d %.3f %.3f %.3f %.3f %d\\n", summary.requests,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout))
end
"""


def load_wrk(path: str, clients: int, seconds: float, headers: dict | None = None) -> float:
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
        f"{path} {_label(headers)} [wrk]: "
        f"{int(requests) / seconds:.0f} req/s, p50 {float(p50):.1f} ms, "
        f"p95 {float(p95):.1f} ms, p99 {float(p99):.1f} ms, max {float(worst):.1f} ms, "
        f"errors {errors}"
    )
    return int(requests) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated page names (all)")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    prepare()
    from tests.processes import Gunicorn

    # without --max-requests: a worker restart every 1,000 cache hits would be measured
    server = Gunicorn(ENV, port=PORT, workers=args.workers, log_level="warning", max_requests=0)
    try:
        wait_until_serving()
        league = "/leagues/nine-2t-plus"
        page, fragment = f"{league}/standings/", f"{league}/standings/table/"
        game = next(
            (
                line.split('href="')[1].split('"')[0]
                for line in _text(f"{league}/schedule/")
                if 'href="/games/' in line
            ),
            None,
        )
        player = next(
            (
                line.split('href="')[1].split('"')[0]
                for line in _text(page)
                if 'href="/players/' in line
            ),
            None,
        )
        anonymous = {
            "standings": page,
            "schedule": f"{league}/schedule/",
            "bracket": f"{league}/playoffs/",
            "game": game,
            "player": player,
            "home": "/",
            "embed": f"{league}/embed/standings/",
            "embed-json": f"{league}/embed/standings.json",
        }
        anonymous = {k: v for k, v in anonymous.items() if v}
        for path in [*anonymous.values(), fragment]:
            fetch(path)  # warm up
        etag = fetch(fragment)[2].get("ETag")
        page_etag = fetch(page)[2].get("ETag")
        session = {"Cookie": f"sessionid={signed_in_cookie()}"}
        print(
            f"{args.clients} concurrent clients, {args.seconds:.0f} s each, "
            f"gunicorn with {args.workers} workers, PostgreSQL, cache {ENV['CACHE_URL']}"
        )
        runs = [
            ("standings", page, None),
            ("standings-304", page, {"If-None-Match": page_etag} if page_etag else None),
            ("fragment-304", fragment, {"If-None-Match": etag} if etag else None),
            *((name, path, None) for name, path in anonymous.items() if name != "standings"),
            ("me", "/me/", session),
        ]
        wanted = {x.strip() for x in args.only.split(",") if x.strip()}
        runs = [run for run in runs if not wanted or run[0] in wanted]
        measure = load_wrk if shutil.which("wrk") else load
        if measure is load:
            print("(wrk not installed: `apt-get install wrk`; using Python client threads)")
        cached: dict[str, float] = {}
        for _ in range(args.rounds):
            for name, path, headers in runs:
                one, five, fifteen = os.getloadavg()
                print(f"  (load average {one:.2f} {five:.2f} {fifteen:.2f})")
                cached[name] = measure(path, args.clients, args.seconds, headers)
        shared_cache_check(anonymous)
    finally:
        server.stop()
    uncached_beside(args, runs, cached, measure)


def uncached_beside(args, runs, cached: dict[str, float], measure) -> None:
    """The anonymous pages again with the page cache off (PUBLIC_PAGE_CACHE_SECONDS=0,
    STANDINGS_PAGE_CACHE_SECONDS=0): the rendering itself, printed beside the cache hit
    (a cache hit is the cache's speed, not the page's)."""
    from tests.processes import Gunicorn

    plain = [(n, p, h) for n, p, h in runs if h is None]
    if not plain:
        return
    env = dict(ENV, PUBLIC_PAGE_CACHE_SECONDS="0", STANDINGS_PAGE_CACHE_SECONDS="0")
    server = Gunicorn(env, port=PORT, workers=args.workers, log_level="warning", max_requests=0)
    uncached: dict[str, float] = {}
    try:
        wait_until_serving()
        print("\npage cache off (rendered every time):")
        for name, path, _ in plain:
            fetch(path)
            uncached[name] = measure(path, args.clients, args.seconds, None)
    finally:
        server.stop()
    print("\nanonymous pages, req/s: cache hit | uncached rendering | ratio")
    for name, _, _ in plain:
        hit, rendered = cached.get(name, 0.0), uncached[name]
        print(f"  {name:12} {hit:8.0f} | {rendered:8.0f} | {rendered / hit if hit else 0:.2f}")


if __name__ == "__main__":
    main()
