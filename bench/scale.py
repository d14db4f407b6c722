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
  (second request, cache on); then under gunicorn (2 workers, 20 clients, ``wrk``) the
  throughput of each request as a fraction of ``/bench/trivial/`` (``HttpResponse("ok")``
  behind the same middleware, bench/settings_scale.py) measured in the same run: page
  cache off (PUBLIC_PAGE_CACHE_SECONDS=0, STANDINGS_PAGE_CACHE_SECONDS=0) and on.
* **tasks** — each in a process of its own, inside a transaction rolled back afterwards
  (the site stays as built): the standings recompute of the largest league, a new game's
  upload and the ratings update after it, a void of a rated game and the ratings update
  after it (a full recompute today), the full ratings recompute, the world rankings, the
  analyses' catch-up: wall time and the process's peak RSS growth (``getrusage``).

    .venv/bin/python bench/scale.py [--sizes 1,10,100] [--skip-build] [--rebuild]
        [--only pages|api|tasks] [--seconds 3] [--clients 20] [--workers 2]

BENCH_PORT (default 18190) and BENCH_DATABASE_HOST (default
``postgres://postgres@127.0.0.1:5432``) override the defaults.
"""

from __future__ import annotations

import json
import os
import random
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
    label = f"{size:g}".replace(".", "_")
    return f"maedn_scale_{label}x"


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
        self.players = max(24, round(20 * s))
        # n(n-1) games a DRR, 3 DRRs: 64 players at 100× (12,096 games), 21 at 10×, 7 at 1×
        self.big_players = max(3, round(0.5 + (0.25 + 40.32 * s) ** 0.5))
        self.open_players = min(200, max(8, round(2 * s)))
        self.events = max(1, round(s / 10))
        self.cups = max(2, round(s / 5))
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


class SiteBuilder:
    def __init__(self, size: float, seed: int = SEED, *, quiet: bool = False) -> None:
        self.plan = Plan(size)
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
    def _simulated(self, fixture, bots=None) -> str:
        from games.engine import simulate_game
        from tournaments.services.log_check import fixture_rules_spec

        league = fixture.league
        seats = list(fixture.seats.all())
        log = simulate_game(
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
        _with_times(log)
        return json.dumps(log)

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
            game_log_submit(fixture=fixture, content=self._simulated(fixture), user=league.owner)
            self.built.by_service += 1

    # … and in bulk, as the upload service stores them (the DRR games of leagues)
    def play_in_bulk(self, league, fraction: float, start, days: int) -> int:
        from django.db.models import F

        from games.models import GameLog
        from games.services import game_log_check
        from games.stats import stored_columns
        from tournaments.models import Fixture, League, Result
        from tournaments.services.events import event_starts_update
        from tournaments.services.results import result_fields_from_log

        fixtures = list(
            league.fixtures.filter(status=Fixture.Status.SCHEDULED, series__isnull=True)
            .select_related("league", "cycle")
            .prefetch_related("seats__entry__player")
            .order_by("cycle__number", "round", "number")
        )
        fixtures = fixtures[: round(len(fixtures) * fraction)]
        ordered = any(f.start_depends_on_id for f in fixtures)
        owner = league.owner
        pending: list[tuple[Any, GameLog, Result]] = []

        def flush() -> None:
            if not pending:
                return
            GameLog.objects.bulk_create([log for _, log, _ in pending], batch_size=200)
            for _, log, result in pending:
                result.game_log = log
            Result.objects.bulk_create([r for _, _, r in pending], batch_size=500)
            Fixture.objects.filter(pk__in=[f.pk for f, _, _ in pending]).update(
                status=Fixture.Status.CONFIRMED
            )
            pending.clear()

        for index, fixture in enumerate(fixtures):
            if ordered and fixture.start_depends_on_id:
                fixture.refresh_from_db(fields=["starting_colour"])
            if not fixture.starting_colour:
                continue
            checked = game_log_check(self._simulated(fixture))
            v, data = checked.verdict, checked.data
            log = GameLog(
                sha256=checked.sha256,
                content=checked.text,
                size=len(checked.text.encode("utf-8")),
                board=data.get("board", 4),
                rules=data["rules"],
                players=data.get("players") or {},
                first=data["first"],
                complete=bool(v.get("complete")),
                events=v.get("events", 0),
                placings=v.get("placings") or [],
                winner=v.get("winner") or "",
                pawns_home=v.get("pawns_home") or {},
                captures=v.get("captures") or {},
                **stored_columns(checked.text),
                game_time=checked.game_time,
                uploaded_by=owner,
            )
            when = start + timedelta(days=days * index / max(1, len(fixtures)))
            result = Result(
                fixture=fixture,
                state=Result.State.CONFIRMED,
                source=Result.Source.LOG,
                submitted_by=owner,
                decided_by=owner,
                decided_at=when,
                verified=True,
                **result_fields_from_log(fixture, checked),
            )
            pending.append((fixture, log, result))
            if ordered:  # the next game's start is decided by this one's result
                flush()
                event_starts_update(fixture)
            elif len(pending) >= 500:
                flush()
        flush()
        played = league.fixtures.filter(status=Fixture.Status.CONFIRMED).count()
        # one bump per counted result, as standings_invalidate does
        League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + played)
        return played

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
        rng, plan = self.rng, self.plan
        now = timezone.now()
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
        while self._counted() < plan.games:
            n = self.league_number
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
        self.ratings()
        self.bench_account(big)
        self.totals()
        self.built.seconds = time.perf_counter() - began
        self.say(
            f"built: {self.built.leagues} leagues, {self.built.counted} counted games, "
            f"{self.built.seconds:.0f} s"
        )
        return self.built

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
        from tournaments.models import PlayerRating, RatingChange, RatingGame
        from tournaments.services.ratings import ratings_recompute

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


def build_site(size: float, seed: int = SEED, *, quiet: bool = False) -> Built:
    """Build the site of ``size`` × the demo into the current (empty, migrated) database."""
    return SiteBuilder(size, seed, quiet=quiet).build()
