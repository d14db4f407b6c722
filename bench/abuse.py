"""A normal visitor's standings page while attackers replay large logs, while slow
clients hold connections, and while Redis is down.

Each case runs "before" and "after" against gunicorn on 127.0.0.1 (the demo loaded into a
scratch PostgreSQL database) while one visitor fetches the standings page; prints the
visitor's p50/p95 and what the attackers got. Bounded: loopback only, a fixed number of
seconds per run.

Cases (``--cases``, comma-separated; all by default):

* ``anonymous`` (issue #11 point 6): ``POST /replay/`` once needed no login and had no
  throttle. Before: replay throttle off, no size bound for visitors; after: the defaults.
* ``signed-in`` (issue #22 point 5): signed-in clients (one account each) upload a valid
  49,999-event log (every roll a 1, every pawn in the yard; 1.5 MB). Before: no cap on the
  events the page draws (``REPLAY_PAGE_MAX_EVENTS`` = 10**9: the whole log, as before the
  cap); after: the defaults (3,000 events drawn, the validator still checks all).

Issue #22 point 12 (``--cases slow``): SLOW clients each open a connection and send their
request headers a byte every half second, never finishing; "before" is gunicorn's sync
workers facing them directly, "after" is nginx in front (config/nginx.conf.template, as
``make prod-local`` runs it). Point 11 (``--cases redis``): gunicorn with the cache and
the broker on a redis-server of the bench's own, which is then stopped, then replaced by a
listener that never answers (a hung host); the visitor fetches the standings page and logs
in (a wrong password: the throttles count); "before" is Django's own RedisCache
(bench/settings_plain_cache.py), "after" the production settings (config/cache.py).

    .venv/bin/python bench/abuse.py [--seconds 10] [--attackers 2] [--accounts N]
        [--workers 2] [--slow 4] [--uploads-every 5] [--cases anonymous,signed-in,slow,redis]

Issue 32 point 10 adds ``--accounts`` (the signed-in attackers share N accounts: 8 clients
of 4 accounts, as the issue's try) and, in the redis case, a demo organizer's upload of a
valid log (the engine's simulator) for one of their scheduled games every
``--uploads-every`` visits: an upload stores the result and publishes its tasks to the
broker that is down or hung.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pages import DB_URL, ENV, PORT, fetch, prepare, wait_until_serving  # noqa: E402
from tests.processes import Gunicorn, Nginx, OwnRedis  # noqa: E402

PAGE = "/leagues/nine-2t-plus/standings/"


def large_log(min_bytes: int) -> str:
    """A long valid game: classic rules on board 6 play until all but one colour finish."""
    from games.engine import simulate_game

    best = ""
    for seed in range(40):
        text = json.dumps(simulate_game(rules="classic", board=6, seed=seed))
        best = max(best, text, key=len)
        if len(best) >= min_bytes:
            break
    return best


def stuck_log(events: int = 49_999) -> str:
    """A valid log of ``events`` rolls of 1 (three tries per colour, every pawn stays in its
    yard): the cheapest log to validate that is as long as game-log.md allows."""
    from games.engine.log import LogRecord

    colours = ["red", "black", "yellow", "green"]
    rolls = [{"colour": colours[(i // 3) % 4], "die": 1} for i in range(events)]
    # written by the engine's writer; json.dumps's spaced text, as the figures were measured
    return json.dumps(LogRecord(rules="league", first="red", events=rolls).to_dict())


def csrf_session(cookie: str = "", path: str = "/replay/") -> tuple[str, str]:
    """A CSRF cookie and form token for ``path`` (with the session ``cookie``, if any)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = conn.getresponse()
    body = response.read().decode()
    csrf = next(
        (c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie") or [] if "csrf" in c),
        "",
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    conn.close()
    return "; ".join(c for c in (cookie, csrf) if c), token


BENCH_PASSWORD = "bench-only-password-1"


def make_accounts(count: int) -> None:
    """``count`` accounts ``replayer-N`` in the bench database (run once, after prepare)."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        f"for i in range({count}):\n"
        "    u, _ = get_user_model().objects.get_or_create(username=f'replayer-{i}')\n"
        f"    u.set_password('{BENCH_PASSWORD}'); u.save()\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def log_in(n: int) -> str:
    """Log ``replayer-n`` in through the login form; its session cookie."""
    cookie, token = csrf_session(path="/accounts/login/")
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": f"replayer-{n}", "password": BENCH_PASSWORD}
    )
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookie,
        "Referer": f"http://127.0.0.1:{PORT}/accounts/login/",
    }
    conn.request("POST", "/accounts/login/", body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    session = [
        c.split(";", 1)[0]
        for c in response.headers.get_all("Set-Cookie") or []
        if c.startswith("sessionid")
    ]
    conn.close()
    if response.status != 302 or not session:
        raise SystemExit(f"could not log replayer-{n} in ({response.status})")
    return session[0]


def as_upload(token: str, log: str) -> tuple[bytes, str]:
    """A multipart form with the log as the uploaded file (a pasted 1.5 MB log, URL-encoded,
    is beyond Django's 2.5 MB form limit; an uploaded file is not)."""
    boundary = "benchboundary7f3a"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{token}\r\n--{boundary}\r\nContent-Disposition: form-data; "
            f'name="file"; filename="log.json"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + log.encode()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def attack(stop: float, log: str, codes: dict, lock: threading.Lock, session: str = "") -> None:
    cookie, token = csrf_session(session)
    if session:
        body, kind = as_upload(token, log)
    else:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "content": log})
        kind = "application/x-www-form-urlencoded"
    headers = {
        "Content-Type": kind,
        "Cookie": cookie,
        "Referer": f"http://127.0.0.1:{PORT}/replay/",
    }
    while time.monotonic() < stop:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        try:
            conn.request("POST", "/replay/", body=body, headers=headers)
            response = conn.getresponse()
            status, size = response.status, len(response.read())
        except OSError:  # no answer within 60 s: counted as status 0
            status, size = 0, 0
        finally:
            conn.close()
        with lock:
            codes[status] = codes.get(status, 0) + 1
            codes["bytes"] = codes.get("bytes", 0) + size


#: the shared cache the web processes count throttles in (flushed before each run)
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/0")


def run(label: str, extra_env: dict, args, log: str, *, signed_in: bool = False) -> None:
    import redis

    redis.Redis.from_url(CACHE_URL).flushdb()
    env = dict(ENV, CACHE_URL=CACHE_URL, LOG_LEVEL="ERROR", **extra_env)
    server = Gunicorn(env, port=PORT, workers=args.workers, timeout=120)
    try:
        wait_until_serving()
        fetch(PAGE)  # warm
        quiet = [fetch(PAGE)[1] for _ in range(50)]
        accounts = min(args.accounts or args.attackers, args.attackers)
        logged_in = [log_in(n) for n in range(accounts)] if signed_in else []
        sessions = [logged_in[n % accounts] if signed_in else "" for n in range(args.attackers)]
        codes: dict = {}
        lock = threading.Lock()
        stop = time.monotonic() + args.seconds
        attackers = [
            threading.Thread(target=attack, args=(stop, log, codes, lock, sessions[n]))
            for n in range(args.attackers)
        ]
        for thread in attackers:
            thread.start()
        time.sleep(0.5)
        visits = []
        timeouts = 0
        while time.monotonic() < stop:
            began = time.perf_counter()
            try:
                visits.append(fetch(PAGE)[1])
            except OSError:  # no answer within fetch's 10 s: counted as what it waited
                visits.append(time.perf_counter() - began)
                timeouts += 1
            time.sleep(0.05)
        for thread in attackers:
            thread.join()
        visits.sort()
        p95 = visits[math.ceil(0.95 * len(visits)) - 1] * 1000  # nearest rank
        sent = {k: v for k, v in codes.items() if k != "bytes"}
        print(
            f"{label}: visitor p50 {statistics.median(visits) * 1000:.1f} ms, "
            f"p95 {p95:.1f} ms over {len(visits)} visits (quiet p50 "
            f"{statistics.median(quiet) * 1000:.1f} ms); attackers got {sent}, "
            f"{codes.get('bytes', 0) / 1e6:.1f} MB of responses"
            + (f"; {timeouts} visits got no answer within 10 s" if timeouts else "")
        )
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--attackers", type=int, default=2)
    parser.add_argument(
        "--accounts",
        type=int,
        default=0,
        help="signed-in case: accounts the attackers share (default: one each); issue 32 "
        "point 10 is --attackers 8 --accounts 4",
    )
    parser.add_argument(
        "--uploads-every",
        type=int,
        default=5,
        help="redis case: an organizer's log upload every N-th visit (0: none)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log-kb", type=int, default=200)
    parser.add_argument("--slow", type=int, default=4, help="slow clients (--cases slow)")
    parser.add_argument("--cases", default="anonymous,signed-in,slow,redis")
    args = parser.parse_args()
    cases = set(args.cases.split(","))
    unknown = cases - {"anonymous", "signed-in", "slow", "redis"}
    if unknown:
        parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
    prepare()
    if "anonymous" in cases:
        replay_case(args)
    if "signed-in" in cases:
        signed_in_case(args)
    if "slow" in cases:
        slow_case(args)
    if "redis" in cases:
        redis_case(args)


def replay_case(args) -> None:
    log = large_log(args.log_kb * 1024)
    print(
        f"{args.attackers} anonymous attackers posting a {len(log) / 1024:.0f} KB log to "
        f"/replay/ for {args.seconds:.0f} s; one visitor on {PAGE}; gunicorn "
        f"{args.workers} workers, PostgreSQL ({DB_URL.rsplit('/', 1)[1]})"
    )
    run(
        "before (no replay throttle, no anonymous bound)",
        {"THROTTLE_REPLAY": "off", "REPLAY_ANONYMOUS_MAX_BYTES": str(10**9)},
        args,
        log,
    )
    run("after (defaults)", {}, args, log)


def signed_in_case(args) -> None:
    log = stuck_log()
    accounts = min(args.accounts or args.attackers, args.attackers)
    make_accounts(accounts)
    print(
        f"{args.attackers} signed-in clients ({accounts} accounts) posting a valid "
        f"49,999-event log ({len(log) / 1024:.0f} KB) to /replay/ for {args.seconds:.0f} s;"
        f" one visitor on {PAGE}; gunicorn {args.workers} workers"
    )
    run(
        "before (no cap on the events drawn)",
        {"REPLAY_PAGE_MAX_EVENTS": str(10**9), "REPLAY_CONCURRENT": "0"},
        args,
        log,
        signed_in=True,
    )
    run(
        "events capped, replays not bounded (main before issue 32 point 10)",
        {"REPLAY_CONCURRENT": "0"},
        args,
        log,
        signed_in=True,
    )
    run("after (defaults: REPLAY_CONCURRENT=1)", {}, args, log, signed_in=True)


# --- slow clients (issue 22 point 12) -------------------------------------------------------


def visit(path: str, port: int = PORT, timeout: float = 10.0, **request) -> tuple[int, float]:
    """One request; a connection error or a timeout is status 0 (its time still counts)."""
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request(request.pop("method", "GET"), path, **request)
        response = conn.getresponse()
        response.read()
        conn.close()
        return response.status, time.perf_counter() - start
    except OSError:
        return 0, time.perf_counter() - start


def visitor(seconds: float, step: Callable[[], list[tuple[str, int, float]]]) -> dict:
    """Call ``step`` (a visit or two, each ``(kind, status, seconds)``) until ``seconds`` are
    over: per kind, the sorted latencies and the statuses."""
    seen: dict[str, tuple[list[float], dict[int, int]]] = {}
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        for kind, status, elapsed in step():
            latencies, statuses = seen.setdefault(kind, ([], {}))
            latencies.append(elapsed)
            statuses[status] = statuses.get(status, 0) + 1
        time.sleep(0.05)
    return {kind: (sorted(lat), statuses) for kind, (lat, statuses) in seen.items()}


def summary(seen: dict) -> str:
    parts = []
    for kind, (latencies, statuses) in seen.items():
        p95 = latencies[math.ceil(0.95 * len(latencies)) - 1] * 1000  # nearest rank
        parts.append(
            f"{kind} p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {p95:.1f} ms, "
            f"max {latencies[-1] * 1000:.0f} ms, {len(latencies)} requests {statuses}"
        )
    return "; ".join(parts) + " (status 0: no answer within 10 s)"


def page_visit() -> list[tuple[str, int, float]]:
    return [("page", *visit(PAGE))]


def wait_until_up(seconds: float = 30) -> None:
    """Until /healthz answers from the application (not a proxy's 502 while it boots)."""
    deadline = time.monotonic() + seconds
    while visit("/healthz", timeout=2)[0] not in (200, 503):
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not come up")
        time.sleep(0.1)


def slowloris(port: int, stop: float) -> None:
    """A request whose headers never end: one byte every half second until ``stop``."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while time.monotonic() < stop:
            sock.sendall(b"X")
            time.sleep(0.5)
        sock.close()
    except OSError:
        pass  # the server closed it: this client is done


def start_nginx(port: int, app_port: int, directory: str) -> Nginx:
    template = (ROOT / "config" / "nginx.conf.template").read_text()
    conf = Path(directory) / "nginx.conf"
    conf.write_text(
        template.replace("@PREFIX@", directory)
        .replace("@LISTEN@", f"127.0.0.1:{port}")
        .replace("@APP@", f"127.0.0.1:{app_port}")
        .replace("@ASGI@", f"127.0.0.1:{app_port}")  # no WebSockets in this bench
    )
    return Nginx(conf, Path(directory))


def slow_run(label: str, args, behind_proxy: bool) -> None:
    app_port = PORT + 1 if behind_proxy else PORT
    env = dict(ENV, LOG_LEVEL="ERROR")
    processes = [
        Gunicorn(env, port=app_port, workers=args.workers, timeout=30, log_level="critical")
    ]
    with tempfile.TemporaryDirectory() as directory:
        try:
            if behind_proxy:
                processes.append(start_nginx(PORT, app_port, directory))
            wait_until_up()
            visit(PAGE)
            quiet = visitor(2, page_visit)["page"][0]
            stop = time.monotonic() + args.seconds + 1
            clients = [
                threading.Thread(target=slowloris, args=(PORT, stop)) for _ in range(args.slow)
            ]
            for thread in clients:
                thread.start()
            time.sleep(0.5)
            seen = visitor(args.seconds, page_visit)
            for thread in clients:
                thread.join()
            print(
                f"{label}: visitor {summary(seen)}; quiet p50 "
                f"{statistics.median(quiet) * 1000:.1f} ms"
            )
        finally:
            for process in reversed(processes):
                process.stop()


def slow_case(args) -> None:
    print(
        f"{args.slow} slow clients (request headers a byte every 0.5 s, never finished) for "
        f"{args.seconds:.0f} s; one visitor on {PAGE}; gunicorn {args.workers} sync workers"
    )
    slow_run("before (gunicorn facing the clients)", args, behind_proxy=False)
    slow_run("after (nginx in front, config/nginx.conf.template)", args, behind_proxy=True)


# --- Redis down or hung (issue 22 point 11) -------------------------------------------------


class HangingRedis(OwnRedis):
    """A redis-server of the bench's own on ``port`` (``tests.processes``); ``hang()``
    replaces it by a listener that completes connections and never reads them (a hung
    host)."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.listener: socket.socket | None = None

    def hang(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port), backlog=512)

    def close(self) -> None:
        self.stop()
        if self.listener is not None:
            self.listener.close()
            self.listener = None


