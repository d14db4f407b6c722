"""Standings benchmarks (issue: results pipeline).

1. Recompute of a league with 10,000 confirmed games: wall time and number of queries
   (the query count must not grow with the number of games).
2. Upload → snapshot updated, through a real Celery worker on Redis: p50/p95 over N uploads.
3. ``--contention``: an upload's own time (tasks not run) alone and while a recompute of
   its 10,000-game league runs in another connection, as a ratio (issue 31: the recompute
   held the league's row, so the upload's revision bump waited for all of it).
4. ``--production`` (alone): uploads through the production path (issue 31) — nginx from
   config/nginx.conf.template, gunicorn ``-w 2`` as the README runs it (DEBUG=0), a Celery
   worker of 2 processes on Redis, a league of ``--games`` counted games; at each of
   ``--clients`` concurrencies: uploads/s, POST p50/p95 and upload → the public standings
   p50/p95 (token-authenticated players' uploads), beside a trivial authenticated POST at
   the same concurrency (the ratio is printed); then every upload counted exactly once and
   the table equal to one computed from every game (docs/performance.md, "Uploads through
   the production path").

Runs against PostgreSQL (DATABASE_URL, default a scratch database ``maedn_bench`` on
127.0.0.1; a database named ``…_bench`` or ``…_bench_…`` is dropped and made anew) and
Redis (BENCH_BROKER_URL, default redis://127.0.0.1:6379/14; ``--production`` also caches in
its db 13 unless BENCH_CACHE_URL).

    .venv/bin/python bench/standings.py [--games 10000] [--uploads 200] [--skip-uploads]
                                        [--contention]
    .venv/bin/python bench/standings.py --production --games 12000 [--clients 4,8,16]
                                        [--seconds 20] [--unplayed 2500]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn_bench")
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
os.environ.update(
    DATABASE_URL=DB_URL,
    DEBUG="0",
    SECRET_KEY="bench-only",
    ALLOWED_HOSTS="localhost",
    DJANGO_SETTINGS_MODULE="config.settings.base",
    EMAIL_BACKEND="console",
    CACHE_URL="locmem://",
    LOG_LEVEL="WARNING",
)


def ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    admin_url = DB_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if name == "maedn_bench" or name.endswith("_bench") or "_bench_" in name:
            # a scratch database (maedn_bench, maedn_<who>_bench…): from nothing each run
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(broker: str | None) -> None:
    if broker:
        os.environ["CELERY_BROKER_URL"] = broker
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_league(players: int, name: str, *, accounts: bool = False):
    """A 2T league of ``players`` entries (20 DRRs, no confirmation needed); with
    ``accounts`` every player has an account of their own (``bench-<name>-p<i>``)."""
    from django.contrib.auth import get_user_model

    from tournaments.services.leagues import entry_add, league_create
    from tournaments.services.players import player_create

    User = get_user_model()
    owner, _ = User.objects.get_or_create(username=f"bench-{name}")
    league = league_create(
        owner=owner,
        name=f"bench {name} {time.time_ns()}",
        format="2T",
        drr_count=20,
        confirmation_required=False,
    )
    for i in range(players):
        user = None
        if accounts:
            user, _ = User.objects.get_or_create(username=f"{league.slug}-p{i}")
        player = player_create(name=f"{league.slug}-p{i}", user=user, created_by=owner)
        entry_add(league=league, player=player, by=owner)
    if accounts:  # as if every player had accepted the invitation
        league.entries.update(state="accepted")
    return owner, league


def counted_league(games: int, unplayed: int, *, accounts: bool = False):
    """A 32-player league with ``games`` counted results (stored directly, as an
    organizer's) and at least ``unplayed`` fixtures after them without one; the league,
    its owner and the unplayed fixtures (in schedule order)."""
    from tournaments.models import Result
    from tournaments.services.schedule import cycle_create

    players = 32  # one DRR = 992 games
    owner, league = make_league(players, "recompute", accounts=accounts)
    t0 = time.perf_counter()
    while league.fixtures.count() < games + unplayed:
        cycle_create(league=league, by=owner, seed=league.cycles.count() + 1)
    fixtures = list(league.fixtures.prefetch_related("seats").order_by("pk"))
    fixtures, open_fixtures = fixtures[:games], fixtures[games:]
    results = []
    for i, fixture in enumerate(fixtures):
        a, b = [s.entry_id for s in fixture.seats.all()]
        winner, loser = (a, b) if (i * 7919) % 3 else (b, a)
        results.append(
            Result(
                fixture=fixture,
                source="organizer",
                state="confirmed",
                winner_id=winner,
                placings=[winner, loser],
                counted_pawns={str(winner): 4, str(loser): i % 4},
                completed_colours={str(winner): 1, str(loser): 0},
                game_time=600 + i % 900,
            )
        )
    Result.objects.bulk_create(results, batch_size=2000)
    league.fixtures.filter(pk__in=[f.pk for f in fixtures]).update(status="confirmed")
    print(
        f"setup: {len(fixtures)} confirmed games, {len(open_fixtures)} unplayed, "
        f"{players} players ({time.perf_counter() - t0:.1f} s)"
    )
    return owner, league, open_fixtures


def simulated_game(league, fixture, seats) -> dict:
    """The log of a game of ``fixture`` played by the engine's heuristic players (seeded by
    the fixture: the same log every run), for its seats in order."""
    from games.engine import simulate_game

    return simulate_game(
        rules=league.rules_spec,
        players={s.entry.player.name: s.colours for s in seats},
        first=fixture.starting_colour,
        bots="heuristic",
        seed=fixture.pk,
    )


def bench_recompute(games: int, keep_open: int = 0):
    from django.db import connection
    from django.db.models import F
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import League
    from tournaments.services.standings import standings_recompute

    owner, league, open_fixtures = counted_league(games - keep_open, keep_open)
    open_fixtures = open_fixtures[:keep_open]
    fixtures = range(games - keep_open)
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    start = time.perf_counter()
    standings_recompute(league.pk)  # builds the kept per-entry sums (none for bulk rows)
    print(f"first recompute (builds the kept sums): {(time.perf_counter() - start) * 1000:.0f} ms")
    timings, queries = [], []
    for _ in range(5):
        League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            standings_recompute(league.pk)
            timings.append(time.perf_counter() - start)
        queries.append(len(ctx.captured_queries))
    print(
        f"recompute of {len(fixtures)} games: best {min(timings) * 1000:.0f} ms, "
        f"median {statistics.median(timings) * 1000:.0f} ms, queries {queries[0]}"
    )
    return owner, league, open_fixtures


def bench_contention(owner, league, fixtures) -> None:
    import json

    from django.db import connection
    from django.db.models import F

    from ratings.services import ratings
    from tournaments.models import League
    from tournaments.services import analyses, standings
    from tournaments.services.results import game_log_submit

    for module in (standings, ratings, analyses):  # the POST's own cost: tasks not run
        if hasattr(module, "task_send"):
            module.task_send = lambda *args, **kwargs: True
    logs = []
    for fixture in fixtures:
        seats = list(fixture.seats.select_related("entry__player"))
        logs.append(json.dumps(simulated_game(league, fixture, seats)))
    pairs = list(zip(fixtures, logs, strict=True))

    def upload(fixture, text) -> float:
        start = time.perf_counter()
        game_log_submit(fixture=fixture, content=text, by=owner)
        return time.perf_counter() - start

    alone = [upload(*pairs.pop()) for _ in range(3)]
    # the recompute runs in another process (its own connection, no shared GIL), and the
    # upload starts once that process has begun reading the league's results
    import multiprocessing

    fork = multiprocessing.get_context("fork")
    during, recomputes = [], []
    for _ in range(3):
        League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
        computing, took = fork.Event(), fork.Queue()
        connection.close()  # the child must not share this connection
        child = fork.Process(target=_recompute_in_child, args=(league.pk, computing, took))
        child.start()
        computing.wait(60)
        during.append(upload(*pairs.pop()))
        recomputes.append(took.get(timeout=120))
        child.join()
    a, d = statistics.median(alone), statistics.median(during)
    print(
        f"upload alone {a * 1000:.0f} ms, during a recompute {d * 1000:.0f} ms "
        f"(× {d / a:.2f}; the recompute took {statistics.median(recomputes) * 1000:.0f} ms)"
    )


def _recompute_in_child(league_id: int, computing, took) -> None:
    from django.db import connection

    from tournaments.services import standings

    connection.close()  # a connection of its own
    real = standings.outcomes_for  # the first read of the run's inputs

    def load(*args, **kwargs):
        computing.set()
        return real(*args, **kwargs)

    standings.outcomes_for = load
    start = time.perf_counter()
    standings.standings_recompute(league_id)
    took.put(time.perf_counter() - start)
    connection.close()


def bench_uploads(uploads: int) -> None:
    import json

    from tournaments.models import StandingsSnapshot
    from tournaments.services.results import game_log_submit
    from tournaments.services.schedule import cycle_create

    owner, league = make_league(15, "uploads")  # one DRR = 210 games
    cycle_create(league=league, by=owner, seed=1)
    fixtures = list(league.fixtures.prefetch_related("seats__entry__player")[:uploads])
    logs = []
    for fixture in fixtures:
        logs.append(json.dumps(simulated_game(league, fixture, list(fixture.seats.all()))))
    from tests.processes import CeleryWorker

    env = dict(os.environ, CELERY_BROKER_URL=BROKER, DEBUG="0")
    worker = CeleryWorker(env, log_path=ROOT / "var" / "bench-standings-worker.log")
    try:
        from config.celery_app import app, ping

        app.control.purge()
        ping.delay().get(timeout=60)
        latencies = []
        for index, (fixture, text) in enumerate(zip(fixtures, logs, strict=True), start=1):
            start = time.perf_counter()
            game_log_submit(fixture=fixture, content=text, by=owner)
            while not StandingsSnapshot.objects.filter(
                league=league, results_revision__gte=index
            ).exists():
                time.sleep(0.002)
            latencies.append(time.perf_counter() - start)
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
        print(
            f"upload → snapshot through a real worker, {len(latencies)} uploads: "
            f"p50 {p(0.50):.0f} ms, p95 {p(0.95):.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
    finally:
        worker.stop()


# --- 4. --production: uploads through nginx, gunicorn and Celery workers ---------------------


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Timed:
    """The requests of one phase: (start, end, status) each, and what the clients saw."""

    def __init__(self) -> None:
        import threading

        self.lock = threading.Lock()
        self.rows: list[tuple[float, float, int]] = []

    def add(self, start: float, end: float, status: int) -> None:
        with self.lock:
            self.rows.append((start, end, status))

    def ok(self) -> list[tuple[float, float, int]]:
        return [r for r in self.rows if r[2] in (200, 201)]

    def per_second(self, seconds: float) -> float:
        return len(self.ok()) / seconds

    def ms(self, q: float) -> float:
        return _quantile([e - s for s, e, _ in self.ok()], q) * 1000


def _arrivals(
    port: int, rate: float, seconds: float, request, *, connections: int = 32, seed: int = 31
) -> tuple[Timed, float]:
    """Open-loop load: requests arrive at ``rate`` a second on average (exponential gaps, a
    fixed ``seed``: the same schedule every run) for ``seconds``, whatever the server's
    pace, each sent by one of ``connections`` threads with a keep-alive connection. A
    request's time counts from when it was due, so waiting for a free thread counts too (no
    coordinated omission). ``request(connection, due) -> status``."""
    import queue
    import random

    gaps, due, at = random.Random(seed), [], 0.0
    while (at := at + gaps.expovariate(rate)) < seconds:
        due.append(at)
    began = time.perf_counter()
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for at in due:
        todo.put(began + at)

    def next_due() -> float | None:
        try:
            start = todo.get_nowait()
        except queue.Empty:
            return None
        if (wait := start - time.perf_counter()) > 0:
            time.sleep(wait)
        return start

    timed = _threads(port, connections, next_due, request)
    return timed, max(seconds, time.perf_counter() - began)


def _clients(port: int, count: int, seconds: float, request) -> tuple[Timed, float]:
    """``count`` threads, each with one keep-alive connection to 127.0.0.1:``port``, calling
    ``request(connection) -> status`` back to back for ``seconds`` (or until one returns
    None: nothing left to send); the timings and the phase's wall time."""
    began = time.perf_counter()
    stop_at = began + seconds

    def now_until_stop() -> float | None:
        start = time.perf_counter()
        return start if start < stop_at else None

    timed = _threads(port, count, now_until_stop, lambda conn, _start: request(conn))
    return timed, time.perf_counter() - began


