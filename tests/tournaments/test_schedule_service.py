"""Organizer workflow through services on PostgreSQL: create a league, enter players,
seed DRRs by die roll and generate complete schedules with colours and starting colours."""

from collections import Counter

import pytest

from games.engine.board import rearguard
from tests.builders import make_user
from tournaments.models import Cycle, Fixture, League, Seat
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.schedule import cycle_create, cycle_reorder_late_games

BOARD4 = ("red", "black", "yellow", "green")


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def league_with(organizer, names, prefs=None, **kw):
    league = league_create(owner=organizer, name=kw.pop("name", "XLeague"), **kw)
    for name in names:
        player = player_create(name=name, shared=True)
        entry_add(
            league=league, player=player, by=organizer, preferred_colours=(prefs or {}).get(name)
        )
    return league


def test_three_player_xleague_six_drrs(organizer):
    league = league_with(
        organizer, ["Ann", "Ben", "Cat"], {"Ann": ["green", "red"]}, format="2T", drr_count=6
    )
    for number in range(1, 7):
        cycle = cycle_create(league=league, by=organizer, seed=number)
        assert cycle.number == number
    with pytest.raises(ServiceError, match="plays 6 DRR"):
        cycle_create(league=league, by=organizer, seed=7)
    league.refresh_from_db()
    assert league.status == League.Status.RUNNING
    for cycle in Cycle.objects.filter(league=league):
        seed_of = {s.number: s.entry_id for s in cycle.seeds.all()}
        games = list(cycle.fixtures.order_by("number"))
        assert [g.label for g in games] == ["G1", "G2", "G3", "G4", "G5", "G6"]
        order = [tuple(s.entry_id for s in g.seats.order_by("position")) for g in games]
        expected = [(1, 2), (3, 1), (2, 3), (2, 1), (1, 3), (3, 2)]
        assert order == [tuple(seed_of[n] for n in pair) for pair in expected]
        for game in games:
            first = game.seats.get(position=0)
            assert game.starting_colour == rearguard(BOARD4, first.colours)
            colours = [c for s in game.seats.all() for c in s.colours]
            assert sorted(colours) == sorted(BOARD4)  # no clash, all four in play


def test_the_first_mentioned_player_keeps_their_preferred_pair(organizer):
    league = league_with(
        organizer, ["Ann", "Ben"], {"Ann": ["green", "red"], "Ben": ["red", "black"]}, format="2T"
    )
    cycle = cycle_create(league=league, by=organizer, seed=3)
    for fixture in cycle.fixtures.all():
        first = fixture.seats.get(position=0)
        pref = set(first.entry.preferred_colours)
        assert set(first.colours) == pref


def test_nine_player_2tplus_league(organizer):
    names = [f"P{i}" for i in range(1, 10)]
    league = league_with(organizer, names, format="2T+", name="Nine")
    cycle = cycle_create(league=league, by=organizer, seed=42)
    fixtures = list(cycle.fixtures.all())
    assert len(fixtures) == 9 * 8  # every pair twice
    pairs = Counter()
    for fixture in fixtures:
        seats = list(fixture.seats.order_by("position"))
        pairs[(seats[0].entry_id, seats[1].entry_id)] += 1
        assert fixture.starting_colour == rearguard(BOARD4, seats[0].colours)
    assert all(n == 1 for n in pairs.values())
    assert all((b, a) in pairs for a, b in pairs)
    per_round = Counter()
    for seat in Seat.objects.filter(fixture__cycle=cycle):
        per_round[(seat.fixture.round, seat.entry_id)] += 1
    assert max(per_round.values()) == 1


def test_recorded_rolls_with_a_tie_reroll(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="2T")
    cycle = cycle_create(
        league=league,
        by=organizer,
        rolls=[{"Ann": 5, "Ben": 5, "Cat": 2}, {"Ann": 3, "Ben": 6}],
    )
    seeds = {s.entry.player.name: s.number for s in cycle.seeds.select_related("entry__player")}
    assert seeds == {"Ben": 1, "Ann": 2, "Cat": 3}
    assert len(cycle.rolls) == 2 and cycle.seed is None


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ([{"Ann": 5, "Ben": 5, "Cat": 2}], "tie"),
        ([{"Ann": 7, "Ben": 5, "Cat": 2}], "1"),
        ([{"Zed": 4, "Ben": 5, "Cat": 2}], "'Zed' is not a player"),
    ],
)
def test_bad_recorded_rolls_are_refused_and_change_nothing(organizer, rolls, message):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="2T")
    with pytest.raises(ServiceError, match=message):
        cycle_create(league=league, by=organizer, rolls=rolls)
    assert not Cycle.objects.exists() and not Fixture.objects.exists()


def test_reorder_g4_to_g6(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="2T")
    cycle = cycle_create(league=league, by=organizer, seed=1)
    cycle_reorder_late_games(cycle=cycle, by=organizer, late_order=[6, 4, 5])
    labels = list(cycle.fixtures.order_by("number").values_list("label", flat=True))
    assert labels == ["G1", "G2", "G3", "G6", "G4", "G5"]
    with pytest.raises(ServiceError, match="reordering of the games 4, 5 and 6"):
        cycle_reorder_late_games(cycle=cycle, by=organizer, late_order=[4, 4, 5])


def test_only_organizers_schedule_and_bad_requests_change_nothing(organizer):
    league = league_with(organizer, ["Ann"], format="2T")
    with pytest.raises(NotAllowed):
        cycle_create(league=league, by=make_user("someone"))
    with pytest.raises(ServiceError, match="at least two players"):
        cycle_create(league=league, by=organizer)
    with pytest.raises(ServiceError, match="already entered"):
        entry_add(league=league, player=league.entries.get().player, by=organizer)
    with pytest.raises(ServiceError, match="not a pair of neighbouring colours"):
        entry_add(
            league=league,
            player=player_create(name="Dan", shared=True),
            by=organizer,
            preferred_colours=["red", "yellow"],
        )
    assert not Cycle.objects.exists()


def test_league_create_validates_its_settings(organizer):
    with pytest.raises(ServiceError, match="unknown format"):
        league_create(owner=organizer, name="x", format="4T")
    with pytest.raises(ServiceError, match="unknown rules option"):
        league_create(owner=organizer, name="x", format="2T", rules_overrides={"bonus": 1})
    with pytest.raises(ServiceError, match="unknown tie-break metric"):
        league_create(owner=organizer, name="x", format="2T", precedence=["luck"])
    with pytest.raises(ServiceError, match="board 4, not board 6"):
        league_create(owner=organizer, name="x", format="2T", board=6)
    assert not League.objects.exists()
