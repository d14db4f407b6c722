"""Builders for the rating and ranking tests: leagues of players with games whose results
an organizer enters through the result services."""

from __future__ import annotations

import itertools

import pytest

from ratings.services.ratings import ratings_update
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import ConfirmedEmail, Entry, League
from tournaments.services.rankings import league_set_ranking
from tournaments.services.results import result_enter
from tournaments.services.standings import standings_recompute

COLOURS_3T = (["yellow", "green"], ["blue", "black"], ["purple", "red"])
COLOURS_2T = (["black", "yellow"], ["green", "red"])


class World:
    """A small platform: an organizer, players by name, leagues, games."""

    def __init__(self):
        # a verified organizer, and players with accounts: the games this world enters by
        # hand are rated (docs/ratings.md, "Which games are rated")
        self.organizer = make_user("organizer-r")
        ConfirmedEmail.objects.create(user=self.organizer, email=self.organizer.email)
        self.players = {}
        self._numbers = itertools.count(1)

    def player(self, name):
        if name not in self.players:
            self.players[name] = make_player(name, user=make_user(f"acc-{name.lower()}"))
        return self.players[name]

    def league(self, format="3T", **fields):
        return make_league(self.organizer, format=format, **fields)

    def game(self, league, names):
        colours = COLOURS_3T if len(names) == 3 else COLOURS_2T
        seats = [(self.player(n), colours[i]) for i, n in enumerate(names)]
        return make_fixture(league, seats, colours[0][0], number=next(self._numbers))

    def enter(self, fixture, order, reason="entered"):
        """Enter a result: ``order`` the names best first (winner, then by counted pawns)."""
        entries = {
            e.player.name: e
            for e in Entry.objects.filter(league=fixture.league).select_related("player")
        }
        pawns = {entries[n].pk: max(0, 3 - i) for i, n in enumerate(order[1:])}
        return result_enter(
            fixture=fixture,
            by=self.organizer,
            winner=entries[order[0]],
            counted_pawns=pawns,
            reason=reason,
        )

    def play(self, league, order):
        """A game between the players of ``order`` (seated in that order) with that result."""
        fixture = self.game(league, order)
        self.enter(fixture, order)
        return fixture


@pytest.fixture
def world(db):
    return World()


@pytest.fixture(autouse=True)
def _every_league_rated(settings):
    """These tests are about the ratings' arithmetic and the trust rules inside a rated
    league: every league is rated here (``RATED_LEAGUES=all``, a club install). Sanctioning
    (the default) is tests/ratings/test_rated_leagues.py's subject, which sets it back."""
    settings.RATED_LEAGUES = "all"


def finish(league, level=None, **flags):
    standings_recompute(league.pk)
    if level is not None:
        league = league_set_ranking(league=league, by=league.owner, level=level, **flags)
    League.objects.filter(pk=league.pk).update(status=League.Status.FINISHED)
    return league


@pytest.fixture
def season(world):
    """Two finished 3T tournaments (hand-computed below) and a running 2T league.

    A — level 2, world championship: ann wins 2, bob 1, cid 0 → ann 1st, bob 2nd, cid 3rd.
    B — level 1, major: cid wins all 3; ann is 2nd of every game → cid, ann, bob.
    """
    a = world.league(format="3T", name="Cup A")
    for order in (["ann", "bob", "cid"], ["ann", "cid", "bob"], ["bob", "ann", "cid"]):
        world.play(a, order)
    b = world.league(format="3T", name="Cup B")
    for _ in range(3):
        world.play(b, ["cid", "ann", "bob"])
    c = world.league(format="2T", name="Duo")
    world.play(c, ["ann", "dee"])
    world.game(c, ["dee", "bob"])  # still scheduled
    finish(a, level=2, world_championship=True)
    finish(b, level=1, major=True)
    ratings_update()
    return {"a": a, "b": b, "c": c, "world": world}