def _threads(port: int, count: int, next_start, send) -> Timed:
    """``count`` threads, each with one keep-alive connection to 127.0.0.1:``port``: each
    takes ``next_start()`` (None: stop) and calls ``send(connection, start) -> status``
    (None: nothing left to send), timing it from ``start``."""
    import http.client
    import threading

    timed = Timed()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while (start := next_start()) is not None:
                try:
                    status = send(conn, start)
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    status = 0
                if status is None:
                    return
                timed.add(start, time.perf_counter(), status)
        finally:
            conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return timed


class StampPoller:
    """Polls the public standings fragment (``/leagues/<slug>/standings/table/``) with its
    ETag and ``X-Requested-With: fetch``, as the standings page does (static/js/poll.js),
    every ``pause`` seconds: (when the answer came, the snapshot's results revision) each
    time it changed."""

    def __init__(self, port: int, slug: str, pause: float = 0.02) -> None:
        import threading

        self.port, self.path, self.pause = port, f"/leagues/{slug}/standings/table/", pause
        self.seen: list[tuple[float, int]] = []
        self.polls = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import http.client

        conn, etag = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30), ""
        while not self._stop.is_set():
            try:
                headers = {"X-Requested-With": "fetch"}
                if etag:
                    headers["If-None-Match"] = etag
                conn.request("GET", self.path, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            self.polls += 1
            if response.status == 200:
                etag = response.getheader("ETag") or ""
                # "<league>-<snapshots>-<revision>-<computed at>-<language>"
                self.seen.append((time.perf_counter(), int(etag.strip('"').split("-")[2])))
            time.sleep(self.pause)
        conn.close()

    def revision(self) -> int:
        return self.seen[-1][1] if self.seen else -1

    def shown_at(self, revision: int, after: float) -> float | None:
        """When the poller first saw a snapshot at ``revision`` or later (not before
        ``after``)."""
        for at, seen in self.seen:
            if seen >= revision:
                return max(at, after)
        return None

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


class CpuMeter:
    """CPU seconds used by each of the bench's process groups while a phase runs (issue 31,
    h-upload5: where an upload's CPU goes): gunicorn, the Celery worker and nginx (each
    helper is the leader of its own process group: its members' user + system time, with
    the reaped children's — gunicorn's workers restart after max-requests), the PostgreSQL
    backends of this database (sampled every 0.2 s: a backend that exits loses at most that
    much), this process (the clients, the poller and the revision reads), and the machine's
    busy time (``/proc/stat``: everything else is other sessions' work)."""

    def __init__(self, groups: dict[str, int], database: str) -> None:
        import threading

        self.groups, self.database = groups, database
        self.tick = os.sysconf("SC_CLK_TCK")
        self._lock = threading.Lock()
        self._backends: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _stat(self, pid: int) -> tuple[int, float] | None:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        # fields[2]: process group; [11:15]: utime, stime, cutime, cstime (clock ticks)
        return int(fields[2]), sum(int(v) for v in fields[11:15]) / self.tick

    def _pids(self) -> list[int]:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]

    def _backend_pids(self) -> list[int]:
        import psycopg

        with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
            ).fetchall()
        return [pid for (pid,) in rows]

    def _sample(self) -> None:
        while not self._stop.is_set():
            try:
                pids = self._backend_pids()
            except Exception:  # a missed sample only
                pids = []
            for pid in pids:
                stat = self._stat(pid)
                if stat is not None:
                    with self._lock:
                        self._backends[pid] = stat[1]
            self._stop.wait(0.2)

    def _machine(self) -> float:
        with open("/proc/stat") as f:
            cpu = [int(v) for v in f.readline().split()[1:]]
        return (sum(cpu) - cpu[3] - cpu[4]) / self.tick  # all but idle and iowait

    def read(self) -> dict[str, float]:
        totals = dict.fromkeys(self.groups, 0.0)
        leaders = {pgid: name for name, pgid in self.groups.items()}
        for pid in self._pids():
            stat = self._stat(pid)
            if stat is not None and stat[0] in leaders:
                totals[leaders[stat[0]]] += stat[1]
        with self._lock:
            totals["postgres"] = sum(self._backends.values())
        own = os.times()
        totals["bench"] = own.user + own.system
        totals["machine"] = self._machine()
        return totals

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    @staticmethod
    def per_request(before: dict[str, float], after: dict[str, float], count: int) -> str:
        used = {k: after[k] - before[k] for k in after}
        ours = sum(v for k, v in used.items() if k != "machine")
        parts = [f"{k} {v * 1000 / max(count, 1):.0f}" for k, v in used.items() if k != "machine"]
        return (
            f"CPU ms per request: {', '.join(parts)}; ours {ours * 1000 / max(count, 1):.0f}, "
            f"the machine's {used['machine'] * 1000 / max(count, 1):.0f} "
            f"(others {(used['machine'] - ours) * 1000 / max(count, 1):.0f})"
        )


