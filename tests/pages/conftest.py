"""Fixtures of the page tests: data built with the ORM (tests/builders.py), plus the
real log-submission service where a stored, validated log is needed."""

from __future__ import annotations

import pytest

from tests.builders import build_league, example_text, make_league, make_snapshot, make_user
from tournaments.models import Entry, Player, Series


@pytest.fixture
def owner(db):
    return make_user("olga")


@pytest.fixture
def erin_user(db):
    return make_user("erin-user")


@pytest.fixture
def carol_user(db):
    return make_user("carol-user")


@pytest.fixture
def outsider(db):
    return make_user("otto")


@pytest.fixture
def league(owner, erin_user, carol_user):
    """The 2T+ league of builders.build_league (erin and carol, games G1 and G2)."""
    return build_league(owner, erin_user, carol_user)


@pytest.fixture
def submitted(league, owner):
    """G1 with the example log submitted by an organizer (so confirmed at once)."""
    from tournaments.services.results import game_log_submit

    g1 = league.test_objects["g1"]
    return game_log_submit(fixture=g1, content=example_text("valid-league-2tplus.json"), by=owner)


@pytest.fixture
def snapshot(league):
    objs = league.test_objects
    return make_snapshot(league, [objs["carol"], objs["erin"]])


@pytest.fixture
def series(league):
    objs = league.test_objects
    return Series.objects.create(
        league=league,
        round=1,
        slot=1,
        name="Final Series",
        first_to=4,
        higher=objs["carol"],
        lower=objs["erin"],
        higher_seed=1,
        lower_seed=2,
        status=Series.Status.PLAYING,
    )


@pytest.fixture
def private_league(owner, erin_user):
    lg = make_league(owner, name="Secret Club", slug="secret", is_public=False)
    player = Player.objects.create(name="pia", slug="pia", user=erin_user)
    Entry.objects.create(league=lg, player=player)
    return lg
