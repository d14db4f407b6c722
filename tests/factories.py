"""Small builders for test data (ORM only; services are what the tests exercise)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from django.contrib.auth import get_user_model

from tournaments.formats import get_format
from tournaments.models import Entry, Fixture, League, Player, Seat

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = REPO_ROOT.parent / "shared" / "examples"
_counter = itertools.count(1)


def example_text(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def example(name: str) -> dict:
    return json.loads(example_text(name))


def make_user(username: str | None = None, *, staff: bool = False):
    username = username or f"user{next(_counter)}"
    return get_user_model().objects.create_user(
        username=username, password="pw-for-tests-only", is_staff=staff
    )


def make_player(name: str, *, user=None) -> Player:
    return Player.objects.create(name=name, slug=name.lower().replace(" ", "-"), user=user)


def make_league(owner, *, format: str = "2T+", **fields) -> League:
    fmt = get_format(format)
    n = next(_counter)
    defaults = dict(
        name=f"League {n}",
        slug=f"league-{n}",
        format=format,
        board=fmt.board,
        rules_preset=fmt.preset,
        precedence=list(fmt.default_precedence),
        status=League.Status.RUNNING,
    )
    defaults.update(fields)
    return League.objects.create(owner=owner, **defaults)


def make_fixture(
    league: League,
    seats: list[tuple[Player, list[str]]],
    starting_colour: str,
    number: int | None = None,
) -> Fixture:
    fixture = Fixture.objects.create(
        league=league, round=1, number=number or next(_counter), starting_colour=starting_colour
    )
    for position, (player, colours) in enumerate(seats):
        entry, _ = Entry.objects.get_or_create(league=league, player=player)
        Seat.objects.create(fixture=fixture, entry=entry, position=position, colours=colours)
    return fixture