def _production_env(broker: str, cache: str) -> dict[str, str]:
    """The README's production settings (``config.settings.base`` from the environment;
    ``bench.settings_scale`` adds only the bench's trivial URLs): DEBUG off, the Redis
    cache shared by every process and the Redis broker, one proxy in front. The submission
    throttle (30 a minute per account) is off: 32 players' phones are simulated at 20+
    uploads a second, 40 a minute each."""
    return dict(
        os.environ,
        DATABASE_URL=DB_URL,
        DEBUG="0",
        SECRET_KEY="bench-only-not-secret",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        ALLOW_PLAIN_HTTP="1",
        DJANGO_SETTINGS_MODULE="bench.settings_scale",
        EMAIL_BACKEND="console",
        CACHE_URL=cache,
        CELERY_BROKER_URL=broker,
        NUM_PROXIES="1",
        THROTTLE_SUBMISSIONS="off",
        LOG_LEVEL="WARNING",
    )


def _production_servers(env: dict[str, str], web: int, workers: int):
    """nginx from config/nginx.conf.template in front of gunicorn as the README runs it
    (``-c config/gunicorn.conf.py -w <web> --timeout 30``, max-requests from the config),
    and one Celery worker of ``workers`` processes (prefork) on the default queue; the
    processes and nginx's port."""
    from tests.processes import CeleryWorker, Gunicorn, free_port, listens, nginx_from_template

    app_port, proxy_port = free_port(), free_port()
    log = ROOT / "var" / "bench-uploads-worker.log"
    log.unlink(missing_ok=True)
    # at INFO the worker logs every task's run time: summed per task at the end
    procs = [CeleryWorker(env, log_path=log, concurrency=workers, loglevel="info")]
    try:
        server = Gunicorn(
            env,
            port=app_port,
            workers=web,
            timeout=30,
            log_level="warning",
            config=ROOT / "config" / "gunicorn.conf.py",
        )
        procs.append(server)
        server.wait_until(lambda: listens(app_port), 60, 0.2)
        procs.append(
            nginx_from_template(
                port=proxy_port,
                app=f"127.0.0.1:{app_port}",
                asgi=[f"127.0.0.1:{free_port()}"],  # no live play here
                directory=ROOT / "var" / f"bench-uploads-nginx-{proxy_port}",
            )
        )
    except Exception:
        for proc in procs:
            proc.stop()
        raise
    return procs, proxy_port


