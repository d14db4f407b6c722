"""Issue 13 through the services, each test from the regulation's words
(../shared/spec/tournament.md): mixed triple-threat events and Challengers ("from game 2 on
the colour that clinched victory in the previous game starts; after a GP game, the first
colour finished by a winner of that game"; "game 1 is started by the rearguard colour of the
player who finished game 0 first"), per-round head start, no GP playoffs, and the die-roll
tie-break from the rolls actually recorded."""

from __future__ import annotations

import json

import pytest

from games.engine import outcome, simulate_game
from games.engine.board import rearguard
from tests.builders import make_user
from tournaments.formats import get_format
from tournaments.models import Fixture, StandingsRow
from tournaments.services.errors import ServiceError
from tournaments.services.events import event_schedule
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.playoffs import _bracket_for
from tournaments.services.results import game_log_submit, result_void
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import standings_recompute
from tournaments.services.tie_breaks import tie_break_roll_record

BOARD6 = ("red", "black", "yellow", "green", "blue", "white")
BOARD4 = ("red", "black", "yellow", "green")


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def event_with(organizer, names, **kw):
    league = league_create(owner=organizer, name=kw.pop("name", "Event"), **kw)
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    return league


def play(fixture: Fixture, user, seed: int, first: str | None = None) -> dict:
    """Play the fixture with computer players (starting with ``first``, default the
    fixture's starting colour) and submit the log; returns the log."""
    seats = list(fixture.seats.select_related("entry__player"))
    fmt = get_format(fixture.game_format)
    log = simulate_game(
        rules=fmt.preset,
        board=fixture.league.board,
        players={s.entry.player.name: list(s.colours) for s in seats},
        first=first or fixture.starting_colour,
        bots="heuristic",
        seed=seed,
    )
    game_log_submit(fixture=fixture, content=json.dumps(log), by=user)
    return log


def holder(fixture: Fixture, colour: str) -> str:
    return next(s.entry.player.name for s in fixture.seats.all() if colour in s.colours)


def gp_winners_first_colour(log: dict, fixture: Fixture) -> str:
    """By hand from the log: the winner of a GP game is the first player with both
    colours home (rules.md §6); the colour they finished first."""
    placings = outcome(log).placings
    done: dict[str, list[str]] = {}
    for colour in placings:
        done.setdefault(holder(fixture, colour), []).append(colour)
        if len(done[holder(fixture, colour)]) == 2:
            return done[holder(fixture, colour)][0]
    raise AssertionError("nobody finished both colours")


def games(league):
    return list(league.fixtures.order_by("number").prefetch_related("seats__entry__player"))


def test_a_mixed_triple_threat_event_takes_each_start_from_the_game_before(organizer):
    league = event_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="3T",
        event_kind="triple-threat",
        game_formats=["3T", "GP", "3T+"],
        confirmation_required=False,
    )
    event_schedule(league=league, by=organizer, seed=5)
    g1, g2, g3 = games(league)
    assert [g.game_format for g in (g1, g2, g3)] == ["3T", "GP", "3T+"]
    # 3T and 3T+ games: side-by-side pairs; the GP game: opposite pairs
    for seat in g2.seats.all():
        a, b = seat.colours
        assert abs(BOARD6.index(a) - BOARD6.index(b)) == 3
    for seat in g1.seats.all():
        rearguard(BOARD6, seat.colours)  # side by side: has a rearguard
    # game 1 by die roll, its rolls kept; later games wait for the game before
    assert g1.starting_colour and g1.start_rolls
    assert max(g1.start_rolls[-1].values()) == g1.start_rolls[-1][g1.starting_colour]
    assert g2.starting_colour == "" and g2.start_label == "decided by game 1"
    assert g3.start_label == "decided by game 2"

    # a log for game 2 cannot be checked before game 1 counts
    with pytest.raises(ServiceError, match="decided by Game 1"):
        play(g2, organizer, seed=1, first="red")

    log1 = play(g1, organizer, seed=11)
    g2.refresh_from_db()
    assert g2.starting_colour == outcome(log1).placings[0]  # 3T: the first colour home
    assert "clinched" in g2.start_reason

    wrong = next(c for c in BOARD6 if c != g2.starting_colour)
    with pytest.raises(ServiceError, match=f"starts with {wrong}"):
        play(g2, organizer, seed=2, first=wrong)
    log2 = play(g2, organizer, seed=3)
    g3.refresh_from_db()
    assert g3.starting_colour == gp_winners_first_colour(log2, g2)


def test_correcting_the_deciding_game_is_refused_once_the_later_game_has_a_result(organizer):
    league = event_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="3T",
        event_kind="triple-threat",
        game_formats=["3T", "3T"],
        confirmation_required=False,
    )
    event_schedule(league=league, by=organizer, seed=8)
    g1, g2 = games(league)
    play(g1, organizer, seed=21)
    g2.refresh_from_db()
    start = g2.starting_colour
    play(g2, organizer, seed=22)
    referee = make_user("referee")
    league.organizers.add(referee)
    with pytest.raises(ServiceError, match="Game 2 already has a result"):
        result_void(fixture=g1, by=referee, reason="wrong log")
    g1.refresh_from_db()
    g2.refresh_from_db()
    assert g1.status == "confirmed" and g2.starting_colour == start  # nothing changed

    result_void(fixture=g2, by=referee, reason="replayed")
    # a corrected game 1 (another log, counting at once) moves game 2's start with it
    for seed in range(40, 60):
        log = play(g1, referee, seed=seed)
        if outcome(log).placings[0] != start:
            break
    g2.refresh_from_db()
    assert g2.starting_colour == outcome(log).placings[0] != start
    result_void(fixture=g1, by=referee, reason="wrong log")
    g2.refresh_from_db()
    assert g2.starting_colour == "" and g2.start_label == "decided by game 1"


