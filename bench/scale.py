"""Years of a federation's data: a seeded site at 1×, 10× and 100× the demo in PostgreSQL,
and what every page, API call, export and task costs on it (issue 31).

The site (``build_site``): players (20 per 1×), leagues of every format (2T, 2T+, 3T, 3T+
leagues of one to four DRRs, finished, running or still in registration; an XLeague with
its playoffs; Grand Prix and triple-threat events; 3T cups with a ranking level; an open
tournament of up to 200 players with its final table), one very large 2T league (64
players × 3 DRRs = 12,096 games at 100×), about 1,110 counted games per 1× with real logs
from the engine's simulator, then every league's standings, the ratings (full recompute)
and the rankings' levels. Leagues, entries, DRR schedules, events, open rounds and
playoffs are made by the services; the DRR games of the leagues are stored in bulk, but
as the upload service stores them: the log validated by the engine (``game_log_check``:
SHA-256, verdict, ``seat_faces``/``seat_stats`` columns), the result derived from it by
``result_fields_from_log``, the fixture confirmed, the league's ``results_revision``
bumped once per counted result, the starts of 3T games decided by the game before
(``event_starts_update``); the standings are recomputed and the ratings rebuilt by their
services. A database holds one size (``maedn_scale_<n>x``); its comment names the builder's
version and seed, and a re-run finds it built and skips the build.

The measurements, each size in turn:

* **pages / api** — in-process (Django's test client, ``CaptureQueriesContext``): status,
  queries and bytes of each request with the page cache off, and queries of a cache hit
  (second request, cache on); then through the production topology — nginx from
  config/nginx.conf.template in front of gunicorn (2 workers), 20 clients, ``wrk`` — the
  throughput of each request as a fraction of ``/bench/trivial/`` (``HttpResponse("ok")``
  behind the same middleware, bench/settings_scale.py, through the same nginx) measured in
  the same run: the page caches off (PUBLIC_PAGE_CACHE_SECONDS=0,
  STANDINGS_PAGE_CACHE_SECONDS=0, nginx's ``proxy_cache off``) and on (the application's
  and nginx's shared cache; the table's last column is nginx's X-Cache-Status of the
  request). ``--direct``: gunicorn alone, as measured before.
* **tasks** — each in a process of its own, inside a transaction rolled back afterwards
  (the site stays as built): the standings recompute of the largest league, a new game's
  upload, the upload with the recompute it triggers (upload → standings, what the web
  process and then a worker spend on it), the ratings update after an upload, voids of
  rated games and the ratings update after each (``void_targets``: the platform's latest
  game, 500 and 2,000 games back — a typical dispute, a replay of what follows it —, the big
  league's latest game in mid-history and the first game — the worst case, the full
  recompute), the full ratings recompute, the world rankings, the analyses' catch-up: wall
  time and the process's peak RSS growth (``getrusage``).

    .venv/bin/python bench/scale.py [--sizes 1,10,100] [--skip-build] [--rebuild]
        [--only pages|api|tasks] [--rows NAME,…] [--seconds 3] [--clients 20] [--workers 2]
        [--direct]

``--rows dice,schedule``: only the requests and tasks whose name contains one of these
words (the trivial view is still measured around the requests).

BENCH_PORT (default 18190: nginx; gunicorn on the next port, the next but one is the
template's unused Daphne upstream) and BENCH_DATABASE_HOST (default
``postgres://postgres@127.0.0.1:5432``) override the defaults.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: bump when the site built changes: a database built by another version is built again
BUILDER_VERSION = 1
SEED = 31
DB_HOST = os.environ.get("BENCH_DATABASE_HOST", "postgres://postgres@127.0.0.1:5432")
PORT = int(os.environ.get("BENCH_PORT", "18190"))
TRIVIAL = "/bench/trivial/"
BIG = "big-league"
OPEN = "open-200"
XLEAGUE = "xleague-playoffs"
BENCH_USER = "bench-player"


def db_name(size: float) -> str:
    """``maedn_scale_<n>x``, plus ``BENCH_DATABASE_SUFFIX`` (a copy of a built site, made
    with ``createdb -T maedn_scale_100x maedn_scale_100x_mine``, for a branch that migrates
    it or runs beside another measurement)."""
    label = f"{size:g}".replace(".", "_")
    return f"maedn_scale_{label}x{os.environ.get('BENCH_DATABASE_SUFFIX', '')}"


def env_for(size: float, **extra: str) -> dict[str, str]:
    env = dict(
        os.environ,
        DATABASE_URL=f"{DB_HOST}/{db_name(size)}",
        DEBUG="0",
        SECRET_KEY="bench-only-not-secret",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="bench.settings_scale",
        EMAIL_BACKEND="console",
        CACHE_URL="locmem://",
    )
    env.pop("CELERY_BROKER_URL", None)  # Celery in-process, as `make run`
    env.update(extra)
    return env


# --- the site --------------------------------------------------------------------------------


@dataclass
class Plan:
    """What a site of ``size`` × the demo holds (``size`` may be a fraction: the test's)."""

    size: float
    players: int = 0
    big_players: int = 0
    big_drrs: int = 3
    open_players: int = 0
    events: int = 0
    cups: int = 0
    games: int = 0  # counted games wanted in all (the leagues are added until there)

    def __post_init__(self) -> None:
        s = self.size
        self.players = max(12 if s < 1 else 24, round(20 * s))
        # n(n-1) games a DRR, 3 DRRs: 64 players at 100× (12,096 games), 21 at 10×, 7 at 1×
        self.big_players = max(3, round(0.5 + (0.25 + 40.32 * s) ** 0.5))
        self.open_players = min(200, max(8, round(2 * s)))
        self.events = max(1, round(s / 10))
        self.cups = max(1 if s < 1 else 2, round(s / 5))
        self.games = round(1110 * s)


@dataclass
class Built:
    """What ``build_site`` made (the test checks these against the database)."""

    leagues: int = 0
    players: int = 0
    counted: int = 0  # confirmed results
    by_service: int = 0  # of which through game_log_submit
    logs: int = 0
    league_slugs: dict[str, int] = field(default_factory=dict)  # slug → counted games
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _with_times(log: dict) -> None:
    seconds = 0
    for index, event in enumerate(log["events"]):
        seconds += 3 + (index * 7 + len(log["events"])) % 12
        event["t"] = seconds


def _play_text(spec: dict[str, Any]) -> str:
    """A game played by the engine's simulator, with times, as the text of its log."""
    from games.engine import simulate_game

    log = simulate_game(**spec)
    _with_times(log)
    return json.dumps(log)


def _play_checked(spec: dict[str, Any]):
    """A pool's work (no database): the game played, checked by ``game_log_check`` (the
    engine's verdict, the SHA-256) and its ``GameLog`` columns (``game_log_fields``: the
    per-seat columns from its replay), as the upload service computes them."""
    from games.services import game_log_check, game_log_fields

    checked = game_log_check(_play_text(spec))
    return checked, game_log_fields(checked)


def copy_insert(model, objects: list) -> None:
    """``objects`` (unsaved) inserted with PostgreSQL's ``COPY``: their primary keys drawn
    from the table's sequence first and set on them, every concrete column prepared by its
    field as ``bulk_create`` prepares it (``pre_save``: ``auto_now_add``; JSON, arrays)."""
    from django.db import connection

    if not objects:
        return
    meta = model._meta
    quote = connection.ops.quote_name
    fields = list(meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(objects)],
        )
        for obj, (pk,) in zip(objects, cursor.fetchall(), strict=True):
            obj.pk = pk
        columns = ", ".join(quote(f.column) for f in fields)
        with cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for obj in objects:
                row = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
                copy.write_row(row)
    for obj in objects:
        obj._state.adding = False
        obj._state.db = connection.alias