def _worker_tasks(log: Path) -> str:
    """The worker's tasks as its INFO log reports them: per task, how many ran and their
    summed and median run time (wall, in the worker's process)."""
    import re

    runs: dict[str, list[float]] = {}
    pattern = re.compile(r"Task (\S+)\[[^\]]+\] succeeded in ([0-9.e-]+)s")
    for line in log.read_text(errors="replace").splitlines():
        if match := pattern.search(line):
            runs.setdefault(match[1], []).append(float(match[2]))
    return "worker tasks (whole run): " + "; ".join(
        f"{name} {len(t)} × median {statistics.median(t) * 1000:.0f} ms = {sum(t):.1f} s"
        for name, t in sorted(runs.items(), key=lambda kv: -sum(kv[1]))
    )


def _upload_jobs(league, fixtures) -> list[tuple[int, str, bytes]]:
    """(fixture id, the token of one of its players, a valid log of it) for each fixture:
    logs made by the engine's computer players, uploaded by a player at the board."""
    import json

    from rest_framework.authtoken.models import Token

    jobs = []
    for n, fixture in enumerate(fixtures):
        seats = list(fixture.seats.select_related("entry__player__user"))
        game = simulated_game(league, fixture, seats)
        user = seats[n % len(seats)].entry.player.user
        token, _ = Token.objects.get_or_create(user=user)
        jobs.append((fixture.pk, token.key, json.dumps(game).encode()))
    return jobs


