"""A championship day under load (issue 36): gunicorn on PostgreSQL, a scratch database.

One open tournament of PLAYERS account-less players, each with a private result link (a
phone). In order, each step through HTTP against gunicorn (``bench.settings_scale``: the
site plus ``/bench/trivial/``, ``HttpResponse("ok")`` behind every middleware, measured in
the same run as the peer of every figure):

1. **trivial**: CLIENTS clients for SECONDS;
2. **phones**: every phone opens its private link (the session that acts at the table);
3. **check-in**: the desk checks every player in (JSON posts, ``--desks`` at once);
4. **draw**: the organizer draws round 1 (``PLAYERS/4`` tables), one request;
5. **results** (per round, ``--rounds``): at every table two phones enter the same
   placings at once (the second confirms), CLIENTS requests at a time, while
   ``--projectors`` projectors poll the fragment with their ETag every second and the desk
   polls its tables page every 2 s; then the next round is drawn and the time until a
   projector shows it is taken;
6. **projector**: CLIENTS clients poll the projector's fragment with its ETag (304) for
   SECONDS, then without (the full fragment).

Printed: requests/s, p50/p95/max per kind and their ratio to the trivial view's, errors,
the time from the first result to the last confirmation, the draw's time, the projector's
delay. Then **queries per request** at 50 and PLAYERS players (Django test client, in
this process), which must not grow with the field.

    .venv/bin/python bench/championship.py [--players 200] [--clients 20] [--seconds 8]
        [--workers 2] [--rounds 2] [--projectors 3] [--desks 4] [--skip-http]
        [--broker redis://127.0.0.1:6379/12]

BENCH_DATABASE_URL (scratch, dropped and made again; default maedn_champ_bench) and
BENCH_PORT (25080) override the defaults. Not the production setup's nginx: gunicorn alone;
without ``--broker`` the tasks (standings, ratings) run inside the confirming request.
That is a stress test (CLIENTS phones posting as fast as they can).

**``--day``: the issue's target, a day on the production topology.** nginx from
``config/nginx.conf.template`` (``tests.processes.nginx_from_template``, as ``make
prod-local`` fills it in; its per-address limits as they are) in front of gunicorn as the
README's production sequence runs it (``-c config/gunicorn.conf.py``, ``--workers`` 4,
``--timeout 30``, ``--max-requests 1000`` with jitter), one Celery worker with beat in it
on the Redis broker ``--broker``, the Redis cache ``--cache``, PostgreSQL, DEBUG off, the
default throttles. PLAYERS account-less players, all checked in (in process, before the
clock starts); each phone opens its private link; the desk draws round 1. Then per round
(``--rounds``, 7) every table's phones act over ``--round-window`` seconds (120; e.g. 30
for a quick run), spread at random (``--seed``): one player opens the table page, enters
the placings a little later (the browser follows the redirect to the page), another opens
the page and presses *Confirm*, the other two look at it once; all the while three
projectors (``--projectors``) poll the fragment with their ETag 3 s after each answer (as
``static/js/projector.js``), the desk reloads its tables page every ``--desk-every``
seconds (5: the page has no refresh of its own), and the trivial view is fetched once a
second through the same nginx and gunicorn (the peer of every figure, at the same load).
Right after the last confirmation the desk presses *Draw round N* (after round 7: a
roll-off at the desk for a tie at the cut, in process, then *Seat the final table*), and
the time until every projector shows it is taken; the final table's phones play last.
Printed: per request kind n, p50/p95/max and p95 against the trivial view's, errors (any
status outside 2xx/3xx, or no answer), the draw's delay after the last confirmation, the
projectors' delay after the draw, the load average::

    .venv/bin/python -u bench/championship.py --day [--round-window 120] [--rounds 7]
        [--players 200] [--workers 4] --broker redis://127.0.0.1:6379/12
        [--cache redis://127.0.0.1:6379/13]

``TEST_PORT_RANGE`` (``first-last``) keeps gunicorn's and nginx's ports in a range.
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import queue
import random
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn_champ_bench"
)
PORT = int(os.environ.get("BENCH_PORT", "25080"))
ENV = dict(
    os.environ,
    DATABASE_URL=DB_URL,
    DEBUG="0",
    SECRET_KEY="bench-only-not-secret",
    ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
    SECURE_SSL_REDIRECT="0",
    ALLOW_PLAIN_HTTP="1",
    LOG_LEVEL="WARNING",
    DJANGO_SETTINGS_MODULE="bench.settings_scale",
    EMAIL_BACKEND="console",
    CACHE_URL="locmem://",
    # the desk is one signed-in organizer posting 200 check-ins: not a flood
    THROTTLE_SUBMISSIONS="100000/min",
)
ENV.pop("CELERY_BROKER_URL", None)
CSRF = secrets.token_hex(16)  # 32 characters: the cookie's secret and the header's token


def prepare() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=ENV,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def django_setup() -> None:
    os.environ.update(ENV)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    import django

    django.setup()


def make_day(players: int, name: str, rounds: int, final: int | None = None):
    """An open tournament of ``players`` account-less players with private links; returns
    (organizer, league, {entry id: link token})."""
    from django.contrib.auth import get_user_model

    from tournaments.models import League
    from tournaments.services.entries import accountless_player_create
    from tournaments.services.leagues import league_create
    from tournaments.services.result_links import result_link_create

    org, _ = get_user_model().objects.get_or_create(
        username=f"desk-{name}", defaults={"is_staff": True}
    )
    league = league_create(
        owner=org,
        name=name,
        format="open",
        games_planned=rounds,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
        final_table_size=final,
    )
    tokens = {}
    for i in range(players):
        entry = accountless_player_create(league=league, by=org, name=f"{name} Player {i:03d}")
        tokens[entry.pk] = result_link_create(entry=entry, by=org)[1]
    from tournaments.services import championship as champ

    champ.checkin_open(league=league, by=org)
    return org, League.objects.get(pk=league.pk), tokens


# --- HTTP ---------------------------------------------------------------------------------


def request(method: str, path: str, headers=None, body: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    return response.status, elapsed, response, data


def post(path: str, session: str, fields: dict, accept_json: bool = False):
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "Content-Type": "application/x-www-form-urlencoded",
    }
    if accept_json:
        headers["Accept"] = "application/json"
    return request("POST", path, headers, urlencode(fields))


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.statuses: dict[str, dict[int, int]] = {}

    def add(self, kind: str, status: int, elapsed: float) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(elapsed)
            codes = self.statuses.setdefault(kind, {})
            codes[status] = codes.get(status, 0) + 1

    def line(self, kind: str, seconds: float | None = None, trivial_p95: float | None = None):
        times = sorted(self.times.get(kind, []))
        if not times:
            return f"  {kind}: no requests"
        p95 = times[int(0.95 * (len(times) - 1))]
        rate = f"{len(times) / seconds:.0f} req/s, " if seconds else ""
        ratio = f" (p95 {p95 / trivial_p95:.1f}x the trivial view's)" if trivial_p95 else ""
        return (
            f"  {kind}: {len(times)} requests, {rate}p50 {statistics.median(times) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms{ratio}, "
            f"statuses {self.statuses[kind]}"
        )

    def p95(self, kind: str) -> float:
        times = sorted(self.times[kind])
        return times[int(0.95 * (len(times) - 1))]


def flood(path: str, clients: int, seconds: float, headers=None) -> tuple[Stats, float]:
    stats, stop = Stats(), time.monotonic() + seconds

    def client():
        while time.monotonic() < stop:
            status, elapsed, _r, _d = request("GET", path, headers)
            stats.add("get", status, elapsed)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return stats, len(stats.times.get("get", [])) / seconds


def run_pool(jobs: list, clients: int) -> None:
    work: queue.Queue = queue.Queue()
    for job in jobs:
        work.put(job)

    def worker():
        while True:
            try:
                job = work.get_nowait()
            except queue.Empty:
                return
            job()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def open_phones(tokens: dict[int, str], clients: int, stats: Stats) -> dict[int, str]:
    """Each phone opens its private link; returns {entry id: session id}."""
    sessions: dict[int, str] = {}

    def phone(entry_id: int, token: str):
        def job():
            status, elapsed, response, _ = request("GET", f"/r/{token}/")
            stats.add("open link", status, elapsed)
            for header, value in response.getheaders():
                if header.lower() == "set-cookie" and value.startswith("sessionid="):
                    sessions[entry_id] = value.split(";")[0].split("=", 1)[1]

        return job

    run_pool([phone(e, t) for e, t in tokens.items()], clients)
    return sessions


def tables_of(league, number: int):
    from tournaments.models import Fixture

    return [
        (f.pk, [s.entry_id for s in f.seats.order_by("position")])
        for f in Fixture.objects.filter(league=league, round=number).order_by("number")
    ]


class Pollers:
    """Projectors polling the fragment with their ETag every second, the desk its tables
    page every 2 s, until stopped; each projector notes when it first sees ``wanted``."""

    def __init__(self, slug: str, projectors: int, desk_session: str, stats: Stats):
        self.slug, self.stats, self.desk = slug, stats, desk_session
        self.stop = threading.Event()
        self.wanted: bytes | None = None
        self.seen_at: list[float] = []
        self.threads = [threading.Thread(target=self.projector) for _ in range(projectors)]
        self.threads.append(threading.Thread(target=self.desk_poll))
        for t in self.threads:
            t.start()

    def projector(self):
        etag = None
        seen = False
        while not self.stop.is_set():
            headers = {"If-None-Match": etag} if etag else {}
            path = f"/leagues/{self.slug}/projector/panels/"
            status, elapsed, response, data = request("GET", path, headers)
            self.stats.add("projector poll", status, elapsed)
            etag = response.getheader("ETag") or etag
            if self.wanted and not seen and status == 200 and self.wanted in data:
                seen = True
                self.seen_at.append(time.monotonic())
            self.stop.wait(1.0)

    def desk_poll(self):
        while not self.stop.is_set():
            status, elapsed, _r, _d = request(
                "GET", f"/leagues/{self.slug}/desk/tables/", {"Cookie": f"sessionid={self.desk}"}
            )
            self.stats.add("desk tables poll", status, elapsed)
            self.stop.wait(2.0)

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join()


def _wait_for_server() -> None:
    for _ in range(300):  # (through nginx: a 502 until gunicorn serves)
        try:
            if request("GET", "/bench/trivial/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)


def _desk_checks_in(args, slug: str, desk: str, tokens, stats, p95: float) -> None:
    """The desk checks every player in (``args.desks`` at once), then loads the list."""
    checkin = f"/leagues/{slug}/desk/check-in/"

    def check_in(e):
        stats.add("check-in", *post(checkin, desk, {"act": f"in:{e}"}, accept_json=True)[:2])

    start = time.monotonic()
    run_pool([lambda e=e: check_in(e) for e in tokens], args.desks)
    print(stats.line("check-in", time.monotonic() - start, p95))
    status, elapsed, _r, _d = request("GET", checkin, {"Cookie": f"sessionid={desk}"})
    stats.add("check-in list", status, elapsed)
    print(stats.line("check-in list", None, p95))


def _phone_posts(tables, sessions, stats) -> list:
    """Two phones at each table enter the same placings: one job each."""
    jobs = []
    for pk, seats in tables:
        form = {"do": "enter", **{f"place_{e}": i + 1 for i, e in enumerate(seats)}}
        jobs += [
            lambda pk=pk, e=e, form=form: stats.add(
                "result from a phone", *post(f"/tables/{pk}/", sessions[e], form)[:2]
            )
            for e in seats[:2]
        ]
    return jobs


def _next_round_on_the_wall(args, pollers, number: int, draw: str, desk: str) -> None:
    """Draw round ``number + 1`` and wait for the projectors to show it."""
    pollers.wanted = f"Round {number + 1}".encode()
    drawn_at = time.monotonic()
    status, elapsed, _r, _d = post(draw, desk, {})
    print(f"  draw of round {number + 1}: {elapsed * 1000:.0f} ms, {status}")
    deadline = time.monotonic() + 15
    while len(pollers.seen_at) < args.projectors and time.monotonic() < deadline:
        time.sleep(0.05)
    if pollers.seen_at:
        print(
            f"  projectors showing round {number + 1}: "
            f"{len(pollers.seen_at)} of {args.projectors}, the last "
            f"{max(pollers.seen_at) - drawn_at:.1f} s after the draw's request"
        )


def _play_round(args, league, number: int, draw: str, desk: str, sessions, stats) -> None:
    from tournaments.models import Fixture

    tables = tables_of(league, number)
    pollers = Pollers(league.slug, args.projectors, desk, stats)
    jobs = _phone_posts(tables, sessions, stats)
    start = time.monotonic()
    run_pool(jobs, args.clients)
    entered = time.monotonic() - start
    confirmed = Fixture.objects.filter(league=league, round=number, status="confirmed").count()
    print(
        f"  round {number}: {len(jobs)} phone posts for {len(tables)} tables in "
        f"{entered:.1f} s; {confirmed} of {len(tables)} tables confirmed"
    )
    if number < args.rounds:
        _next_round_on_the_wall(args, pollers, number, draw, desk)
    pollers.finish()


def _projector_floods(args, slug: str, trivial_rate: float, p95: float) -> None:
    fragment = f"/leagues/{slug}/projector/panels/"
    etag = request("GET", fragment)[2].getheader("ETag")
    polled, rate = flood(fragment, args.clients, args.seconds, {"If-None-Match": etag})
    print(
        f"  projector fragment, unchanged (304): {rate:.0f} req/s = "
        f"{rate / trivial_rate:.2f}x the trivial view; "
        f"{polled.line('get', None, p95).strip()}"
    )
    full, rate = flood(fragment, args.clients, args.seconds)
    print(
        f"  projector fragment, full ({len(request('GET', fragment)[3]) / 1000:.1f} kB): "
        f"{rate:.0f} req/s = {rate / trivial_rate:.2f}x the trivial view; "
        f"{full.line('get', None, p95).strip()}"
    )


def _day_over_http(args, league, desk: str, tokens) -> None:
    one, five, _ = os.getloadavg()
    tasks = f"on a Celery worker ({args.broker})" if args.broker else "inline (no broker)"
    print(
        f"\nHTTP: gunicorn with {args.workers} sync workers, PostgreSQL; {args.players} "
        f"players, {args.clients} clients at once; tasks {tasks}"
        f"; load average {one:.1f} {five:.1f}"
    )
    trivial, trivial_rate = flood("/bench/trivial/", args.clients, args.seconds)
    p95 = trivial.p95("get")
    print(f"  trivial view: {trivial_rate:.0f} req/s, p95 {p95 * 1000:.1f} ms")
    stats = Stats()
    start = time.monotonic()
    sessions = open_phones(tokens, args.clients, stats)
    print(stats.line("open link", time.monotonic() - start, p95))
    _desk_checks_in(args, league.slug, desk, tokens, stats, p95)
    draw = f"/leagues/{league.slug}/actions/draw-round/"
    status, elapsed, _r, _d = post(draw, desk, {})
    n = len(tables_of(league, 1))
    print(f"  draw of round 1 ({n} tables): {elapsed * 1000:.0f} ms, {status}")
    for number in range(1, args.rounds + 1):
        _play_round(args, league, number, draw, desk, sessions, stats)
    for kind in ("result from a phone", "projector poll", "desk tables poll"):
        print(stats.line(kind, None, p95))
    _projector_floods(args, league.slug, trivial_rate, p95)


def http_day(args, league, org, tokens) -> None:
    from django.test import Client

    from tests.processes import Gunicorn

    desk_client = Client()
    desk_client.force_login(org)
    desk = desk_client.cookies["sessionid"].value
    server = Gunicorn(ENV, port=PORT, workers=args.workers, log_level="warning", max_requests=0)
    worker = None
    if args.broker:  # the standings and ratings on a worker, as in production
        from tests.processes import CeleryWorker

        worker = CeleryWorker(ENV, log_path=ROOT / "var" / "bench-championship-worker.log")
    try:
        _wait_for_server()
        _day_over_http(args, league, desk, tokens)
    finally:
        server.stop()
        if worker is not None:
            worker.stop()


# --- the production day (``--day``) -------------------------------------------------------

RESULT_PK = re.compile(rb'name="result" value="(\d+)"')
DAY_KINDS = (
    "enter",
    "confirm",
    "table page",
    "projector poll",
    "projector poll, changed (200)",
    "desk poll",
    "draw",
    "final table",
    "trivial",
)


def day_env(args) -> None:
    """The production settings of ``make prod-local`` (``config.settings.base`` from the
    environment; ``bench.settings_scale`` adds only ``/bench/trivial/``): the Redis cache
    shared by every process, the Redis broker, one proxy in front, the default throttles."""
    ENV.update(
        CELERY_BROKER_URL=args.broker,
        CACHE_URL=args.cache,
        NUM_PROXIES="1",
    )
    ENV.pop("THROTTLE_SUBMISSIONS", None)  # production's 30/min per phone's link


class DayStats(Stats):
    """Stats that also keep the requests that failed (a refused connection: status 0)."""

    def call(self, kind: str, method: str, path: str, headers=None, body=None):
        try:
            status, elapsed, response, data = request(method, path, headers, body)
        except OSError:
            self.add(kind, 0, 0.0)
            return 0, None, b""
        self.add(kind, status, elapsed)
        if kind == "projector poll" and status == 200:
            self.add("projector poll, changed (200)", status, elapsed)
        return status, response, data

    def errors(self, kind: str) -> int:
        return sum(n for code, n in self.statuses.get(kind, {}).items() if not 200 <= code < 400)

    def row(self, kind: str, trivial_p95: float) -> str:
        times = sorted(self.times.get(kind, []))
        if not times:
            return f"| {kind} | 0 | | | | | |"
        p95 = times[math.ceil(0.95 * len(times)) - 1]  # (n < 20: the max)
        return (
            f"| {kind} | {len(times)} | {statistics.median(times) * 1000:.0f} | "
            f"{p95 * 1000:.0f} | {times[-1] * 1000:.0f} | {p95 / trivial_p95:.1f}× | "
            f"{self.errors(kind)} |"
        )


def _form_headers(session: str) -> dict:
    return {
        "Cookie": f"sessionid={session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "Content-Type": "application/x-www-form-urlencoded",
    }


class Watchers:
    """The room's pollers for the whole day: ``projectors`` projectors fetching the fragment
    with their ETag 3 s after each answer (``static/js/projector.js``), the desk reloading
    its tables page every ``desk_every`` s (the page has no refresh of its own: a person
    pressing reload), and the trivial view once a second (the peer, same load). Each
    projector notes when it first shows ``wanted``."""

    def __init__(self, slug: str, projectors: int, desk: str, desk_every: float, stats):
        self.slug, self.desk, self.desk_every, self.stats = slug, desk, desk_every, stats
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.wanted: bytes | None = None
        self.seen_at: dict[int, float] = {}
        self.threads = [
            threading.Thread(target=self.projector, args=(i, i * 3.0 / projectors))
            for i in range(projectors)
        ]
        self.threads += [
            threading.Thread(target=self.desk_poll),
            threading.Thread(target=self.trivial),
        ]
        for t in self.threads:
            t.start()

    def expect(self, text: bytes) -> None:
        with self.lock:
            self.wanted, self.seen_at = text, {}

    def projector(self, index: int, offset: float) -> None:
        self.stats.call("projector page", "GET", f"/leagues/{self.slug}/projector/")
        self.stop.wait(offset)
        etag = None
        while not self.stop.is_set():
            headers = {"X-Requested-With": "fetch"}  # as projector.js fetches it
            if etag:
                headers["If-None-Match"] = etag
            path = f"/leagues/{self.slug}/projector/panels/"
            status, response, data = self.stats.call("projector poll", "GET", path, headers)
            if status == 200:
                etag = response.getheader("ETag") or etag
                with self.lock:
                    if self.wanted and self.wanted in data and index not in self.seen_at:
                        self.seen_at[index] = time.monotonic()
            self.stop.wait(3.0)

    def desk_poll(self) -> None:
        while not self.stop.is_set():
            path = f"/leagues/{self.slug}/desk/tables/"
            self.stats.call("desk poll", "GET", path, {"Cookie": f"sessionid={self.desk}"})
            self.stop.wait(self.desk_every)

    def trivial(self) -> None:
        while not self.stop.is_set():
            self.stats.call("trivial", "GET", "/bench/trivial/")
            self.stop.wait(1.0)

    def wait_seen(self, projectors: int, timeout: float) -> float | None:
        """When the last projector showed ``wanted`` (None: not all within ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.seen_at) >= projectors:
                    return max(self.seen_at.values())
            time.sleep(0.05)
        return None

    def finish(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join()


def _table_plan(rng: random.Random, seats: list[int], window: float) -> list[tuple]:
    """One table's phones in a round: the enterer opens the table page, enters the placings
    a little later (the redirect's page follows), another player opens the page and
    confirms; the other two look at it once. Times spread over 90 % of ``window``."""
    enterer, confirmer = rng.sample(seats, 2)
    order = list(seats)
    rng.shuffle(order)
    t_open = rng.uniform(0, 0.6 * window)
    t_enter = t_open + rng.uniform(0.02, 0.1) * window
    t_look = t_enter + rng.uniform(0.02, 0.15) * window
    t_confirm = t_look + rng.uniform(0.01, 0.05) * window
    plan = [
        (t_open, "look", enterer, None),
        (t_enter, "enter", enterer, order),
        (t_look, "look", confirmer, None),
        (t_confirm, "confirm", confirmer, None),
    ]
    plan += [
        (rng.uniform(0, 0.9 * window), "look", e, None)
        for e in seats
        if e not in (enterer, confirmer)
    ]
    return sorted(plan, key=lambda step: (step[0], step[1] != "look"))


def _run_table(pk: int, plan, sessions, stats: DayStats, start: float, done: dict) -> None:
    page = f"/tables/{pk}/"
    result_pk = None
    for at, what, entry, order in plan:
        time.sleep(max(0.0, start + at - time.monotonic()))
        cookie = {"Cookie": f"sessionid={sessions[entry]}"}
        if what == "look":
            status, _r, data = stats.call("table page", "GET", page, cookie)
            if found := RESULT_PK.search(data or b""):
                result_pk = found.group(1).decode()
            continue
        if what == "enter":
            fields = {"do": "enter", **{f"place_{e}": i + 1 for i, e in enumerate(order)}}
        else:
            fields = {"do": "confirm", "result": result_pk or "0"}
        status, response, _d = stats.call(
            what, "POST", page, _form_headers(sessions[entry]), urlencode(fields)
        )
        if what == "confirm":
            done[pk] = time.monotonic()
        if status in (302, 303):  # the browser follows the redirect to the table page
            stats.call("table page", "GET", response.getheader("Location"), cookie)


def _day_round(args, tables, sessions, stats: DayStats, seed: int):
    """Every table's phones over the round's window (a thread per table), started; returns
    the threads and a function that waits for every table's confirmation and returns the
    moment of the last one (the other phones may still look at their tables after it)."""
    rng = random.Random(seed)
    start, done = time.monotonic(), {}
    threads = [
        threading.Thread(
            target=_run_table,
            args=(pk, _table_plan(rng, seats, args.round_window), sessions, stats, start, done),
        )
        for pk, seats in tables
    ]
    for t in threads:
        t.start()

    def last_confirmation() -> float:
        while len(done) < len(tables) and any(t.is_alive() for t in threads):
            time.sleep(0.01)
        return max(done.values(), default=time.monotonic())

    return threads, last_confirmation


def _roll_off_the_cut(league, org) -> None:
    """The desk records a roll-off for a tie at the final table's cut (not measured: the
    players roll at the desk); at most 6 distinct faces a round, the rest roll again."""
    from tournaments.selectors.open_tournaments import final_table_cut_tie
    from tournaments.services.tie_breaks import tie_break_roll_record

    tied = final_table_cut_tie(league)
    if not tied:
        return
    rounds, left = [], list(tied)
    while len(left) > 1:
        top, rest = (left, []) if len(left) <= 6 else (left[:5], left[5:])
        faces = {name: 6 - i for i, name in enumerate(top)}
        faces.update({name: 1 for name in rest})
        rounds.append(faces)
        left = rest
    tie_break_roll_record(league=league, by=org, rolls=rounds, note="bench")
    print(f"  tie at the final table's cut: {len(tied)} players rolled off at the desk")


def _desk_draws(args, watchers, stats, path: str, kind: str, wanted: bytes, after: float):
    """The desk's button right after the last confirmation; the projectors' delay."""
    watchers.expect(wanted)
    status, _r, _d = stats.call(kind, "POST", path, _form_headers(watchers.desk), "")
    drawn = time.monotonic()
    seen = watchers.wait_seen(args.projectors, 15.0)
    shown = f"{seen - drawn:.1f} s" if seen else "not within 15 s"
    return status, drawn - after, shown, (seen - drawn) if seen else None


def _production_servers(args):
    """gunicorn as the README's production sequence runs it (``-c config/gunicorn.conf.py
    -w 4 --timeout 30 --max-requests 1000 --max-requests-jitter 100``; ``--workers``),
    nginx from the production template in front (its per-address limits as they are:
    a venue's phones share one address too), one Celery worker with beat in it."""
    from tests.processes import CeleryWorker, Gunicorn, free_port, nginx_from_template

    app_port, proxy_port = free_port(), free_port()
    procs = [
        CeleryWorker(
            ENV,
            log_path=ROOT / "var" / "bench-champday-worker.log",
            beat_schedule=ROOT / "var" / f"bench-champday-beat-{os.getpid()}",
        )
    ]
    try:
        procs.append(
            Gunicorn(
                ENV,
                port=app_port,
                workers=args.workers,
                timeout=30,
                log_level="warning",
                config=ROOT / "config" / "gunicorn.conf.py",
            )
        )
        procs.append(
            nginx_from_template(
                port=proxy_port,
                app=f"127.0.0.1:{app_port}",
                asgi=[f"127.0.0.1:{free_port()}"],  # no live play in this bench
                directory=ROOT / "var" / f"bench-champday-nginx-{proxy_port}",
            )
        )
    except Exception:
        for p in procs:
            p.stop()
        raise
    return procs, proxy_port


def _day_report(args, stats: DayStats, rounds: list, loads: list) -> None:
    trivial = stats.p95("trivial")
    print(
        f"\nper request kind (ms), the peer: the trivial view polled once a second in the "
        f"same gunicorn through nginx (p95 {trivial * 1000:.0f} ms)"
    )
    print("| request | n | p50 | p95 | max | p95 / trivial | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind in (*DAY_KINDS, "projector page"):
        print(stats.row(kind, trivial))
    errors = sum(stats.errors(k) for k in stats.times)
    drawn = [r[1] for r in rounds]
    shown = [r[3] for r in rounds if r[3] is not None]
    print(
        f"\nerrors: {errors}; last confirmation → next round drawn: max {max(drawn):.2f} s "
        f"(median {statistics.median(drawn):.2f} s); draw → every projector shows it: max "
        f"{max(shown, default=float('nan')):.1f} s ({len(shown)} of {len(rounds)} within 15 s)"
    )
    print(
        f"load average (1 min) during the day: min {min(loads):.1f}, max {max(loads):.1f}; "
        f"5 min at the end {os.getloadavg()[1]:.1f}"
    )


def _play_day(args, league, org, desk: str, sessions, stats: DayStats) -> None:
    from tournaments.models import Fixture

    slug = league.slug
    loads, rounds = [os.getloadavg()[0]], []
    draw = f"/leagues/{slug}/actions/draw-round/"
    status, _r, _d = stats.call("draw", "POST", draw, _form_headers(desk), "")
    print(f"  round 1 drawn ({len(tables_of(league, 1))} tables): {status}")
    watchers = Watchers(slug, args.projectors, desk, args.desk_every, stats)
    try:
        for number in range(1, args.rounds + 1):
            tables = tables_of(league, number)
            threads, last_confirmation = _day_round(
                args, tables, sessions, stats, args.seed + number
            )
            last = last_confirmation()
            if number < args.rounds:
                path, kind, wanted = draw, "draw", f"Round {number + 1}".encode()
            else:  # the roll-off at the desk takes its minute: the button after it
                _roll_off_the_cut(league, org)
                last = time.monotonic()
                path, kind = f"/leagues/{slug}/actions/final-table/", "final table"
                wanted = b"Final table"
            status, after, shown, seen = _desk_draws(
                args, watchers, stats, path, kind, wanted, last
            )
            confirmed = Fixture.objects.filter(
                league=league, round=number, status="confirmed"
            ).count()
            for t in threads:
                t.join()
            rounds.append((number, after, shown, seen))
            loads.append(os.getloadavg()[0])
            print(
                f"  round {number}: {confirmed}/{len(tables)} tables confirmed; {kind} "
                f"{status} {after:.2f} s after the last confirmation; the projectors show it "
                f"{shown} later; load {loads[-1]:.1f}"
            )
        final = Fixture.objects.filter(league=league, stage=Fixture.Stage.FINAL)
        finals = [(f.pk, [s.entry_id for s in f.seats.order_by("position")]) for f in final]
        for t in _day_round(args, finals, sessions, stats, args.seed)[0]:
            t.join()
        counted = final.filter(status="confirmed").count()
        print(f"  final table: {counted}/{len(finals)} confirmed")
    finally:
        watchers.finish()
    _day_report(args, stats, rounds, loads)


def production_day(args) -> None:
    """The issue's day on the production topology (the module's docstring, ``--day``)."""
    global PORT
    from django.test import Client

    org, league, tokens = make_day(args.players, "Championship", args.rounds, final=4)
    from tournaments.services import championship as champ

    for entry in league.entries.all():
        champ.entry_check_in(entry=entry, by=org)
    desk_client = Client()
    desk_client.force_login(org)
    desk = desk_client.cookies["sessionid"].value
    procs, PORT = _production_servers(args)
    try:
        _wait_for_server()
        one, five, _ = os.getloadavg()
        print(
            f"\nproduction day: nginx → gunicorn ({args.workers} sync workers, "
            f"--max-requests 1000), a Celery worker with beat ({args.broker}), cache "
            f"{args.cache}, PostgreSQL; {args.players} players checked in, {args.rounds} "
            f"rounds and the final table, a round's phones over {args.round_window:.0f} s, "
            f"{args.projectors} projectors every 3 s, the desk every {args.desk_every:.0f} s; "
            f"load average {one:.1f} {five:.1f}"
        )
        stats = DayStats()
        start = time.monotonic()
        sessions = open_phones(tokens, 10, stats)
        print(stats.line("open link", time.monotonic() - start))
        _play_day(args, league, org, desk, sessions, stats)
    finally:
        for p in reversed(procs):
            p.stop()


# --- queries per request ------------------------------------------------------------------


def queries(players: int) -> dict[str, tuple[int, int]]:
    """(queries, bytes) of each request of the day with ``players`` players."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.services import championship as champ
    from tournaments.services.open_tournaments import open_round_draw

    org, league, tokens = make_day(players, f"Queries {players}", 2)
    desk = Client()
    desk.force_login(org)
    out: dict[str, tuple[int, int]] = {}

    def measure(name, call):
        with CaptureQueriesContext(connection) as ctx:
            response = call()
        out[name] = (len(ctx.captured_queries), len(getattr(response, "content", b"") or b""))
        if os.environ.get("BENCH_SHOW_QUERIES") == name:
            for q in ctx.captured_queries:
                print("   ", q["sql"][:160])
        return response

    entries = list(tokens)
    checkin = f"/leagues/{league.slug}/desk/check-in/"
    measure(
        "check-in (desk, JSON)",
        lambda: desk.post(checkin, {"act": f"in:{entries[0]}"}, HTTP_ACCEPT="application/json"),
    )
    for e in entries[1:]:
        champ.entry_check_in(entry=league.entries.get(pk=e), by=org)
    measure("check-in list", lambda: desk.get(checkin))
    measure("draw (service)", lambda: open_round_draw(league=league, by=org))
    table = league.fixtures.filter(round=1).order_by("number").first()
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    phones = []
    for e in seats[:2]:
        phone = Client()
        phone.get(f"/r/{tokens[e]}/")
        phones.append(phone)
    page = f"/tables/{table.pk}/"
    form = {"do": "enter", **{f"place_{e}": i + 1 for i, e in enumerate(seats)}}
    measure("table page", lambda: phones[0].get(page))
    measure("table: enter", lambda: phones[0].post(page, form))
    measure("table: the 2nd phone confirms", lambda: phones[1].post(page, form))
    measure("desk tables", lambda: desk.get(f"/leagues/{league.slug}/desk/tables/"))
    projector = Client()
    measure("projector page", lambda: projector.get(f"/leagues/{league.slug}/projector/"))
    fragment = f"/leagues/{league.slug}/projector/panels/"
    response = measure("projector fragment", lambda: projector.get(fragment))
    measure(
        "projector fragment (304)",
        lambda: projector.get(fragment, HTTP_IF_NONE_MATCH=response["ETag"]),
    )
    measure("classification", lambda: projector.get(f"/leagues/{league.slug}/classification/"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--workers", type=int, default=None, help="2 (4 with --day)")
    parser.add_argument("--rounds", type=int, default=None, help="2 (7 with --day)")
    parser.add_argument("--projectors", type=int, default=3)
    parser.add_argument("--desks", type=int, default=4)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument(
        "--broker", default="", help="redis://…: tasks on a Celery worker (default: inline)"
    )
    parser.add_argument("--day", action="store_true", help="the issue's day in production")
    parser.add_argument("--round-window", type=float, default=120.0)
    parser.add_argument("--desk-every", type=float, default=5.0)
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    args.rounds = args.rounds or (7 if args.day else 2)
    args.workers = args.workers or (4 if args.day else 2)  # --day: the README's -w 4
    if args.day:
        if not args.broker:
            parser.error("--day needs --broker redis://… (production runs a worker)")
        day_env(args)
    if args.broker:
        ENV["CELERY_BROKER_URL"] = args.broker
    prepare()
    django_setup()
    if args.day:
        production_day(args)
        return
    if not args.skip_http:
        org, league, tokens = make_day(args.players, "Championship", args.rounds)
        http_day(args, league, org, tokens)
    small, large = queries(50), queries(args.players)
    print(f"\nqueries per request (and bytes), 50 and {args.players} players:")
    for name in small:
        (q50, b50), (qn, bn) = small[name], large[name]
        print(f"  {name:32} {q50:3} / {qn:3} queries   {b50 / 1000:6.1f} / {bn / 1000:6.1f} kB")


if __name__ == "__main__":
    main()
