"""Standings benchmarks (issue: results pipeline).

1. Recompute of a league with 10,000 confirmed games: wall time and number of queries
   (the query count must not grow with the number of games).
2. Upload → snapshot updated, through a real Celery worker on Redis: p50/p95 over N uploads.
3. ``--contention``: an upload's own time (tasks not run) alone and while a recompute of
   its 10,000-game league runs in another connection, as a ratio (issue 31: the recompute
   held the league's row, so the upload's revision bump waited for all of it).

Runs against PostgreSQL (DATABASE_URL, default a scratch database ``maedn_bench`` on
127.0.0.1) and Redis (BENCH_BROKER_URL, default redis://127.0.0.1:6379/14).

    .venv/bin/python bench/standings.py [--games 10000] [--uploads 200] [--skip-uploads]
                                        [--contention]
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
        if name == "maedn_bench":  # our scratch database: start from nothing each run
            conn.execute('DROP DATABASE IF EXISTS "maedn_bench" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(broker: str | None) -> None:
    if broker:
        os.environ["CELERY_BROKER_URL"] = broker
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_league(players: int, name: str):
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
        player = player_create(name=f"{league.slug}-p{i}", created_by=owner)
        entry_add(league=league, player=player, by=owner)
    return owner, league


def bench_recompute(games: int, keep_open: int = 0):
    from django.db import connection
    from django.db.models import F
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import League, Result
    from tournaments.services.schedule import cycle_create
    from tournaments.services.standings import standings_recompute

    players = 32  # one DRR = 992 games
    owner, league = make_league(players, "recompute")
    t0 = time.perf_counter()
    while league.fixtures.count() < games:
        cycle_create(league=league, by=owner, seed=league.cycles.count() + 1)
    fixtures = list(league.fixtures.prefetch_related("seats").order_by("pk")[:games])
    open_fixtures, fixtures = fixtures[len(fixtures) - keep_open :], fixtures[: games - keep_open]
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
        f"setup: {len(fixtures)} confirmed games, {players} players "
        f"({time.perf_counter() - t0:.1f} s)"
    )
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

    from games.engine import simulate_game
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
        game = simulate_game(
            rules=league.rules_spec,
            players={s.entry.player.name: s.colours for s in seats},
            first=fixture.starting_colour,
            bots="heuristic",
            seed=fixture.pk,
        )
        logs.append(json.dumps(game))
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

    from games.engine import simulate_game
    from tournaments.models import StandingsSnapshot
    from tournaments.services.results import game_log_submit
    from tournaments.services.schedule import cycle_create

    owner, league = make_league(15, "uploads")  # one DRR = 210 games
    cycle_create(league=league, by=owner, seed=1)
    fixtures = list(league.fixtures.prefetch_related("seats__entry__player")[:uploads])
    logs = []
    for fixture in fixtures:
        seats = list(fixture.seats.all())
        logs.append(
            json.dumps(
                simulate_game(
                    rules=league.rules_spec,
                    players={s.entry.player.name: s.colours for s in seats},
                    first=fixture.starting_colour,
                    bots="heuristic",
                    seed=fixture.pk,
                )
            )
        )
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--uploads", type=int, default=200)
    parser.add_argument("--skip-uploads", action="store_true")
    parser.add_argument("--contention", action="store_true")
    args = parser.parse_args()
    ensure_database()
    setup_django(None if args.skip_uploads else BROKER)
    owner, league, open_fixtures = bench_recompute(args.games, 6 if args.contention else 0)
    if args.contention:
        bench_contention(owner, league, open_fixtures)
    if not args.skip_uploads:
        bench_uploads(args.uploads)


if __name__ == "__main__":
    main()