def test_challengers_game_one_is_started_by_the_rearguard_of_game_zeros_first_finisher(
    organizer,
):
    league = event_with(
        organizer,
        ["Ann", "Ben"],
        format="2T",
        event_kind="challengers",
        game_formats=["2T", "2T", "2T+"],
        confirmation_required=False,
    )
    event_schedule(league=league, by=organizer, seed=3)
    g0, g1, g2 = games(league)
    assert (g0.number, g1.number, g2.number) == (0, 1, 2)
    assert g0.starting_colour and g1.start_label == "decided by game 0"
    log0 = play(g0, organizer, seed=31)
    first_home = outcome(log0).placings[0]
    finisher = holder(g0, first_home)  # 2T: the first colour home is that player's
    g1.refresh_from_db()
    seat = next(s for s in g1.seats.all() if s.entry.player.name == finisher)
    assert g1.starting_colour == rearguard(BOARD4, seat.colours)
    log1 = play(g1, organizer, seed=32)
    g2.refresh_from_db()
    assert g2.starting_colour == outcome(log1).placings[0]


def test_event_configurations_that_cannot_be_run_are_refused_at_creation(organizer):
    with pytest.raises(ServiceError, match="rearguard"):
        league_create(
            owner=organizer,
            name="C",
            format="2T",
            event_kind="challengers",
            game_formats=["2T", "GP"],
        )
    with pytest.raises(ServiceError, match="game 2: a triple-threat event plays"):
        league_create(
            owner=organizer,
            name="T",
            format="3T",
            event_kind="triple-threat",
            game_formats=["3T", "2T"],
        )
    league = event_with(
        organizer, ["A", "B"], format="3T", event_kind="triple-threat", game_formats=["3T"]
    )
    with pytest.raises(ServiceError, match="three players"):
        event_schedule(league=league, by=organizer)
    with pytest.raises(ServiceError, match="not as DRRs"):
        cycle_create(league=league, by=organizer)


def test_a_grand_prix_with_playoffs_is_refused_when_it_is_created(organizer):
    with pytest.raises(ServiceError, match="a Grand Prix has no playoffs"):
        league_create(owner=organizer, name="G", format="GP", playoffs={"kind": "xleague"})


def test_the_head_start_is_kept_per_playoff_round(organizer):
    league = league_create(
        owner=organizer,
        name="B",
        format="2T",
        playoffs={"kind": "bracket", "seeds": 4, "first_to": [2, 3], "head_start": [False, True]},
    )
    assert league.playoffs["head_start"] == [False, True]
    bracket = _bracket_for(league)
    by_round = {m.round: m.head_start for m in bracket.matches}
    assert by_round == {1: False, 2: True}  # semi-finals without, final with the rule
    with pytest.raises(ServiceError, match="one per round"):
        league_create(
            owner=organizer,
            name="B2",
            format="2T",
            playoffs={"kind": "bracket", "seeds": 4, "head_start": [False, True, True]},
        )


def rows(league):
    snapshot_rows = StandingsRow.objects.filter(snapshot__league=league).select_related(
        "entry__player"
    )
    return [r.entry.player.name for r in snapshot_rows.order_by("position")]


def test_players_separated_by_a_recorded_reroll_stay_separated_in_the_standings(organizer):
    league = event_with(organizer, ["Ann", "Ben", "Cat"], format="2T")
    # Ann and Ben tie with 5, Ben wins the re-roll: the dice ordered Ben, Ann, Cat
    cycle_create(
        league=league,
        by=organizer,
        rolls=[{"Ann": 5, "Ben": 5, "Cat": 2}, {"Ann": 1, "Ben": 6}],
    )
    standings_recompute(league.pk)
    assert rows(league) == ["Ben", "Ann", "Cat"]  # nobody played: the die roll decides


def test_a_dedicated_tie_break_roll_decides_between_the_players_who_rolled(organizer):
    league = event_with(organizer, ["Ann", "Ben"], format="2T")
    cycle_create(league=league, by=organizer, rolls=[{"Ann": 4, "Ben": 4}, {"Ann": 1, "Ben": 3}])
    standings_recompute(league.pk)
    assert rows(league) == ["Ben", "Ann"]
    roll = tie_break_roll_record(
        league=league, by=organizer, rolls=[{"Ann": 6, "Ben": 2}], note="at the table"
    )
    assert roll.recorded_by == organizer and roll.recorded_at is not None
    standings_recompute(league.pk)
    assert rows(league) == ["Ann", "Ben"]  # the latest roll-off by both decides
    for bad, message in [
        ([{"Ann": 7, "Ben": 2}], "'Ann' rolled 7"),
        ([{"Ann": 3, "Ben": 3}], "tie"),
        ([{"Ann": 3, "Zed": 1}], "'Zed' is not"),
        ([{"Ann": 3}], "at least two"),
    ]:
        with pytest.raises(ServiceError, match=message):
            tie_break_roll_record(league=league, by=organizer, rolls=bad)
    assert league.tie_break_rolls.count() == 1  # the refused ones changed nothing