class SiteBuilder:
    def __init__(
        self, size: float, seed: int = SEED, *, quiet: bool = False, jobs: int | None = None
    ) -> None:
        self.plan = Plan(size)
        # processes that play and check the bulk games (the database stays in this one)
        self.jobs = default_jobs() if jobs is None else jobs
        self.pool = None
        self.rng = random.Random(seed)
        self.seed = seed
        self.quiet = quiet
        self.built = Built()
        self.league_number = 0

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"  [{time.strftime('%H:%M:%S')}] {text}", flush=True)

    # the accounts and players
    def people(self) -> None:
        from django.contrib.auth import get_user_model

        from tournaments.models import ConfirmedEmail
        from tournaments.services.players import player_create

        User = get_user_model()
        self.organizers = []
        for i in range(max(2, round(self.plan.size / 5))):
            user = User.objects.create_user(
                f"organizer{i}", email=f"organizer{i}@example.org", password="bench"
            )
            ConfirmedEmail.objects.create(user=user, email=user.email)  # rated leagues
            self.organizers.append(user)
        User.objects.create_user(
            "staff", email="staff@example.org", password="bench", is_staff=True, is_superuser=True
        )
        self.players = [
            player_create(name=f"Player {i:04d}", created_by=self.organizers[0], shared=True)
            for i in range(self.plan.players)
        ]
        self.built.players = len(self.players)
        self.say(f"{len(self.players)} players, {len(self.organizers)} organizers")

    def organizer(self):
        return self.organizers[self.league_number % len(self.organizers)]

    def _league(self, slug: str | None = None, **fields):
        from tournaments.services.leagues import league_create

        self.league_number += 1
        slug = slug or f"league-{self.league_number:03d}"
        fields.setdefault("name", slug.replace("-", " ").title())
        fields.setdefault("confirmation_required", False)
        league = league_create(owner=self.organizer(), slug=slug, **fields)
        # a federation's site: its leagues are sanctioned (rated) before any game counts
        # (docs/ratings.md, "Rated leagues"); set directly, as the builder sets up the site
        league.rated = True
        league.save(update_fields=["rated"])
        self.built.leagues += 1
        return league

    def _enter(self, league, players) -> None:
        from tournaments.services.leagues import entry_add

        by = league.owner
        pairs = None
        if league.format in ("3T", "3T+") and len(players) == 3:
            pairs = (["red", "black"], ["yellow", "green"], ["blue", "white"])
        for i, player in enumerate(players):
            entry_add(
                league=league,
                player=player,
                by=by,
                preferred_colours=pairs[i] if pairs else None,
            )

    # games: through the upload service (events, cups, open, playoffs) …
    def _game_spec(self, fixture, bots=None) -> dict[str, Any]:
        """The simulator's arguments for ``fixture`` (plain data: a pool's worker plays it)."""
        from tournaments.services.log_check import fixture_rules_spec

        league = fixture.league
        seats = list(fixture.seats.all())
        return dict(
            rules=fixture_rules_spec(fixture),
            board=league.board,
            players={s.entry.player.name: list(s.colours) for s in seats},
            unused=fixture.unused_colours,
            first=fixture.starting_colour,
            bots=bots
            or {
                s.entry.player.name: ("heuristic" if (s.entry.player_id + i) % 4 == 0 else "random")
                for i, s in enumerate(seats)
            },
            seed=self.seed * 1_000_003 + fixture.pk * 7919 + league.pk,
            meta={"league": league.slug, "game": fixture.label or fixture.number},
        )

    def _simulated(self, fixture, bots=None) -> str:
        return _play_text(self._game_spec(fixture, bots))

    def play_by_service(self, league, leave: int = 0, limit: int = 400) -> None:
        """The league's scheduled games one by one, in order (a result may decide the next
        start, cancel games or add one), through ``game_log_submit``."""
        from tournaments.models import Fixture
        from tournaments.services.results import game_log_submit

        for _ in range(limit):
            scheduled = league.fixtures.filter(status=Fixture.Status.SCHEDULED)
            fixture = (
                scheduled.exclude(starting_colour="")
                .order_by("round", "number")
                .select_related("league")
                .prefetch_related("seats__entry__player")
                .first()
            )
            if fixture is None or scheduled.count() <= leave:
                return
            game_log_submit(fixture=fixture, content=self._simulated(fixture), by=league.owner)
            self.built.by_service += 1

    # … and in bulk, as the upload service stores them (the DRR games of leagues)
    def play_in_bulk(self, league, fraction: float, start, days: int) -> int:
        """The first ``fraction`` of the league's scheduled DRR games, played by the
        simulator (in the pool's processes when there is one) and written with ``COPY``, in
        waves: every game whose start is known, then (a league whose starts depend on the
        game before) the games whose start those results decided, until none is left."""
        from django.db import transaction
        from django.db.models import F

        from tournaments.models import Fixture, League
        from tournaments.services.events import event_starts_update

        fixtures = list(
            league.fixtures.filter(status=Fixture.Status.SCHEDULED, series__isnull=True)
            .select_related("league", "cycle")
            .prefetch_related("seats__entry__player")
            .order_by("cycle__number", "round", "number")
        )
        fixtures = fixtures[: round(len(fixtures) * fraction)]
        ordered = any(f.start_depends_on_id for f in fixtures)
        # the results are decided in the schedule's order over ``days``
        when = {
            f.pk: start + timedelta(days=days * index / max(1, len(fixtures)))
            for index, f in enumerate(fixtures)
        }
        remaining = fixtures
        while remaining:
            ready = [f for f in remaining if f.starting_colour]
            if not ready:
                break
            for at in range(0, len(ready), 500):
                part = ready[at : at + 500]
                self._store_bulk(part, self._checked_logs(part), when, league.owner)
            if not ordered:
                break
            with transaction.atomic():  # the next games' starts are decided by these
                for fixture in ready:
                    event_starts_update(fixture)
            done = {f.pk for f in ready}
            remaining = [f for f in remaining if f.pk not in done]
            starts = dict(
                Fixture.objects.filter(pk__in=[f.pk for f in remaining]).values_list(
                    "pk", "starting_colour"
                )
            )
            for fixture in remaining:
                fixture.starting_colour = starts[fixture.pk]
        played = league.fixtures.filter(status=Fixture.Status.CONFIRMED).count()
        # one bump per counted result, as standings_invalidate does
        League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + played)
        return played

    def _checked_logs(self, fixtures) -> list:
        """Each fixture's game played and checked as the upload checks it: ``(CheckedLog,
        GameLog columns)`` in the fixtures' order, from the pool when there is one."""
        specs = [self._game_spec(f) for f in fixtures]
        if self.pool is None or len(specs) < 4:
            return [_play_checked(spec) for spec in specs]
        chunk = max(1, min(25, len(specs) // (4 * self.jobs)))
        return self.pool.map(_play_checked, specs, chunksize=chunk)

    def _store_bulk(self, fixtures, checked_logs, when, owner) -> None:
        """The logs and their confirmed results written with ``COPY`` (the columns
        ``game_log_store`` and the upload would write), the fixtures confirmed."""
        from games.models import GameLog
        from tournaments.models import Fixture, Result
        from tournaments.services.results import result_fields_from_log

        logs, results = [], []
        for fixture, (checked, columns) in zip(fixtures, checked_logs, strict=True):
            log = GameLog(**columns, uploaded_by=owner)
            logs.append(log)
            results.append(
                Result(
                    fixture=fixture,
                    state=Result.State.CONFIRMED,
                    source=Result.Source.LOG,
                    submitted_by=owner,
                    decided_by=owner,
                    decided_at=when[fixture.pk],
                    verified=True,
                    **result_fields_from_log(fixture, checked),
                )
            )
        copy_insert(GameLog, logs)
        for log, result in zip(logs, results, strict=True):
            result.game_log = log
        copy_insert(Result, results)
        Fixture.objects.filter(pk__in=[f.pk for f in fixtures]).update(
            status=Fixture.Status.CONFIRMED
        )

    def drr_league(self, slug, fmt, players, drrs, *, fraction, status, start, **fields):
        from tournaments.services.leagues import league_set_status
        from tournaments.services.schedule import cycle_create
        from tournaments.services.standings import standings_recompute

        league = self._league(slug, format=fmt, drr_count=drrs, **fields)
        self._enter(league, players)
        if status == "registration":
            league_set_status(league=league, status="registration", by=league.owner)
            return league
        for number in range(drrs):
            cycle_create(league=league, by=league.owner, seed=self.rng.randrange(10**6) + number)
        league.refresh_from_db()
        if fraction:
            self.play_in_bulk(league, fraction, start, days=60 * drrs)
        standings_recompute(league.pk)
        league.refresh_from_db()
        if status == "finished":
            league_set_status(league=league, status="finished", by=league.owner)
        return league

    def build(self) -> Built:
        from django.utils import timezone

        began = time.perf_counter()
        if self.jobs > 1:  # forked: the workers only play and check games (no database)
            self.pool = multiprocessing.get_context("fork").Pool(self.jobs)
        try:
            self._build(timezone.now())
        finally:
            if self.pool is not None:
                self.pool.close()
                self.pool.join()
                self.pool = None
        self.built.seconds = time.perf_counter() - began
        self.say(
            f"built: {self.built.leagues} leagues, {self.built.counted} counted games, "
            f"{self.built.seconds:.0f} s ({self.jobs} processes playing)"
        )
        return self.built

    def _build(self, now) -> None:
        from tournaments.models import League
        from tournaments.services.standings import standings_recompute

        rng, plan = self.rng, self.plan
        self.people()
        pool = self.players
        # the service-made events first (their incremental ratings are rebuilt at the end)
        self.xleague(pool[:3], now - timedelta(days=400))
        for i in range(plan.events):
            self.grand_prix(rng.sample(pool, 3), i)
            self.triple_threat(rng.sample(pool, 3), i)
        for i in range(plan.cups):
            self.cup(rng.sample(pool, 3), i)
        self.open_tournament(rng.sample(pool, plan.open_players))
        self.say(f"events, cups, open: {self.built.by_service} games by the upload service")
        # the very large league: all but the last 2 % of its three DRRs played
        big = self.drr_league(
            BIG,
            "2T",
            rng.sample(pool, plan.big_players),
            plan.big_drrs,
            fraction=0.98,
            status="running",
            start=now - timedelta(days=3 * 365),
            name="The very large league",
        )
        self.say(f"{BIG}: {big.fixtures.count()} games")
        formats = ["2T", "2T+", "3T", "2T", "2T+", "3T+"]
        low, high = (10, 18) if plan.size >= 10 else (5, 10)
        first = True
        while first or self._counted() < plan.games:  # at least one league of these
            first, n = False, self.league_number
            fmt = formats[n % len(formats)]
            k = rng.randint(low, high) if fmt in ("2T", "2T+") else rng.choice((3, 6, 9))
            status = ("finished", "finished", "running", "running", "running", "registration")[
                n % 6
            ]
            self.drr_league(
                None,
                fmt,
                rng.sample(pool, k),
                rng.randint(1, 4) if fmt in ("2T", "2T+") else rng.randint(1, 2),
                fraction={"finished": 1.0, "running": rng.uniform(0.3, 0.95)}.get(status, 0),
                status=status,
                start=now - timedelta(days=rng.randint(30, 5 * 365)),
            )
            if self.built.leagues % 10 == 0:
                self.say(f"{self.built.leagues} leagues, {self._counted()} counted games")
        # the leagues played through the services recompute on commit (a task); here at
        # once, so a build inside one transaction (the test's) is complete too
        for league_id in League.objects.values_list("pk", flat=True):
            standings_recompute(league_id)
        self.ratings()
        self.bench_account(big)
        self.totals()

    def _counted(self) -> int:
        from tournaments.models import Result

        return Result.objects.filter(state=Result.State.CONFIRMED).count()

    def xleague(self, players, start) -> None:
        from tournaments.models import Fixture
        from tournaments.services.playoffs import playoffs_generate

        league = self.drr_league(
            XLEAGUE,
            "2T",
            players,
            4,
            fraction=1.0,
            status="running",
            start=start,
            playoffs={"kind": "xleague"},
        )
        playoffs_generate(league=league, by=league.owner)
        for _ in range(20):  # a series' next game is scheduled when one counts
            if not league.fixtures.filter(status=Fixture.Status.SCHEDULED).exists():
                break
            self.play_by_service(league)

    def grand_prix(self, players, i: int) -> None:
        from tournaments.services.events import event_schedule

        league = self._league(
            f"grand-prix-{i + 1:02d}",
            format="GP",
            board=6,
            event_kind="grand-prix",
            games_planned=4,
        )
        self._enter(league, players)
        event_schedule(league=league, by=league.owner, seed=600 + i)
        self.play_by_service(league)

    def triple_threat(self, players, i: int) -> None:
        from tournaments.services.events import event_schedule

        league = self._league(
            f"triple-threat-{i + 1:02d}",
            format="3T",
            event_kind="triple-threat",
            game_formats=["3T", "GP", "3T+", "3T"],
        )
        self._enter(league, players)
        event_schedule(league=league, by=league.owner, seed=300 + i)
        self.play_by_service(league, leave=1 if i % 2 else 0)

    def cup(self, players, i: int) -> None:
        from tournaments.models import League
        from tournaments.services.leagues import league_set_status
        from tournaments.services.rankings import league_set_ranking
        from tournaments.services.schedule import cycle_create
        from tournaments.services.standings import standings_recompute

        league = self._league(f"3t-cup-{i + 1:02d}", format="3T", drr_count=1)
        self._enter(league, players)
        cycle_create(league=league, by=league.owner, seed=900 + i)
        self.play_by_service(league)
        flags = {"world_championship": True} if i == 0 else {"major": i % 3 == 1}
        league_set_ranking(league=league, by=league.owner, level=1 + i % 3, **flags)
        standings_recompute(league.pk)
        league.refresh_from_db()
        if league.status != League.Status.RUNNING:
            league_set_status(league=league, status=League.Status.RUNNING, by=league.owner)
        league_set_status(league=league, status=League.Status.FINISHED, by=league.owner)

    def open_tournament(self, players) -> None:
        from tournaments.services.errors import ServiceError
        from tournaments.services.open_tournaments import (
            open_final_table,
            open_round_draw,
            preliminary_rows,
        )
        from tournaments.services.tie_breaks import tie_break_roll_record

        league = self._league(
            OPEN,
            name="Open of the federation",
            format="open",
            games_planned=3,
            points_scheme=[5, 3, 2, 1],
            time_limit_minutes=40,
            draw_seed=4040,
        )
        self._enter(league, players)
        for _ in range(3):
            open_round_draw(league=league, by=league.owner)
            self.play_by_service(league)
        try:
            open_final_table(league=league, by=league.owner)
        except ServiceError:  # a tie for the last final place: the players roll for it
            rows = preliminary_rows(league)
            tied = [r.entry for r in rows if r.rank == rows[4].rank]
            names = dict(league.entries.values_list("pk", "player__name"))
            rolls = {names[e]: 6 - i for i, e in enumerate(tied)}
            tie_break_roll_record(league=league, by=league.owner, rolls=[rolls], note="final")
            open_final_table(league=league, by=league.owner)
        self.play_by_service(league)

    def ratings(self) -> None:
        """Rebuilt from scratch in the order the results were decided (the events played
        through the services were rated incrementally already)."""
        from ratings.models import PlayerRating, RatingChange, RatingGame
        from ratings.services.ratings import ratings_recompute

        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        RatingGame.objects.all().delete()
        began = time.perf_counter()
        outcome = ratings_recompute(resync=True)
        self.say(f"ratings: {outcome} in {time.perf_counter() - began:.0f} s")

    def bench_account(self, big) -> None:
        """An account holding the big league's first player (for /me/), as pages.py does."""
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user(
            BENCH_USER, email="bench@example.org", password="bench"
        )
        player = big.entries.order_by("pk").first().player
        player.user = user
        player.shared = False
        player.save(update_fields=["user", "shared"])

    def totals(self) -> None:
        from django.db.models import Count, Q

        from games.models import GameLog
        from tournaments.models import League

        self.built.counted = self._counted()
        self.built.logs = GameLog.objects.count()
        self.built.league_slugs = dict(
            League.objects.annotate(
                n=Count("fixtures__results", filter=Q(fixtures__results__state="confirmed"))
            ).values_list("slug", "n")
        )


def default_jobs() -> int:
    """Processes that play the bulk games: ``BENCH_BUILD_JOBS``, else one per core."""
    return int(os.environ.get("BENCH_BUILD_JOBS") or os.cpu_count() or 1)


def build_site(
    size: float, seed: int = SEED, *, quiet: bool = False, jobs: int | None = None
) -> Built:
    """Build the site of ``size`` × the demo into the current (empty, migrated) database;
    ``jobs`` processes play the bulk games (default: ``default_jobs()``; 1: this one)."""
    return SiteBuilder(size, seed, quiet=quiet, jobs=jobs).build()


# --- the databases ---------------------------------------------------------------------------


def _admin_conn():
    import psycopg

    return psycopg.connect(f"{DB_HOST}/postgres", autocommit=True)


def marker(size: float) -> str:
    return f"bench/scale.py builder {BUILDER_VERSION} seed {SEED} size {size:g}"


def site_ready(size: float) -> bool:
    """Whether the database of ``size`` exists and was built whole by this builder."""
    with _admin_conn() as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            (db_name(size),),
        ).fetchone()
    return bool(row) and row[0] == marker(size)


def ensure_site(size: float, *, rebuild: bool = False) -> None:
    """Build the site of ``size`` unless its database is there with this builder's marker
    (the comment is written last: an interrupted build is built again)."""
    if site_ready(size) and not rebuild:
        print(f"{db_name(size)}: built ({marker(size)})")
        return
    name = db_name(size)
    print(f"{name}: building the site at {size:g}× …", flush=True)
    with _admin_conn() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = env_for(size)
    for args in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)
    stage(size, "build")
    # the planner's statistics of the tables just loaded (autovacuum would gather them
    # later; a page measured before then is planned for empty tables)
    import psycopg

    with psycopg.connect(f"{DB_HOST}/{name}", autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    with _admin_conn() as conn:
        conn.execute(f"COMMENT ON DATABASE \"{name}\" IS '{marker(size)}'")


def stage(size: float, name: str, *extra: str, env: dict | None = None) -> dict:
    """Run a stage of this script in a process of its own on the database of ``size``;
    its JSON answer (the last line starting with ``RESULT ``)."""
    out = subprocess.run(
        [sys.executable, __file__, "--stage", name, "--sizes", f"{size:g}", *extra],
        cwd=ROOT,
        env=env or env_for(size),
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    ).stdout
    answer = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            answer = json.loads(line[7:])
        else:
            print(line, flush=True)
    return answer


def reply(value: Any) -> None:
    print("RESULT " + json.dumps(value), flush=True)


# --- what is measured ------------------------------------------------------------------------


def requests_to_measure() -> list[dict[str, Any]]:
    """Every request measured: name, group (page, signed-in, api, export, admin), path and
    who asks (None: anonymous). Needs the built site (the slugs and ids are looked up)."""
    from django.db.models import Count, Q

    from tournaments.models import Fixture, League, Player, Result, Series

    big = League.objects.get(slug=BIG)
    typical = (
        League.objects.filter(event_kind="league", format="2T", status="running")
        .exclude(slug__in=[BIG, XLEAGUE])
        .annotate(n=Count("fixtures"))
        .order_by("n", "pk")
    )
    typical = list(typical)[len(typical) // 2] if typical else big
    players = list(
        Player.objects.annotate(n=Count("entries__seats", filter=Q(entries__seats__isnull=False)))
        .filter(n__gt=0)
        .order_by("n", "pk")
        .values_list("slug", "n")
    )
    player, busiest = players[len(players) // 2][0], players[-1][0]
    game = big.fixtures.filter(status=Fixture.Status.CONFIRMED).order_by("-pk").first()
    result = Result.objects.filter(fixture=game, state="confirmed").first()
    series = Series.objects.filter(league__slug=XLEAGUE).order_by("pk").first()
    L, T = f"/leagues/{big.slug}", f"/leagues/{typical.slug}"
    A, AT = f"/api/v1/leagues/{big.slug}", f"/api/v1/leagues/{typical.slug}"
    rows = [
        ("page", "home", "/", None),
        ("page", "search", "/search/?q=Player+01", None),
        ("page", "league (big)", f"{L}/", None),
        ("page", "league (typical)", f"{T}/", None),
        ("page", "standings (big)", f"{L}/standings/", None),
        ("page", "schedule (big)", f"{L}/schedule/", None),
        ("page", "schedule (typical)", f"{T}/schedule/", None),
        ("page", "bracket", f"/leagues/{XLEAGUE}/playoffs/", None),
        ("page", "open tournament", f"/leagues/{OPEN}/", None),
        ("page", "embed standings", f"{L}/embed/standings/", None),
        ("page", "game", f"/games/{game.pk}/", None),
        ("page", "player (typical)", f"/players/{player}/", None),
        ("page", "player (busiest)", f"/players/{busiest}/", None),
        ("page", "head-to-head", f"/players/{busiest}/vs/{player}/", None),
        ("page", "dice (big)", f"{L}/dice/", None),
        ("page", "round sheets (big)", f"{L}/sheets/?round=1&drr=1", None),
        ("page", "ratings", "/ratings/", None),
        ("page", "rankings", "/rankings/", None),
        # a browser's request: Accept-Encoding: gzip (the stored pages' gzipped bytes)
        ("page", "schedule (big) gzip", f"{L}/schedule/", None),
        ("page", "player (busiest) gzip", f"/players/{busiest}/", None),
        ("signed-in", "/me/", "/me/", BENCH_USER),
        ("signed-in", "/me/leagues/", "/me/leagues/", BENCH_USER),
        ("signed-in", "manage (big)", f"{L}/manage/", big.owner.username),
        ("signed-in", "desk (big)", f"{L}/desk/", big.owner.username),
        ("api", "players", "/api/v1/players/", None),
        ("api", "player", f"/api/v1/players/{busiest}/", None),
        ("api", "ratings", "/api/v1/ratings/", None),
        ("api", "rankings", "/api/v1/rankings/", None),
        ("api", "leagues", "/api/v1/leagues/", None),
        ("api", "league", f"{A}/", None),
        ("api", "entries", f"{A}/entries/", None),
        ("api", "cycles", f"{A}/cycles/", None),
        ("api", "standings", f"{A}/standings/", None),
        ("api", "series", f"/api/v1/leagues/{XLEAGUE}/series/", None),
        ("api", "series detail", f"/api/v1/series/{series.pk}/", None),
        ("api", "fixtures (big)", f"/api/v1/fixtures/?league={big.slug}", None),
        ("api", "fixtures (all)", "/api/v1/fixtures/", None),
        ("api", "fixture", f"/api/v1/fixtures/{game.pk}/", None),
        ("api", "result", f"/api/v1/results/{result.pk}/", None),
        ("api", "result log", f"/api/v1/results/{result.pk}/log/", None),
        ("api", "me", "/api/v1/me/", BENCH_USER),
        ("export", "standings.csv", f"{A}/standings.csv", None),
        ("export", "schedule.ics (big)", f"{A}/schedule.ics", None),
        ("export", "player schedule.ics", f"/api/v1/players/{player}/schedule.ics", None),
        ("export", "ratings.csv", "/api/v1/ratings.csv", None),
        ("export", "rankings.csv", "/api/v1/rankings.csv", None),
        ("export", "archive.json (typical)", f"{AT}/archive.json", None),
        ("export", "archive.json (big)", f"{A}/archive.json", None),
    ]
    for model in (
        "tournaments/result",
        "tournaments/fixture",
        "tournaments/player",
        "tournaments/league",
        "tournaments/entry",
        "tournaments/standingssnapshot",
        "games/gamelog",
    ):
        rows.append(("admin", f"admin {model.split('/')[1]}", f"/admin/{model}/", "staff"))
    return [dict(group=g, name=n, path=p, user=u, gzip=n.endswith(" gzip")) for g, n, p, u in rows]


def in_process(only: str, names: str = "") -> dict:
    """Status, queries and bytes of every request with the page cache off, and the queries
    of a cache hit (cache on, second request); the session cookies for wrk."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    wanted = {"pages": ("page", "signed-in", "admin"), "api": ("api", "export")}.get(only)
    rows = [r for r in requests_to_measure() if not wanted or r["group"] in wanted]
    if words := [w.strip() for w in names.split(",") if w.strip()]:
        rows = [r for r in rows if any(w in r["name"] for w in words)]
    User = get_user_model()
    clients: dict[str | None, Client] = {None: Client()}
    cookies: dict[str, str] = {}
    for username in {r["user"] for r in rows if r["user"]}:
        client = Client()
        client.force_login(User.objects.get(username=username))
        clients[username] = client
        cookies[username] = client.cookies["sessionid"].value
    for row in rows:
        client = clients[row["user"]]
        meta = {"HTTP_ACCEPT_ENCODING": "gzip"} if row.get("gzip") else {}
        cache.clear()
        off = override_settings(PUBLIC_PAGE_CACHE_SECONDS=0, STANDINGS_PAGE_CACHE_SECONDS=0)
        if row["name"] != "archive.json (big)":
            with off:  # a first request of its kind (templates, translations) is not measured
                client.get(row["path"], **meta)
        with off, CaptureQueriesContext(connection) as queries:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            began, cpu = time.perf_counter(), time.process_time()
            response = client.get(row["path"], **meta)
            # a streamed answer is read chunk by chunk, as a client would: the RSS growth is
            # then the server's, not a copy of the whole body held here
            if response.streaming:
                size = sum(len(chunk) for chunk in response.streaming_content)
            else:
                size = len(response.content)
            row["ms"] = (time.perf_counter() - began) * 1000
            # this process's CPU (not the database's): steadier than ms on a loaded machine
            row["cpu_ms"] = (time.process_time() - cpu) * 1000
            row["rss_growth_mb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
        row.update(status=response.status_code, queries=len(queries), bytes=size)
        if row["ms"] > 5000:  # not twice more
            row["queries_cached"] = None
            continue
        client.get(row["path"], **meta)  # cache on (the settings' own): fill, then a hit
        with CaptureQueriesContext(connection) as queries:
            client.get(row["path"], **meta)
        row["queries_cached"] = len(queries)
    return {"rows": rows, "cookies": cookies}


TASKS = (
    "standings recompute (big)",
    "upload a new game (service)",
    "upload → standings (big)",
    "ratings update after a new game",
    "ratings update after a void (latest game)",
    "ratings update after a void (500 back)",
    "ratings update after a void (2,000 back)",
    "ratings update after a void (big, latest)",
    "ratings update after a void (first game)",
    "full ratings recompute",
    "world rankings",
    "analyses catch-up",
)


def void_targets(name: str, big):
    """The games a void row may void (the first the void service accepts), each with how
    many rated games follow it. A dispute comes within days of a game: the typical
    correction is of the platform's latest rated game, or of the game 500 rated games back
    (about nine days at the site's mean of ~55 rated games a day) or 2,000 back (about five
    weeks). The big league's latest game (played in the middle of the site's history, 51k
    games back) and the first games in history (everything follows them: the full
    recompute; a 3T event game whose result decided a later game's start cannot be voided
    alone, so the first one that can) show how the cost grows with what follows the change."""
    from ratings.models import RatingGame

    rated = RatingGame.objects.filter(places__isnull=False).select_related("fixture__league__owner")
    if name.endswith("(big, latest)"):
        games = rated.filter(fixture__league=big).order_by("-pk")[:1]
    elif name.endswith("(first game)"):
        games = rated.order_by("pk")[:50]
    else:
        back = {"(latest game)": 0, "(500 back)": 500, "(2,000 back)": 2000}
        games = rated.order_by("-pk")[back[name.split(" void ")[1]] :][:1]
    return [(g.fixture, rated.filter(pk__gt=g.pk).count()) for g in games]


def run_task(name: str) -> dict:
    """One task on the built site, inside a transaction rolled back afterwards: its wall
    time (with the deferred foreign-key checks its commit would run: ``SET CONSTRAINTS ALL
    IMMEDIATE``) and the process's peak RSS growth (this process runs only this task)."""
    from django.db import connection, transaction
    from django.db.models import F

    from core.errors import ServiceError
    from ratings.services.ratings import ratings_recompute, ratings_update
    from tournaments.models import Fixture, League
    from tournaments.selectors.rankings import world_rankings
    from tournaments.services.analyses import analyses_catch_up
    from tournaments.services.results import game_log_submit, result_void
    from tournaments.services.standings import standings_recompute

    big = League.objects.select_related("owner").get(slug=BIG)
    builder = SiteBuilder(1, quiet=True)
    work, before = None, None
    with transaction.atomic():
        # what the task needs first, outside its time
        if name == "standings recompute (big)":
            League.objects.filter(pk=big.pk).update(results_revision=F("results_revision") + 1)
            work = lambda: standings_recompute(big.pk)  # noqa: E731
        elif name in (
            "upload a new game (service)",
            "upload → standings (big)",
            "ratings update after a new game",
        ):
            fixture = (
                big.fixtures.filter(status=Fixture.Status.SCHEDULED)
                .select_related("league")
                .prefetch_related("seats__entry__player")
                .order_by("cycle__number", "number")
                .first()
            )
            text = builder._simulated(fixture)

            def upload():
                return game_log_submit(fixture=fixture, content=text, by=big.owner).pk

            if name == "upload a new game (service)":
                work = upload
            elif name == "upload → standings (big)":  # what a worker runs after the POST

                def work():
                    upload()
                    return standings_recompute(big.pk)

            else:
                upload()
                work = ratings_update
        elif name.startswith("ratings update after a void"):
            after = None
            for fixture, following in void_targets(name, big):
                try:
                    with transaction.atomic():
                        result_void(fixture=fixture, by=fixture.league.owner, reason="bench")
                except ServiceError:
                    continue
                after = following
                break
            work = lambda: {"rated games after it": after, **ratings_update()}  # noqa: E731
        elif name == "full ratings recompute":
            work = ratings_recompute
        elif name == "world rankings":
            work = lambda: len(world_rankings().players)  # noqa: E731
        elif name == "analyses catch-up":
            work = analyses_catch_up
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        began = time.perf_counter()
        outcome = work()
        if connection.vendor == "postgresql":
            # the foreign-key checks a commit would run (deferred: a rollback skips them)
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        seconds = time.perf_counter() - began
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        transaction.set_rollback(True)
    text = outcome if isinstance(outcome, dict | int | str) else type(outcome).__name__
    return {"task": name, "seconds": seconds, "rss_growth_mb": grown, "outcome": str(text)[:240]}


def throughput(size: float, rows: list[dict], cookies: dict, args, cache_on: bool) -> None:
    """Requests/s of each row as a fraction of the trivial view, measured before and after
    the rows in the same run (their mean is the peer), through the production topology:
    nginx from config/nginx.conf.template (its shared cache of anonymous answers on with the
    page cache, off without it) in front of gunicorn; ``--direct``: gunicorn alone, as
    before. The trivial view goes the same way as the rows, so a ratio compares peers."""
    import bench.pages as pages
    from tests.processes import Gunicorn, nginx_from_template

    key = "x_trivial_cached" if cache_on else "x_trivial"
    extra = (
        {} if cache_on else {"PUBLIC_PAGE_CACHE_SECONDS": "0", "STANDINGS_PAGE_CACHE_SECONDS": "0"}
    )
    # gunicorn on PORT (--direct) or on PORT + 1 behind nginx on PORT (PORT + 2: the unused
    # Daphne upstream the template needs)
    app_port = PORT if args.direct else PORT + 1
    for port in {PORT, app_port, PORT + 2}:
        with socket.socket() as probe:  # a server left on the port would be measured instead
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                sys.exit(f"port {port} is in use: stop what listens there (or set BENCH_PORT)")
    # production's settings file: a worker replaced every 1,000 requests (the trivial view
    # at thousands a second restarts a worker every second), forked from the master that
    # loaded the application (preload_app: before, each restart imported Django again and
    # this bench ran without --max-requests)
    env = env_for(size, **extra, **({} if args.direct else {"NUM_PROXIES": "1"}))
    server = Gunicorn(
        env,
        port=app_port,
        workers=args.workers,
        log_level="error",
        config=ROOT / "config" / "gunicorn.conf.py",
    )
    proxy = None
    quiet = open(os.devnull, "w")  # noqa: SIM115
    try:
        pages.PORT = app_port
        pages.wait_until_serving(30)
        if not args.direct:
            directory = ROOT / "var" / f"scale-nginx-{PORT}"
            shutil.rmtree(directory, ignore_errors=True)  # no copy kept from another run
            proxy = nginx_from_template(
                port=PORT,
                app=f"127.0.0.1:{app_port}",
                asgi=[f"127.0.0.1:{PORT + 2}"],
                directory=directory,
                open_limits=True,  # 20 clients from one address; the limits are not measured
                shared_cache=cache_on,
            )
        pages.PORT = PORT

        def get(path: str, headers: dict | None) -> tuple[int, str]:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=300)
            conn.request("GET", path, headers=headers or {})
            response = conn.getresponse()
            response.read()
            conn.close()
            return response.status, response.getheader("X-Cache-Status") or ""

        def rate(path: str, headers: dict | None) -> tuple[float, str]:
            # warm (and fill the caches when on), after the last run's queue has drained;
            # what nginx then does with the request (HIT, BYPASS, MISS, …; "" direct)
            status, _ = get(path, headers)
            status, how = get(path, headers)
            if status != 200:
                sys.exit(f"{path} answered {status} through the bench's server")
            stdout, sys.stdout = sys.stdout, quiet
            try:
                return pages.load_wrk(path, args.clients, args.seconds, headers), how
            finally:
                sys.stdout = stdout

        # the machine's load moves within a run: the trivial view is measured before and
        # after every few requests, and each request is a fraction of the mean of the two
        # measured around it
        trivials = [rate(TRIVIAL, None)[0]]
        block: list[dict] = []
        for index, row in enumerate(rows):
            if row["ms"] > 2000 or row["name"] == "archive.json (big)":
                row[key] = None  # seconds a request: 20 clients would only queue
            else:
                headers = {"Cookie": f"sessionid={cookies[row['user']]}"} if row["user"] else {}
                if row.get("gzip"):
                    headers["Accept-Encoding"] = "gzip"
                row[key], how = rate(row["path"], headers)
                if how:
                    row["nginx_cached" if cache_on else "nginx"] = how
                print(f"  {row['name']:28} {row[key]:8.1f} req/s {how}", flush=True)
                block.append(row)
            if len(block) == 6 or (index == len(rows) - 1 and block):
                trivials.append(rate(TRIVIAL, None)[0])
                peer = (trivials[-2] + trivials[-1]) / 2
                print(f"  trivial view: {trivials[-2]:.0f} → {trivials[-1]:.0f} req/s", flush=True)
                for done in block:
                    done[key] = done[key] / peer
                block = []
        print(
            f"  trivial view ({'cache on' if cache_on else 'cache off'}, "
            f"{'gunicorn direct' if args.direct else 'through nginx'}): "
            f"{min(trivials):.0f}–{max(trivials):.0f} req/s over the run"
        )
    finally:
        if proxy is not None:
            proxy.stop()
        server.stop()
        quiet.close()


def table(size: float, rows: list[dict]) -> None:
    print(f"\n{'=' * 24} {size:g}× the demo ({db_name(size)}) {'=' * 24}")
    print(
        f"{'group':9} {'request':24} {'st':>3} {'queries':>7} {'hit q':>5} {'bytes':>11} "
        f"{'ms':>8} {'cpu ms':>7} {'×trivial':>8} {'cached':>7} nginx"
    )

    def ratio(v):
        return "   —   " if v is None else f"{v:7.4f}" if v < 0.1 else f"{v:7.2f}"

    for r in rows:
        print(
            f"{r['group']:9} {r['name'][:24]:24} {r['status']:>3} {r['queries']:>7} "
            f"{'—' if r['queries_cached'] is None else r['queries_cached']:>5} "
            f"{r['bytes']:>11,} {r['ms']:>8.1f} {r.get('cpu_ms', 0):>7.1f} "
            f"{ratio(r.get('x_trivial'))} {ratio(r.get('x_trivial_cached'))} "
            f"{r.get('nginx_cached', '')}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--skip-build", action="store_true", help="measure the sites as built")
    parser.add_argument("--rebuild", action="store_true", help="build even when built")
    parser.add_argument("--only", choices=("pages", "api", "tasks"), default=None)
    parser.add_argument(
        "--rows", default="", help="only these requests and tasks (name words, a,b)"
    )
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--direct",
        action="store_true",
        help="measure gunicorn alone (the default: through nginx, as in production)",
    )
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--task", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",") if s.strip()]
    if args.stage:  # a child process on one database
        import django

        django.setup()
        if args.stage == "build":
            reply(build_site(sizes[0]).as_dict())
        elif args.stage == "requests":
            reply(in_process(args.only or "", args.rows))
        elif args.stage == "task":
            reply(run_task(args.task))
        return
    for size in sizes:
        if not args.skip_build:
            ensure_site(size, rebuild=args.rebuild)
        elif not site_ready(size):
            sys.exit(f"{db_name(size)} is not built (run without --skip-build)")
    if args.build_only:
        return
    # the static files of this checkout (a site built by another checkout, or --skip-build
    # after a pull: production settings need the manifest of the templates' files)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env_for(sizes[0]),
        check=True,
    )
    one, five, fifteen = os.getloadavg()
    print(
        f"load average {one:.2f} {five:.2f} {fifteen:.2f}; {os.cpu_count()} cores; "
        f"gunicorn {args.workers} workers"
        f"{' (direct)' if args.direct else ' behind nginx (config/nginx.conf.template)'}, "
        f"{args.clients} clients, {args.seconds:g} s each"
    )
    for size in sizes:
        if args.only != "tasks":
            extra = [*(["--only", args.only] if args.only else []), "--rows", args.rows]
            measured = stage(size, "requests", *extra)
            rows = measured["rows"]
            if shutil.which("wrk"):
                throughput(size, rows, measured["cookies"], args, cache_on=False)
                throughput(size, rows, measured["cookies"], args, cache_on=True)
            else:
                print("(wrk not installed: only queries and bytes)")
            table(size, rows)
            out = ROOT / "var" / f"scale-{size:g}x.json"
            out.parent.mkdir(exist_ok=True)
            out.write_text(json.dumps(rows, indent=1))
            print(f"(every figure, the peak RSS growth of each request included: {out})")
        if args.only in (None, "tasks"):
            print(f"\ntasks at {size:g}×: {'task':34} {'seconds':>8} {'peak RSS +MB':>12}")
            words = [w for w in args.rows.split(",") if w]
            for name in TASKS:
                if words and not any(w in name for w in words):
                    continue
                t = stage(size, "task", "--task", name)
                print(
                    f"  {t['task']:44} {t['seconds']:8.2f} {t['rss_growth_mb']:12.1f}  "
                    f"{t['outcome']}"
                )
        one, five, fifteen = os.getloadavg()
        print(f"(load average {one:.2f} {five:.2f} {fifteen:.2f})")


if __name__ == "__main__":
    main()
