"""``manage.py demo``: a realistic season from simulated games, so a newcomer sees real
standings and replays at once. Idempotent: leagues that exist already are left alone."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.engine import simulate_game
from ratings.services.rated_leagues import league_rating_decide
from tournaments.models import ConfirmedEmail, Fixture, League, Player
from tournaments.services.analyses import analyse_now
from tournaments.services.errors import ServiceError
from tournaments.services.events import event_schedule
from tournaments.services.leagues import entry_add, league_create, league_set_status
from tournaments.services.log_check import fixture_rules_spec
from tournaments.services.open_tournaments import (
    open_final_table,
    open_round_draw,
    preliminary_rows,
)
from tournaments.services.players import player_create
from tournaments.services.rankings import league_set_ranking
from tournaments.services.results import game_log_submit
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import standings_recompute
from tournaments.services.tie_breaks import tie_break_roll_record

XLEAGUE = ("Anna", "Ben", "Clara")
XLEAGUE_PREFS = {"Anna": ["green", "red"], "Ben": ["black", "yellow"], "Clara": ["red", "black"]}
NINE = ("Dora", "Emil", "Frida", "Gustav", "Hanna", "Ida", "Jonas", "Karla", "Lukas")
#: two finished triple-threat cups for the 3T World Rankings (slug, name, players, level,
#: flags); players who also play the leagues above, so ratings mix formats
CUPS = (
    ("3t-cup-spring", "3T Spring Cup", ("Anna", "Dora", "Emil"), 2, {"world_championship": True}),
    ("3t-cup-autumn", "3T Autumn Cup", ("Ben", "Frida", "Anna"), 1, {"major": True}),
)
#: the demo's move analyses, with the platform's own settings (a few seconds each): a few
#: games, so `make run` stays quick; the rest: manage.py analyse_games
DEMO_ANALYSES = 3
#: who plays the cups with the heuristic computer player (the others move at random)
SKILLED = {"Anna", "Emil", "Frida"}


class Command(BaseCommand):
    help = (
        "Load the demo season: a 3-player XLeague, a 9-player 2T+ league, a Grand Prix on "
        "board 6, an open tournament with a final table, a mixed triple-threat event and "
        "two finished 3T cups for the world rankings."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when any league exists"
        )
        parser.add_argument("--force", action="store_true", help="allow with DEBUG off")
        parser.add_argument(
            "--analyses",
            type=int,
            default=DEMO_ANALYSES,
            help=f"how many XLeague games get a move analysis (default {DEMO_ANALYSES}; 0: none)",
        )

    def handle(self, *args, if_empty=False, force=False, analyses=DEMO_ANALYSES, **options):
        if not settings.DEBUG and not force:
            raise CommandError("the demo has a known password; run it with DEBUG=1 (or --force)")
        if if_empty and League.objects.exists():
            self.stdout.write("demo: leagues exist already; nothing to do")
            return
        organizer = self._organizer()
        made = [
            make(organizer)
            for slug, make in self._leagues()
            if not League.objects.filter(slug=slug).exists()
        ]
        self._report_played(made)
        self._rate(made)
        self._analyse(analyses)
        self.stdout.write(
            "demo: log in as 'organizer' / 'demo' to run the leagues on the site "
            "(/leagues/<slug>/manage/); the admin (/admin/) is for 'staff' / 'demo'"
        )

    def _report_played(self, leagues: list[League]) -> None:
        for league in leagues:
            played = Fixture.objects.filter(league=league, status="confirmed").count()
            total = Fixture.objects.filter(league=league).count()
            self.stdout.write(f"demo: {league.name}: {played} of {total} games played")

    def _rate(self, leagues: list[League]) -> None:
        """The demo's leagues are sanctioned, as a federation's would be (docs/ratings.md):
        their counted games join the ratings by the same replay as any sanction."""
        staff = self._staff()
        for league in leagues:
            league_rating_decide(
                league=league, by=staff, rated=True, reason="the demo's seasons are rated"
            )

    def _leagues(self):
        """The demo's leagues: each one's address and the method that makes and plays it
        for the organizer (the cups: ``CUPS``)."""
        yield from (
            ("xleague-demo", self._xleague),
            ("nine-2t-plus", self._nine),
            ("grand-prix-six", self._grand_prix),
            ("open-club-night", self._open),
            ("triple-threat-mixed", self._triple_threat),
        )
        for cup in CUPS:
            yield cup[0], lambda organizer, cup=cup: self._cup(organizer, *cup)

    def _analyse(self, limit: int) -> None:
        """A few XLeague games get their move analysis (the real one), so the replay viewer
        and the game pages show one at once; the rest: ``manage.py analyse_games``."""
        if limit <= 0:
            return
        outcomes = analyse_now(limit=limit, league_slug="xleague-demo")
        stored = sum(1 for o in outcomes if o.get("stored"))
        self.stdout.write(f"demo: {stored} XLeague games analysed (more: manage.py analyse_games)")

    def _organizer(self):
        """The demo organizer: an ordinary account (not staff, not a superuser) that
        owns the demo leagues and runs them on the site's organizer pages."""
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="organizer", defaults={"email": "organizer@example.org"}
        )
        if created:
            user.set_password("demo")
            user.save()
        elif user.is_staff or user.is_superuser:  # an older demo made it a superuser
            user.is_staff = user.is_superuser = False
            user.save(update_fields=["is_staff", "is_superuser"])
        # a verified organizer: the games of its leagues are rated (docs/ratings.md)
        ConfirmedEmail.objects.get_or_create(user=user, defaults={"email": user.email})
        return user

    def _staff(self):
        """A separate staff account for the admin."""
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="staff", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password("demo")
            user.save()
        return user

    def _players(self, names, prefs=None):
        players = []
        for name in names:
            player = Player.objects.filter(name=name).first() or player_create(
                name=name,
                preferred_colours=(prefs or {}).get(name),
                created_by=self._organizer(),  # only the creator (or staff) may enter them
            )
            players.append(player)
        return players

    @transaction.atomic
    def _xleague(self, organizer) -> League:
        league = league_create(
            owner=organizer,
            name="XLeague demo season",
            slug="xleague-demo",
            format="2T",
            drr_count=6,
            playoffs={"kind": "xleague"},
            confirmation_required=False,
        )
        for player in self._players(XLEAGUE, XLEAGUE_PREFS):
            entry_add(league=league, player=player, by=organizer)
        for number in range(1, 7):
            cycle_create(league=league, by=organizer, seed=1000 + number)
        self._play(league, organizer, cycles=(1, 2), partial_cycle=3, partial_games=3)
        return league

    @transaction.atomic
    def _nine(self, organizer) -> League:
        league = league_create(
            owner=organizer,
            name="Nine of clubs 2T+",
            slug="nine-2t-plus",
            format="2T+",
            drr_count=1,
            confirmation_required=False,
        )
        for player in self._players(NINE):
            entry_add(league=league, player=player, by=organizer)
        cycle_create(league=league, by=organizer, seed=2024)
        self._play(league, organizer, cycles=(), partial_cycle=1, partial_games=40)
        return league

    @transaction.atomic
    def _grand_prix(self, organizer) -> League:
        """Three players × two opposite colours on board 6, four games: played until the
        winner is certain (games left are cancelled) or, while the top is tied, extra
        games."""
        league = league_create(
            owner=organizer,
            name="Grand Prix on six",
            slug="grand-prix-six",
            format="GP",
            board=6,
            event_kind="grand-prix",
            games_planned=4,
            confirmation_required=False,
        )
        for player in self._players(XLEAGUE):
            entry_add(league=league, player=player, by=organizer)
        event_schedule(league=league, by=organizer, seed=606)
        self._play_in_order(league, organizer)
        return league

    @transaction.atomic
    def _triple_threat(self, organizer) -> League:
        """A mixed triple-threat event: 3T, GP, 3T+, 3T; each start from the game before."""
        league = league_create(
            owner=organizer,
            name="Triple threat mixed",
            slug="triple-threat-mixed",
            format="3T",
            event_kind="triple-threat",
            game_formats=["3T", "GP", "3T+", "3T"],
            confirmation_required=False,
        )
        for player in self._players(NINE[-3:]):
            entry_add(league=league, player=player, by=organizer)
        event_schedule(league=league, by=organizer, seed=333)
        self._play_in_order(league, organizer, leave=2)
        return league

    @transaction.atomic
    def _open(self, organizer) -> League:
        """An open club night: 8 players, 3 drawn rounds (5/3/2/1, 40 minutes), then the
        best four at the final table."""
        league = league_create(
            owner=organizer,
            name="Open club night",
            slug="open-club-night",
            format="open",
            games_planned=3,
            points_scheme=[5, 3, 2, 1],
            time_limit_minutes=40,
            draw_seed=4040,
            confirmation_required=False,
        )
        for player in self._players(NINE[:8]):
            entry_add(league=league, player=player, by=organizer)
        for _round in range(3):
            open_round_draw(league=league, by=organizer)
            self._play_in_order(league, organizer)
        try:
            final = open_final_table(league=league, by=organizer)
        except ServiceError:  # a tie for the last final place: the players roll for it
            rows = preliminary_rows(league)
            tied = [r.entry for r in rows if r.rank == rows[4].rank]
            names = dict(league.entries.values_list("pk", "player__name"))
            rolls = {names[e]: 6 - i for i, e in enumerate(tied)}
            tie_break_roll_record(league=league, by=organizer, rolls=[rolls], note="for the final")
            final = open_final_table(league=league, by=organizer)
        self._play_fixture(final, organizer)
        return league

    def _play_in_order(self, league, organizer, leave: int = 0) -> None:
        """Play the league's scheduled games one by one, in order, re-reading after each
        (a result may resolve the next start, cancel games or add an extra one)."""
        for _ in range(60):
            scheduled = league.fixtures.filter(status=Fixture.Status.SCHEDULED)
            playable = list(
                scheduled.exclude(starting_colour="")
                .order_by("round", "number")
                .prefetch_related("seats__entry__player")
            )
            if scheduled.count() <= leave or not playable:
                return
            self._play_fixture(playable[0], organizer)

    def _play_fixture(self, fixture, organizer) -> None:
        league = fixture.league
        seats = list(fixture.seats.select_related("entry__player"))
        log = simulate_game(
            rules=fixture_rules_spec(fixture),
            board=league.board,
            players={s.entry.player.name: list(s.colours) for s in seats},
            unused=fixture.unused_colours,
            first=fixture.starting_colour,
            bots="heuristic",
            seed=fixture.pk * 7919 + league.pk,
            meta={"league": league.slug, "game": fixture.label or fixture.number},
        )
        _with_times(log)
        game_log_submit(fixture=fixture, content=json.dumps(log), by=organizer)

    def _cup(self, organizer, slug, name, names, level, flags) -> League:
        """A finished 3T tournament (one DRR) with a ranking level: the rankings read it."""
        with transaction.atomic():
            league = league_create(
                owner=organizer,
                name=name,
                slug=slug,
                format="3T",
                drr_count=1,
                confirmation_required=False,
            )
            pairs = (["red", "black"], ["yellow", "green"], ["blue", "white"])
            for player, pair in zip(self._players(names), pairs, strict=True):
                entry_add(league=league, player=player, by=organizer, preferred_colours=pair)
            cycle_create(league=league, by=organizer, seed=sum(map(ord, slug)))
            bots = {n: "heuristic" if n in SKILLED else "random" for n in names}
            self._play(
                league, organizer, cycles=(1,), partial_cycle=None, partial_games=0, bots=bots
            )
            league_set_ranking(league=league, by=organizer, level=level, **flags)
        # the standings are recomputed on commit; then the cup is over
        standings_recompute(league.pk)
        league.refresh_from_db()
        if league.status != League.Status.RUNNING:
            league_set_status(league=league, status=League.Status.RUNNING, by=organizer)
        league_set_status(league=league, status=League.Status.FINISHED, by=organizer)
        return league

    def _play(self, league, organizer, *, cycles, partial_cycle, partial_games, bots=None):
        fixtures = league.fixtures.filter(cycle__number__in=[*cycles, partial_cycle])
        fixtures = fixtures.order_by("cycle__number", "number").prefetch_related(
            "seats__entry__player"
        )
        for fixture in _games_to_play(fixtures, partial_cycle, partial_games):
            seats = list(fixture.seats.all())
            # a 3T game's start is decided by the game before it, which just counted
            fixture.refresh_from_db(fields=["starting_colour"])
            log = simulate_game(
                rules=league.rules_spec,
                board=league.board,
                players={s.entry.player.name: list(s.colours) for s in seats},
                unused=fixture.unused_colours,
                first=fixture.starting_colour,
                bots=bots or _alternating_bots(seats),
                seed=fixture.pk * 7919 + league.pk,
                meta={"league": league.slug, "game": fixture.label or fixture.number},
            )
            _with_times(log)
            game_log_submit(fixture=fixture, content=json.dumps(log), by=organizer)


def _games_to_play(fixtures, partial_cycle, partial_games: int):
    """Every game of the full cycles, and the first ``partial_games`` of the partial one."""
    played_in_partial = 0
    for fixture in fixtures:
        if fixture.cycle.number == partial_cycle:
            if played_in_partial >= partial_games:
                continue
            played_in_partial += 1
        yield fixture


def _alternating_bots(seats) -> dict[str, str]:
    """Random and heuristic players by turns, in seat order."""
    return {s.entry.player.name: ("heuristic" if i % 2 else "random") for i, s in enumerate(seats)}


def _with_times(log: dict) -> None:
    """Give the simulated events plausible times: 3–14 s a roll (seeded by the log)."""
    seconds = 0
    for index, event in enumerate(log["events"]):
        seconds += 3 + (index * 7 + len(log["events"])) % 12
        event["t"] = seconds
