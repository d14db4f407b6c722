"""Ratings after a correction, a void and a full recompute (issue 31, item 4).

Builds ``--games`` rated games between ``--players`` players (2–4 at a board, random places,
seeded) straight into the rating tables, runs the full recompute, then corrects a late game,
an early game and voids a late game, each followed by the ratings update, and prints each
one's time, queries and rows written as a ratio of the full recompute measured in the same
run (no timed asserts). Peak memory of the recompute: the process's maximum RSS growth.

Runs against PostgreSQL (DATABASE_URL; a database of that name is created if missing;
``--fresh`` drops and recreates it first).

    .venv/bin/python bench/ratings_replay.py [--games 10000] [--players 1000] [--fresh]

``--two-player-share 0.96`` seats two players at that share of the boards (the 100× site:
96 % 2T boards), three or four at the rest. ``--voids`` measures instead the ratings update
after a void of the first rated game, of the game at 50 % and of the latest, each
``--repeat`` times inside a transaction rolled back (with the deferred foreign-key checks
its commit would run, as ``bench/scale.py`` does); ``--reuse`` keeps a database built by
an earlier run with the same sizes (build and full recompute skipped when it has them):

    .venv/bin/python bench/ratings_replay.py --games 111000 --players 2000 \
        --two-player-share 0.96 --voids --reuse --repeat 3
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn_bench_ratings")
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


def ensure_database(fresh: bool) -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    admin_url = DB_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def build(games: int, players: int, seed: int, two_share: float | None = None) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from ratings.models import RatingGame
    from tournaments.models import Fixture, Player, Result
    from tournaments.services.leagues import league_create

    rng = random.Random(seed)
    owner, _ = get_user_model().objects.get_or_create(username="bench-ratings")
    league = league_create(owner=owner, name=f"bench ratings {time.time_ns()}", format="2T")
    people = Player.objects.bulk_create(
        Player(name=f"r{seed}-{i}", slug=f"r{seed}-{i}-{time.time_ns()}") for i in range(players)
    )
    fixtures = Fixture.objects.bulk_create(
        (Fixture(league=league, round=i // 30000 + 1, number=i % 30000 + 1) for i in range(games)),
        batch_size=2000,
    )
    results = Result.objects.bulk_create(
        (Result(fixture=f, source="organizer", state="confirmed") for f in fixtures),
        batch_size=2000,
    )
    start = timezone.now()
    rated = []
    for i, (fixture, result) in enumerate(zip(fixtures, results, strict=True)):
        if two_share is None:
            seated = rng.choice((2, 3, 4))
        else:
            seated = 2 if rng.random() < two_share else rng.choice((3, 4))
        board = rng.sample(people, seated)
        places = list(range(1, len(board) + 1))
        rng.shuffle(places)
        rated.append(
            RatingGame(
                fixture=fixture,
                result=result,
                places=[[p.pk, place] for p, place in zip(board, places, strict=True)],
                played_at=start + timezone.timedelta(seconds=i),
            )
        )
    RatingGame.objects.bulk_create(rated, batch_size=2000)


def server_cpu() -> float:
    """CPU seconds (user + system) of this connection's server process so far, or NaN if
    the server is not on this machine (``/proc/<pid>/stat``)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(label: str, run) -> dict:
    from django.db import connection, reset_queries

    reset_queries()
    server = server_cpu()
    connection.force_debug_cursor = True
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = time.process_time()
    start = time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    queries = connection.queries
    connection.force_debug_cursor = False
    writes = sum(1 for q in queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE"))
    locks = sum(1 for q in queries if "FOR UPDATE" in q["sql"] or "FOR NO KEY UPDATE" in q["sql"])
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
    return {
        "label": label,
        "seconds": seconds,
        "cpu": cpu,
        "server_cpu": server_cpu() - server,
        "queries": len(queries),
        "writes": writes,
        "locks": locks,
        "rss_mb": grown,
        "outcome": outcome,
    }


def correct(game, rng) -> None:
    """What ``rating_game_counted`` does to a corrected game: other places, pending."""
    from ratings.models import RatingGame

    places = [[p, place] for (p, _), place in zip(game.places, _shuffled(game, rng), strict=True)]
    fields = {"places": places, "applied": False}
    if any(f.name == "revision" for f in RatingGame._meta.fields):  # since issue 31
        fields["revision"] = game.__dict__.get("revision", 0) + 1
    RatingGame.objects.filter(pk=game.pk).update(**fields)


def void(game) -> None:
    from ratings.models import RatingGame

    fields = {"places": None, "skip_reason": "voided", "applied": False}
    if any(f.name == "revision" for f in RatingGame._meta.fields):
        fields["revision"] = game.__dict__.get("revision", 0) + 1
    RatingGame.objects.filter(pk=game.pk).update(**fields)


def _shuffled(game, rng) -> list[int]:
    places = [place for _, place in game.places]
    while True:
        new = places[:]
        rng.shuffle(new)
        if new != places:
            return new


def in_rollback(label: str, work, before=None) -> dict:
    """``work`` measured in a transaction rolled back, with the foreign-key checks its
    commit would run (``SET CONSTRAINTS ALL IMMEDIATE``); ``before`` runs first, untimed."""
    from django.db import connection, transaction

    with transaction.atomic():
        if before is not None:
            before()

        def run():
            outcome = work()
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            return outcome

        row = measure(label, run)
        transaction.set_rollback(True)
    return row


def vacuumed() -> None:
    """The history table vacuumed (outside the time): a rolled-back rewrite leaves its new
    row versions dead on the pages, and the next one would find no room to rewrite in
    place (heap-only tuples) — each run starts from the table as a vacuum leaves it."""
    from django.db import connection

    from ratings.models import RatingChange

    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM {RatingChange._meta.db_table}")


def void_in_rollback(label: str, game, repeat: int) -> list[dict]:
    """The ratings update after a void of ``game``, rolled back (:func:`in_rollback`)."""
    from ratings.services.ratings import ratings_update

    rows = []
    for _ in range(repeat):
        vacuumed()
        rows.append(in_rollback(label, ratings_update, lambda: void(game)))
    return rows


def voids(repeat: int) -> list[dict]:
    from ratings.models import RatingGame

    rated = RatingGame.objects.filter(places__isnull=False).order_by("pk")
    n = rated.count()
    rows = []
    for label, index in (
        ("void, latest game", n - 1),
        ("void, game at 50 %", n // 2),
        ("void, first game", 0),
    ):
        rows += void_in_rollback(label, rated[index], repeat)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--two-player-share", type=float, default=None)
    parser.add_argument("--voids", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    ensure_database(args.fresh)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from ratings.models import RatingChange, RatingGame
    from ratings.services.ratings import ratings_recompute, ratings_update

    rng = random.Random(args.seed)
    start = time.perf_counter()
    built = args.reuse and RatingGame.objects.count() == args.games
    if not built:
        build(args.games, args.players, args.seed, args.two_player_share)
    print(f"setup: {args.games} rated games, {args.players} players", end=" ")
    print(f"({time.perf_counter() - start:.1f} s{', reused' if built else ''})")
    rows = []
    if built and RatingChange.objects.exists():
        full = None
    else:
        full = measure("full recompute", lambda: ratings_recompute(resync=False))
        rows.append(full)
    if args.voids:
        rows += voids(args.repeat)
        if full is None:  # rolled back too, with its commit's checks
            vacuumed()
            full = in_rollback("full recompute", lambda: ratings_recompute(resync=False))
            rows.append(full)
        report(rows, full)
        return
    games = list(RatingGame.objects.filter(places__isnull=False).order_by("pk"))
    n = len(games)
    late, middle, early, late_void = games[-10], games[n // 2 + 10], games[10], games[-20]
    correct(late, rng)
    rows.append(measure("correction, 10th-last game", ratings_update))
    void(late_void)
    rows.append(measure("void, 20th-last game", ratings_update))
    correct(middle, rng)
    rows.append(measure("correction, game at 50 %", ratings_update))
    correct(early, rng)
    rows.append(measure("correction, 10th game", ratings_update))
    report(rows, full)


def report(rows: list[dict], full: dict) -> None:
    print(
        f"{'':30} {'seconds':>9} {'× full':>8} {'queries':>8} {'writes':>7} {'locks':>6} "
        f"{'RSS +MB':>8} {'CPU s':>6} {'server':>6}"
    )
    for r in rows:
        print(
            f"{r['label']:30} {r['seconds']:9.3f} {r['seconds'] / full['seconds']:8.4f} "
            f"{r['queries']:8d} {r['writes']:7d} {r['locks']:6d} {r['rss_mb']:8.1f} "
            f"{r['cpu']:6.2f} {r['server_cpu']:6.2f}"
        )
    for r in rows:
        print(r["label"], r["outcome"])


if __name__ == "__main__":
    main()
