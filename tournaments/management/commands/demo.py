"""``manage.py demo``: a realistic season from simulated games, so a newcomer sees real
standings and replays at once. Idempotent: leagues that exist already are left alone."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.engine import simulate_game
from tournaments.models import Fixture, League, Player
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.results import game_log_submit
from tournaments.services.schedule import cycle_create

XLEAGUE = ("Anna", "Ben", "Clara")
XLEAGUE_PREFS = {"Anna": ["green", "red"], "Ben": ["black", "yellow"], "Clara": ["red", "black"]}
NINE = ("Dora", "Emil", "Frida", "Gustav", "Hanna", "Ida", "Jonas", "Karla", "Lukas")


class Command(BaseCommand):
    help = "Load the demo season: a 3-player XLeague and a 9-player 2T+ league."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when any league exists"
        )
        parser.add_argument("--force", action="store_true", help="allow with DEBUG off")

    def handle(self, *args, if_empty=False, force=False, **options):
        if not settings.DEBUG and not force:
            raise CommandError("the demo has a known password; run it with DEBUG=1 (or --force)")
        if if_empty and League.objects.exists():
            self.stdout.write("demo: leagues exist already; nothing to do")
            return
        organizer = self._organizer()
        made = []
        if not League.objects.filter(slug="xleague-demo").exists():
            made.append(self._xleague(organizer))
        if not League.objects.filter(slug="nine-2t-plus").exists():
            made.append(self._nine(organizer))
        for league in made:
            played = Fixture.objects.filter(league=league, status="confirmed").count()
            total = Fixture.objects.filter(league=league).count()
            self.stdout.write(f"demo: {league.name}: {played} of {total} games played")
        self._staff()
        self.stdout.write(
            "demo: log in as 'organizer' / 'demo' to run the leagues on the site "
            "(/leagues/<slug>/manage/); the admin (/admin/) is for 'staff' / 'demo'"
        )

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
                name=name, preferred_colours=(prefs or {}).get(name)
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

    def _play(self, league, organizer, *, cycles, partial_cycle, partial_games):
        fixtures = league.fixtures.filter(cycle__number__in=[*cycles, partial_cycle])
        played_in_partial = 0
        for fixture in fixtures.order_by("cycle__number", "number").prefetch_related(
            "seats__entry__player"
        ):
            if fixture.cycle.number == partial_cycle:
                if played_in_partial >= partial_games:
                    continue
                played_in_partial += 1
            seats = list(fixture.seats.all())
            log = simulate_game(
                rules=league.rules_spec,
                board=league.board,
                players={s.entry.player.name: list(s.colours) for s in seats},
                first=fixture.starting_colour,
                bots={
                    s.entry.player.name: ("heuristic" if i % 2 else "random")
                    for i, s in enumerate(seats)
                },
                seed=fixture.pk * 7919 + league.pk,
                meta={"league": league.slug, "game": fixture.label or fixture.number},
            )
            _with_times(log)
            game_log_submit(fixture=fixture, content=json.dumps(log), user=organizer)


def _with_times(log: dict) -> None:
    """Give the simulated events plausible times: 3–14 s a roll (seeded by the log)."""
    seconds = 0
    for index, event in enumerate(log["events"]):
        seconds += 3 + (index * 7 + len(log["events"])) % 12
        event["t"] = seconds