def login_form() -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request("GET", "/accounts/login/")
    response = conn.getresponse()
    body = response.read().decode()
    cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    conn.close()
    return cookie, token


UPLOAD_SCRIPT = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from games.engine import simulate_game
from tournaments.models import Fixture
fixtures = (
    Fixture.objects.filter(status=Fixture.Status.SCHEDULED, league__status="running")
    .exclude(starting_colour="")
    .select_related("league__owner")
    .order_by("pk")
)
out, owner = [], None
for fixture in fixtures:
    if len(out) >= %(count)d:
        break
    if owner is None:
        owner = fixture.league.owner
    if fixture.league.owner_id != owner.pk:
        continue
    seats = list(fixture.seats.select_related("entry__player"))
    if not seats or any(not s.colours for s in seats):
        continue
    game = simulate_game(
        rules=fixture.league.rules_spec,
        board=fixture.league.board,
        players={s.entry.player.name: s.colours for s in seats},
        first=fixture.starting_colour,
        bots="heuristic",
        seed=fixture.pk,
    )
    for i, event in enumerate(game["events"]):
        event["t"] = 2 * (i + 1)
    out.append([fixture.pk, json.dumps(game)])
client = Client()
client.force_login(owner)
print("UPLOADS", json.dumps({"session": client.cookies["sessionid"].value, "logs": out}))
"""


def upload_logs(count: int) -> tuple[str, list[tuple[int, str]]]:
    """A session of a demo organizer and valid logs (the engine's simulator) for up to
    ``count`` of the organizer's scheduled games whose starting colour is known."""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", UPLOAD_SCRIPT % {"count": count}],
        cwd=ROOT,
        env=ENV,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    data = json.loads(
        next(x for x in out.splitlines() if x.startswith("UPLOADS ")).split(" ", 1)[1]
    )
    return "sessionid=" + data["session"], [tuple(x) for x in data["logs"]]


def upload(session: str, fixture: int, log: str) -> tuple[int, float]:
    """An organizer's upload of ``log`` for game ``fixture`` through the game page's form
    (its time includes fetching the form's CSRF token: one page request)."""
    start = time.perf_counter()
    try:
        cookie, token = csrf_session(session, path=f"/games/{fixture}/")
    except (OSError, AttributeError):  # the page did not answer (or not with its form)
        return 0, time.perf_counter() - start
    body, kind = as_upload(token, log)
    status, _took = visit(
        f"/games/{fixture}/submit/",
        method="POST",
        body=body,
        headers={
            "Content-Type": kind,
            "Cookie": cookie,
            "Referer": f"http://127.0.0.1:{PORT}/games/{fixture}/",
        },
    )
    return status, time.perf_counter() - start


def redis_run(label: str, settings_module: str, args, uploads=("", [])) -> None:
    redis_port = PORT + 10
    own = HangingRedis(redis_port)
    own.start()
    env = dict(
        ENV,
        DJANGO_SETTINGS_MODULE=settings_module,
        CACHE_URL=f"redis://127.0.0.1:{redis_port}/0",
        CELERY_BROKER_URL=f"redis://127.0.0.1:{redis_port}/1",
        LOG_LEVEL="CRITICAL",
    )
    server = Gunicorn(env, port=PORT, workers=args.workers, timeout=30, log_level="critical")
    try:
        wait_until_up()
        visit(PAGE)
        cookie, token = login_form()
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": "organizer", "password": "wrong"}
        )
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": cookie,
            "Referer": f"http://127.0.0.1:{PORT}/accounts/login/",
        }
        turn = [0]
        logs = list(uploads[1])

        def step() -> list[tuple[str, int, float]]:
            turn[0] += 1
            visits = page_visit()
            if turn[0] % 5 == 0:  # a log-in attempt now and then (throttled: 20/min)
                login = visit("/accounts/login/", method="POST", body=body, headers=headers)
                visits.append(("log-in", *login))
            every = args.uploads_every
            if every and turn[0] % every == 2 and logs:  # an organizer uploads a game's log
                visits.append(("upload", *upload(uploads[0], *logs.pop(0))))
            return visits

        phases = (("Redis up", None), ("Redis stopped", own.stop), ("Redis hung", own.hang))
        for phase, act in phases:
            if act is not None:
                act()
            print(f"{label}, {phase}: {summary(visitor(args.seconds, step))}")
    finally:
        server.stop()
        own.close()


def redis_case(args) -> None:
    # issue 32 point 10: uploads during a hung Redis (each publishes the standings, ratings
    # and analysis tasks to the hung broker); enough games for both runs' three phases
    wanted = 0 if not args.uploads_every else int(3 * args.seconds / 0.06 / args.uploads_every)
    session, logs = upload_logs(2 * wanted) if wanted else ("", [])
    print(
        f"Redis as cache and broker, then stopped, then hung, {args.seconds:.0f} s each; one "
        f"visitor on {PAGE}, a log-in every 5th visit"
        + (f" and an organizer's upload every {args.uploads_every}th" if wanted else "")
        + f"; gunicorn {args.workers} workers ({len(logs)} games' logs ready)"
    )
    half = len(logs) // 2
    redis_run(
        "before (Django's RedisCache)", "bench.settings_plain_cache", args, (session, logs[:half])
    )
    redis_run("after (config/cache.py)", "config.settings.base", args, (session, logs[half:]))


if __name__ == "__main__":
    main()
