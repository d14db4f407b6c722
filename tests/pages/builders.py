"""Builders of page-test data (ORM only), shared by tests/pages and tests/browser."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.models import (
    Cycle,
    Entry,
    Fixture,
    League,
    Player,
    Seat,
    StandingsRow,
    StandingsSnapshot,
)

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"
_n = itertools.count(1)


def example_text(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def make_user(name: str, **extra):
    return get_user_model().objects.create_user(username=name, password="pw-for-tests", **extra)


def make_league(owner, **fields) -> League:
    n = next(_n)
    values = {
        "name": f"Test League {n}",
        "slug": f"test-league-{n}",
        "format": "2T+",
        "board": 4,
        "rules_preset": "league-2t+",
        "precedence": [
            "won_lost",
            "head_to_head",
            "counted_pawns_difference",
            "completed_colours",
        ],
        "status": League.Status.RUNNING,
        "playoffs": {"kind": "xleague"},
    }
    values.update(fields)
    return League.objects.create(owner=owner, **values)


def make_fixture(league, cycle, round_, number, seats, starting_colour, **extra) -> Fixture:
    fixture = Fixture.objects.create(
        league=league,
        cycle=cycle,
        round=round_,
        number=number,
        label=f"G{number}",
        starting_colour=starting_colour,
        **extra,
    )
    for position, (entry, colours) in enumerate(seats):
        Seat.objects.create(fixture=fixture, entry=entry, position=position, colours=colours)
    return fixture


def make_snapshot(league, entries, *, revision=1, provisional=True, stage="league"):
    snap = StandingsSnapshot.objects.create(
        league=league,
        stage=stage,
        results_revision=revision,
        provisional=provisional,
        games_played=1,
        games_total=2,
        precedence=list(league.precedence),
    )
    for i, entry in enumerate(entries):
        StandingsRow.objects.create(
            snapshot=snap,
            entry=entry,
            rank=i + 1,
            position=i + 1,
            played=1,
            wins=1 if i == 0 else 0,
            losses=0 if i == 0 else 1,
            metrics={
                "games_played": 1,
                "wins": 1 - min(i, 1),
                "losses": min(i, 1),
                "won_lost": {
                    "text": f"{1 - min(i, 1)}–{min(i, 1)}",
                    "wins": 1 - min(i, 1),
                    "losses": min(i, 1),
                },
                "head_to_head": None,
                "counted_pawns_difference": 8 - 13 * min(i, 1),
                "completed_colours": 2 - min(i, 1),
            },
            separated_by="",
        )
    return snap


def build_league(owner, erin_user, carol_user, **fields) -> League:
    """A running 2T+ league: erin and carol, one DRR of two games (G1 matches the example
    log valid-league-2tplus.json: erin black + yellow, carol green + red, black starts)."""
    values = {"name": "Spring League", "slug": "spring"}
    values.update(fields)
    lg = make_league(owner, **values)
    erin = Player.objects.create(name="erin", slug="erin", user=erin_user)
    carol = Player.objects.create(name="carol", slug="carol", user=carol_user)
    e_erin = Entry.objects.create(league=lg, player=erin, preferred_colours=["black", "yellow"])
    e_carol = Entry.objects.create(league=lg, player=carol, preferred_colours=["green", "red"])
    cycle = Cycle.objects.create(league=lg, number=1, rolls=[{"erin": 5, "carol": 3}])
    when = timezone.now() + timedelta(days=2)
    g1 = make_fixture(
        lg,
        cycle,
        1,
        1,
        [(e_erin, ["black", "yellow"]), (e_carol, ["green", "red"])],
        "black",
        scheduled_at=when,
    )
    g2 = make_fixture(
        lg, cycle, 2, 2, [(e_carol, ["green", "red"]), (e_erin, ["black", "yellow"])], "green"
    )
    lg.test_objects = {"erin": e_erin, "carol": e_carol, "g1": g1, "g2": g2, "cycle": cycle}
    return lg


def log_json(name: str) -> dict:
    return json.loads(example_text(name))
