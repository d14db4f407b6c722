"""Playoffs from the final table: XLeague series with head starts, advancing by
themselves as results are confirmed; general brackets with byes."""

import pytest

from games.engine.board import rearguard
from tests.builders import make_user
from tournaments.models import Fixture, League, Series
from tournaments.selectors.playoffs import series_score
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.playoffs import playoffs_generate
from tournaments.services.results import result_enter
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import standings_recompute


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def play_drr(league, organizer, winner_of):
    """Enter every DRR game's result: ``winner_of(names_at_board)`` names the winner."""
    for fixture in Fixture.objects.filter(league=league, series__isnull=True):
        seats = {s.entry.player.name: s.entry for s in fixture.seats.all()}
        winner = seats[winner_of(tuple(seats))]
        result_enter(fixture=fixture, by=organizer, winner=winner, reason="played OTB")
    standings_recompute(league.pk)


def xleague(organizer):
    league = league_create(owner=organizer, name="X", format="2T", playoffs={"kind": "xleague"})
    for name in ("Ann", "Ben", "Cat"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    cycle_create(league=league, by=organizer, seed=5)
    return league


def strength(name):
    return {"Ann": 3, "Ben": 2, "Cat": 1}[name]


def test_xleague_playoffs_advance_by_themselves(organizer):
    league = xleague(organizer)
    with pytest.raises(ServiceError, match="provisional"):
        playoffs_generate(league=league, by=organizer)
    play_drr(league, organizer, lambda names: max(names, key=strength))  # Ann 4–0, Ben 2–2
    series = playoffs_generate(league=league, by=organizer)
    qualifying, final = series
    assert (qualifying.name, qualifying.first_to, final.name, final.first_to) == (
        "Qualifying Series",
        3,
        "Final Series",
        4,
    )
    assert (qualifying.higher.player.name, qualifying.lower.player.name) == ("Ben", "Cat")
    assert qualifying.head_start is True  # 2–2 against 0–4: different records
    assert final.higher.player.name == "Ann" and final.lower is None
    league.refresh_from_db()
    assert league.status == League.Status.PLAYOFFS

    # Ben leads 1–0; the higher seed's rearguard starts every game
    game = qualifying.fixtures.get()
    first = game.seats.get(position=0)
    assert first.entry == qualifying.higher
    assert game.starting_colour == rearguard(("red", "black", "yellow", "green"), first.colours)
    for _ in range(2):
        game = qualifying.fixtures.filter(status=Fixture.Status.SCHEDULED).get()
        result_enter(fixture=game, by=organizer, winner=qualifying.higher, reason="won")
    qualifying.refresh_from_db()
    assert qualifying.winner == qualifying.higher
    assert series_score(qualifying).score == "3–0"
    final.refresh_from_db()
    assert final.lower.player.name == "Ben"
    assert final.fixtures.count() == 1  # the final's first game is scheduled
    for _ in range(3):
        game = final.fixtures.filter(status=Fixture.Status.SCHEDULED).get()
        result_enter(fixture=game, by=organizer, winner=final.higher, reason="won")
    final.refresh_from_db()
    assert final.winner.player.name == "Ann"
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED


def test_no_head_start_when_records_are_equal(organizer):
    league = xleague(organizer)
    # a cycle of wins: everyone 2–2, separated only by tie-breaks
    beats = {("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Ann")}
    play_drr(league, organizer, lambda names: names[0] if names in beats else names[1])
    qualifying, _ = playoffs_generate(league=league, by=organizer)
    assert qualifying.head_start is False


def test_a_bracket_of_five_gives_byes_to_the_top_three(organizer):
    league = league_create(
        owner=organizer,
        name="B",
        format="2T",
        playoffs={"kind": "bracket", "seeds": 5, "first_to": [2, 2, 3]},
    )
    names = ["P1", "P2", "P3", "P4", "P5"]
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    cycle_create(league=league, by=organizer, seed=1)
    play_drr(league, organizer, lambda at: min(at, key=names.index))
    playoffs_generate(league=league, by=organizer)
    first_round = Series.objects.filter(league=league, round=1)
    assert first_round.count() == 1
    only = first_round.get()
    assert (only.higher_seed, only.lower_seed) == (4, 5)
    assert only.fixtures.count() == 1
    waiting = Series.objects.filter(league=league, round=2).order_by("slot")
    assert [(s.higher_seed, s.lower_seed) for s in waiting] == [(1, None), (2, 3)]
    assert waiting[1].fixtures.count() == 1  # #2 v #3 can start at once
    with pytest.raises(ServiceError, match="generated already"):
        playoffs_generate(league=league, by=organizer)