def bench_production(args) -> None:
    """Uploads through the production path at C concurrent clients (issue 31): uploads/s,
    POST p50/p95, upload → the public standings showing it p50/p95, and the peer (a trivial
    authenticated POST at the same concurrency) in the same run; then every upload counted
    exactly once and the standings equal to a recompute from every game."""
    import threading

    from django.db import connection

    from tournaments.models import League, StandingsRow
    from tournaments.services.standings import standings_recompute

    levels, rates = args.clients, args.rates
    owner, league, unplayed = counted_league(args.games, args.unplayed, accounts=True)
    with connection.cursor() as cursor:  # as a site long in use: statistics of its tables
        cursor.execute("VACUUM ANALYZE")
    started = time.perf_counter()
    standings_recompute(league.pk)
    print(f"first recompute of {args.games} games: {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    jobs = _upload_jobs(league, unplayed[: args.unplayed])
    print(f"{len(jobs)} logs made by the engine ({time.perf_counter() - started:.1f} s)")
    from rest_framework.authtoken.models import Token

    peer_token, _ = Token.objects.get_or_create(user=owner)
    env = _production_env(BROKER, args.cache)
    connection.close()
    procs, port = _production_servers(env, args.web, args.workers)
    poller = None
    try:
        from config.celery_app import app, ping

        app.control.purge()
        ping.delay().get(timeout=60)
        poller = StampPoller(port, league.slug)
        names = ("celery", "gunicorn", "nginx")  # the order _production_servers starts them
        groups = {n: p.process.pid for n, p in zip(names, procs, strict=True)}
        meter = CpuMeter(groups, DB_URL.rsplit("/", 1)[1])
        cpu_lines = []
        pending = iter(jobs)
        take = threading.Lock()
        answered: dict[int, int] = {}  # fixture → status
        revision_at: dict[int, tuple[float, int]] = {}  # fixture → (POST start, revision)
        print(
            f"\nproduction path: nginx → gunicorn -w {args.web} (DEBUG=0, Redis cache) → "
            f"PostgreSQL; Celery worker -c {args.workers} on Redis; league of "
            f"{args.games} counted games; {args.seconds:.0f} s per phase; load "
            f"{os.getloadavg()[0]:.1f}"
        )
        print(
            "| clients or arrivals | uploads/s | POST p50 / p95 ms "
            "| → standings p50 / p95 / max ms | trivial POST/s | p50 / p95 ms "
            "| uploads/s ÷ trivial | recomputes | load |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")

        def trivial(conn) -> int:
            conn.request(
                "POST",
                "/bench/trivial-post/",
                body=b"{}",
                headers={
                    "Authorization": f"Token {peer_token.key}",
                    "Content-Type": "application/json",
                },
            )
            response = conn.getresponse()
            response.read()
            return response.status

        def upload(conn, start: float | None = None) -> int | None:
            with take:
                job = next(pending, None)
            if job is None:
                return None
            fixture_id, key, body = job
            start = time.perf_counter() if start is None else start
            conn.request(
                "POST",
                f"/api/v1/fixtures/{fixture_id}/log/",
                body=body,
                headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            answered[fixture_id] = response.status
            if response.status in (200, 201):
                # the league's revision now: at least the one this upload's commit made
                revision = League.objects.filter(pk=league.pk).values_list(
                    "results_revision", flat=True
                )[0]
                revision_at[fixture_id] = (start, revision)
            return response.status

        idle = meter.read()  # the poller alone (the public fragment every 20 ms)
        time.sleep(5)
        polled = meter.read()
        cpu_lines.append(
            "the poller alone, CPU ms per second: "
            + ", ".join(
                f"{k} {(polled[k] - idle[k]) * 1000 / 5:.0f}" for k in polled if k != "machine"
            )
            + f"; the machine's {(polled['machine'] - idle['machine']) * 1000 / 5:.0f}"
        )
        phases = [(f"{c}", c, None) for c in levels]
        phases += [(f"{r:g}/s open", 8, r) for r in rates]
        for label, clients, rate in phases:
            cpu_peer = meter.read()
            peer, peer_seconds = _clients(port, clients, min(args.seconds, 10), trivial)
            cpu_before = meter.read()
            rows_before = StandingsRow.objects.order_by("-pk").values_list("pk", flat=True)[0]
            first = len(revision_at)
            if rate is None:
                ups, up_seconds = _clients(port, clients, args.seconds, upload)
            else:
                ups, up_seconds = _arrivals(port, rate, args.seconds, upload)
            connection.close()
            final = League.objects.get(pk=league.pk).results_revision
            deadline = time.perf_counter() + 120
            while poller.revision() < final and time.perf_counter() < deadline:
                time.sleep(0.05)
            rows_after = StandingsRow.objects.order_by("-pk").values_list("pk", flat=True)[0]
            cpu_after = meter.read()
            cpu_lines.append(
                f"{label}, trivial POST (C = {clients}): "
                f"{CpuMeter.per_request(cpu_peer, cpu_before, len(peer.rows))}\n"
                f"{label}, upload (until the standings show the last): "
                f"{CpuMeter.per_request(cpu_before, cpu_after, len(ups.rows))}"
            )
            shown = []
            for start, revision in list(revision_at.values())[first:]:
                at = poller.shown_at(revision, start)
                shown.append((at - start) if at is not None else float("inf"))
            errors = len(ups.rows) - len(ups.ok())
            ratio = ups.per_second(up_seconds) / peer.per_second(peer_seconds)
            print(
                f"| {label} | {ups.per_second(up_seconds):.1f} ({len(ups.ok())}"
                f"{f', {errors} failed' if errors else ''}) | {ups.ms(0.5):.0f} / "
                f"{ups.ms(0.95):.0f} | {_quantile(shown, 0.5) * 1000:.0f} / "
                f"{_quantile(shown, 0.95) * 1000:.0f} / {max(shown) * 1000:.0f} | "
                f"{peer.per_second(peer_seconds):.0f} | {peer.ms(0.5):.0f} / "
                f"{peer.ms(0.95):.0f} | **{ratio:.3f}** | "
                f"{(rows_after - rows_before) // 32} | {os.getloadavg()[0]:.1f} |"
            )
        print("\n" + "\n".join(cpu_lines))
        print(_worker_tasks(ROOT / "var" / "bench-uploads-worker.log"))
        meter.stop()
        _check_counted(league, args.games, answered)
    finally:
        if poller is not None:
            poller.stop()
        for proc in reversed(procs):
            proc.stop()


def bench_profile(args) -> None:
    """``--profile N``: N uploads' POSTs in this process through Django's test client with
    a player's token (the production settings of ``--production``: DEBUG off, analyses on,
    the tasks published to the Redis broker, no worker), on a league of ``--games``: the
    queries of one upload, then CPU and wall per upload over N, then the functions that
    took the most time under cProfile over N more (issue 31, h-upload5)."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.services.standings import standings_recompute

    _owner, league, unplayed = counted_league(args.games, 2 * args.profile + 2, accounts=True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    standings_recompute(league.pk)
    jobs = _upload_jobs(league, unplayed[: 2 * args.profile + 2])
    client = Client(SERVER_NAME="localhost", REMOTE_ADDR="127.0.0.1")

    def post(job) -> None:
        fixture_id, key, body = job
        response = client.post(
            f"/api/v1/fixtures/{fixture_id}/log/",
            body,
            content_type="application/json",
            headers={"Authorization": f"Token {key}", "X-Forwarded-For": "127.0.0.2"},
        )
        assert response.status_code == 201, (response.status_code, response.content[:300])

    post(jobs.pop())  # warm
    with CaptureQueriesContext(connection) as queries:
        post(jobs.pop())
    print(f"queries of one upload's POST: {len(queries.captured_queries)}")
    if args.show_queries:
        for q in queries.captured_queries:
            print("   ", q["sql"][:150])
    cpu, wall = [], []
    for _ in range(args.profile):
        c0, w0 = time.process_time(), time.perf_counter()
        post(jobs.pop())
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    print(
        f"{args.profile} uploads: CPU median {statistics.median(cpu) * 1000:.1f} ms, "
        f"wall median {statistics.median(wall) * 1000:.1f} ms (this process; load "
        f"{os.getloadavg()[0]:.1f})"
    )
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.profile):
        post(jobs.pop())
    profile.disable()
    profile.dump_stats(str(ROOT / "var" / "upload-profile.pstats"))
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(20)
    from config.celery_app import app

    app.control.purge()


def _check_counted(league, base: int, answered: dict[int, int]) -> None:
    """Every upload answered 201 counted exactly once, nothing else counted, the snapshot at
    the league's revision and equal to the table computed from every counted game."""
    from collections import Counter

    from tournaments.algorithms.standings import compute_standings
    from tournaments.models import Entry, League, Result
    from tournaments.selectors.standings_inputs import league_metrics, outcomes_for, roll_offs_for

    league = League.objects.get(pk=league.pk)
    counted = Counter(
        Result.objects.filter(fixture__league=league, state="confirmed").values_list(
            "fixture_id", flat=True
        )
    )
    statuses = Counter(answered.values())
    created = [f for f, s in answered.items() if s == 201]
    problems = []
    if any(n != 1 for n in counted.values()):
        problems.append("a game counted twice")
    if len(counted) != base + len(created):
        problems.append(f"{len(counted)} counted, expected {base} + {len(created)}")
    if missing := [f for f in created if f not in counted]:
        problems.append(f"{len(missing)} answered 201 but not counted")
    if extra := [f for f, s in answered.items() if s not in (200, 201) and f in counted]:
        problems.append(f"{len(extra)} counted although their POST failed")
    snapshot = league.snapshots.get(stage="league")
    if snapshot.results_revision != league.results_revision:
        problems.append(
            f"snapshot at revision {snapshot.results_revision}, league at {league.results_revision}"
        )
    entries = list(
        league.entries.filter(state=Entry.State.ACCEPTED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    outcomes = outcomes_for(league)
    table = compute_standings(
        entries, outcomes, league_metrics(league), roll_offs=roll_offs_for(league)
    )
    stored = list(
        snapshot.rows.order_by("position").values_list("entry_id", "rank", "played", "wins")
    )
    fresh = [(r.entry, r.rank, r.values["games_played"], r.values["wins"]) for r in table]
    if stored != fresh or snapshot.games_played != len(outcomes):
        problems.append("the snapshot differs from the table computed from every game")
    print(
        f"\ncheck: answers {dict(statuses)}; {len(counted)} games counted "
        f"({base} before + {len(created)} uploads answered 201), the snapshot at revision "
        f"{snapshot.results_revision} = the league's, its {len(stored)} rows equal to the "
        f"table from every game: {'OK' if not problems else 'FAILED: ' + '; '.join(problems)}"
    )
    if problems:
        raise SystemExit(1)


def _positive_list(kind):
    """An argparse type: comma-separated numbers above 0 (``"8,16"``), or none (``""``)."""
    import argparse

    def parse(text: str) -> list:
        try:
            values = [kind(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
        if any(v <= 0 for v in values):
            raise argparse.ArgumentTypeError(f"every value must be above 0: {text!r}")
        return values

    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--uploads", type=int, default=200)
    parser.add_argument("--skip-uploads", action="store_true")
    parser.add_argument("--contention", action="store_true")
    parser.add_argument(
        "--production",
        action="store_true",
        help="uploads through nginx, gunicorn and Celery workers (only this phase)",
    )
    parser.add_argument(
        "--clients",
        type=_positive_list(int),
        default="4,8,16",
        help="--production: concurrencies",
    )
    parser.add_argument(
        "--rates",
        type=_positive_list(float),
        default="",
        help="--production: open-loop phases after them, uploads arriving at these rates a "
        "second (random gaps, the same each run; the trivial POST beside them at C = 8)",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="--production: per phase")
    parser.add_argument("--unplayed", type=int, default=2500, help="--production: logs made")
    parser.add_argument("--web", type=int, default=2, help="--production: gunicorn workers")
    parser.add_argument("--workers", type=int, default=2, help="--production: Celery processes")
    parser.add_argument(
        "--cache", default=os.environ.get("BENCH_CACHE_URL", BROKER.rsplit("/", 1)[0] + "/13")
    )
    parser.add_argument("--profile", type=int, default=0, help="N uploads profiled in-process")
    parser.add_argument("--show-queries", action="store_true", help="--profile: print them")
    args = parser.parse_args()
    ensure_database()
    if args.profile:
        os.environ.update(_production_env(BROKER, args.cache))
        setup_django(BROKER)
        bench_profile(args)
        return
    if args.production:
        setup_django(BROKER)
        bench_production(args)
        return
    setup_django(None if args.skip_uploads else BROKER)
    owner, league, open_fixtures = bench_recompute(args.games, 6 if args.contention else 0)
    if args.contention:
        bench_contention(owner, league, open_fixtures)
    if not args.skip_uploads:
        bench_uploads(args.uploads)


if __name__ == "__main__":
    main()
