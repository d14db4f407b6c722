"""Starting colour rules of tournament.md."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.boards import BOARD_4, BOARD_6
from tournaments.algorithms.colours import assign_colours, side_by_side_pairs
from tournaments.algorithms.errors import SeedingError, StartingColourError
from tournaments.algorithms.round_robin import double_round_robin, triple_threat_schedule
from tournaments.algorithms.starting_colour import (
    FORMAT_ENDS,
    PreviousGame,
    StartPlan,
    clinching_colour,
    decide_starting_colour,
    dependent_games,
    die_roll_starting_colour,
    drr_starting_colour,
    first_finisher,
    plan_challengers,
    plan_triple_threat,
    playoff_starting_colour,
    resolve_start,
)

TWO = {"A": ("green", "red"), "B": ("black", "yellow")}


def test_drr_rearguard_of_first_mentioned() -> None:
    assert drr_starting_colour(["A", "B"], TWO) == "green"
    assert drr_starting_colour(["B", "A"], TWO) == "black"
    result = decide_starting_colour("drr", assignment=TWO, at_board=["B", "A"])
    assert result.colour == "black"
    assert "first mentioned" in result.reason


def test_playoff_rearguard_of_higher_seed() -> None:
    assert playoff_starting_colour("B", TWO) == "black"
    assert decide_starting_colour("playoff", assignment=TWO, higher_seed="A").colour == "green"
    with pytest.raises(StartingColourError, match="higher-seeded"):
        decide_starting_colour("playoff", assignment=TWO)
    with pytest.raises(StartingColourError, match="holds no colours"):
        decide_starting_colour("playoff", assignment=TWO, higher_seed="Z")


def test_gp_pair_has_no_rearguard() -> None:
    with pytest.raises(StartingColourError, match="no rearguard"):
        drr_starting_colour(["A", "B"], {"A": ("red", "yellow"), "B": ("black", "green")})


THREE = {"A": ("red", "black"), "B": ("yellow", "green"), "C": ("blue", "white")}


def test_clinching_colour() -> None:
    # 3T: the first colour to finish
    assert clinching_colour(PreviousGame(("green",), THREE, "first-colour")) == "green"
    # 3T+: the winner's colour that completed the set
    placings = ("yellow", "red", "blue", "green")
    assert clinching_colour(PreviousGame(placings, THREE, "both-colours")) == "green"
    # GP: the first colour finished by the winner (B finished both first)
    gp = ("yellow", "red", "green", "black", "blue", "white")
    assert clinching_colour(PreviousGame(gp, THREE, "all-places")) == "yellow"
    gp2 = ("blue", "red", "black", "yellow", "green", "white")
    assert clinching_colour(PreviousGame(gp2, THREE, "all-places")) == "red"
    with pytest.raises(StartingColourError, match="no winner yet"):
        clinching_colour(PreviousGame(("yellow", "red"), THREE, "both-colours"))
    with pytest.raises(StartingColourError, match="nobody held"):
        clinching_colour(PreviousGame(("pink",), THREE, "first-colour"))
    with pytest.raises(StartingColourError, match="unknown end rule"):
        clinching_colour(PreviousGame(("red",), THREE, "sudden-death"))
    with pytest.raises(StartingColourError, match="no finished colour"):
        clinching_colour(PreviousGame((), THREE, "first-colour"))


def test_triple_threat_series() -> None:
    previous = PreviousGame(("white",), THREE, "first-colour")
    result = decide_starting_colour(
        "triple-threat", assignment=THREE, board_colours=BOARD_6, game_number=2, previous=previous
    )
    assert result.colour == "white"
    assert "clinched" in result.reason
    gp = PreviousGame(("yellow", "red", "green", "black", "blue", "white"), THREE, "all-places")
    after_gp = decide_starting_colour(
        "triple-threat", assignment=THREE, board_colours=BOARD_6, game_number=3, previous=gp
    )
    assert after_gp.colour == "yellow"
    assert "GP" in after_gp.reason
    with pytest.raises(StartingColourError, match="previous game's result"):
        decide_starting_colour(
            "triple-threat", assignment=THREE, board_colours=BOARD_6, game_number=2
        )
    # game 1: die roll (platform rule), reproducible
    first = decide_starting_colour(
        "triple-threat", assignment=THREE, board_colours=BOARD_6, game_number=1, seed=7
    )
    assert first.rolls is not None
    assert first.colour == first.rolls.winner
    again = decide_starting_colour(
        "triple-threat", assignment=THREE, board_colours=BOARD_6, game_number=1, seed=7
    )
    assert again == first


def test_challengers() -> None:
    game1 = decide_starting_colour(
        "challengers", assignment=TWO, game_number=1, game0_first_finisher="B"
    )
    assert game1.colour == "black"
    with pytest.raises(StartingColourError, match="game 0"):
        decide_starting_colour("challengers", assignment=TWO, game_number=1)
    previous = PreviousGame(("red", "yellow", "green"), TWO, "both-colours")
    game2 = decide_starting_colour("challengers", assignment=TWO, game_number=2, previous=previous)
    assert game2.colour == "green"


def test_clinching_colour_must_be_in_play() -> None:
    previous = PreviousGame(("white",), THREE, "first-colour")
    two_on_six = {"A": ("red", "black"), "B": ("yellow", "green")}
    with pytest.raises(StartingColourError, match="not in play"):
        decide_starting_colour(
            "triple-threat",
            assignment=two_on_six,
            board_colours=BOARD_6,
            game_number=2,
            previous=previous,
        )


def test_die_roll_default() -> None:
    rolls = [{"red": 4, "black": 6, "yellow": 6, "green": 1}, {"black": 2, "yellow": 5}]
    result = die_roll_starting_colour(BOARD_4, recorded_rolls=rolls)
    assert result.winner == "yellow"
    decided = decide_starting_colour("die-roll", assignment=TWO, recorded_rolls=rolls)
    assert decided.colour == "yellow"
    assert decided.rolls is not None and len(decided.rolls.history) == 2
    with pytest.raises(SeedingError, match="tie unresolved"):
        decide_starting_colour("die-roll", assignment=TWO, recorded_rolls=rolls[:1])
    # only colours in play roll
    two_on_six = {"A": ("red", "black"), "B": ("yellow", "green")}
    seeded = decide_starting_colour(
        "die-roll", assignment=two_on_six, board_colours=BOARD_6, seed=3
    )
    assert seeded.colour in {"red", "black", "yellow", "green"}
    assert set(seeded.rolls.history[0].players) == {"red", "black", "yellow", "green"}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rule": "coin-toss"}, "unknown starting-colour rule"),
        ({"rule": "drr", "game_number": 0}, "game numbers start at 1"),
        ({"rule": "drr", "assignment": {}}, "no colours are in play"),
        (
            {"rule": "drr", "assignment": {"A": ("red", "black"), "B": ("black", "yellow")}},
            "held by both",
        ),
    ],
)
def test_decide_errors(kwargs: dict, message: str) -> None:
    kwargs.setdefault("assignment", TWO)
    with pytest.raises(StartingColourError, match=message):
        decide_starting_colour(**kwargs)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=10),
    st.data(),
)
def test_every_drr_game_starts_with_first_mentioned_rearguard(n: int, data: st.DataObject) -> None:
    pairs = side_by_side_pairs(BOARD_4)
    prefs = {p: data.draw(st.one_of(st.none(), st.sampled_from(pairs))) for p in range(1, n + 1)}
    for game in double_round_robin(n).games:
        assignment = assign_colours(game, prefs, BOARD_4)
        held = [c for unit in assignment.values() for c in unit]
        assert len(held) == len(set(held)) == 4
        result = decide_starting_colour("drr", assignment=assignment, at_board=game)
        first = game[0]
        assert result.colour in assignment[first]
        rear, van = assignment[first]
        # the rearguard's next seat clockwise is its ally
        assert BOARD_4[(BOARD_4.index(rear) + 1) % 4] == van
        assert result.colour == rear


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=3, max_value=9), st.integers(min_value=1, max_value=5), st.data())
def test_triple_threat_series_follows_clinching_colour(
    n: int, rounds: int, data: st.DataObject
) -> None:
    pairs = side_by_side_pairs(BOARD_6)
    prefs = {p: data.draw(st.sampled_from(pairs)) for p in range(1, n + 1)}
    schedule = triple_threat_schedule(n, rounds)
    previous: dict[int, PreviousGame] = {}
    for number, rnd in enumerate(schedule.rounds, start=1):
        for board, game in enumerate(rnd.games):
            assignment = assign_colours(game, prefs, BOARD_6)
            result = decide_starting_colour(
                "triple-threat",
                assignment=assignment,
                board_colours=BOARD_6,
                game_number=number,
                previous=previous.get(board),
                seed=number,
            )
            if number > 1:
                assert result.colour == clinching_colour(previous[board])
            # simulate a 3T result: some colour finishes first
            finisher = data.draw(st.sampled_from([c for u in assignment.values() for c in u]))
            previous[board] = PreviousGame((finisher,), assignment, "first-colour")


# --------------------------------------------------------------------------------------
# Events whose starts depend on earlier games (issue 13, points 2 and 9)

THREE_3T = {"A": ("red", "black"), "B": ("yellow", "green"), "C": ("blue", "white")}
THREE_GP = {"A": ("red", "green"), "B": ("black", "blue"), "C": ("yellow", "white")}


def test_mixed_triple_threat_event() -> None:
    # "from game 2 on, the colour that clinched victory in the previous 3T/3T+ game
    # starts; after a GP game, the first colour finished by a winner of that game"
    plan = plan_triple_threat(["3T", "3T+", "GP", "3T"])
    assert [p.label for p in plan] == [
        "die roll",
        "decided by game 1",
        "decided by game 2",
        "decided by game 3",
    ]
    # game 1 (3T): green is the first colour home, so green clinched it
    g1 = PreviousGame(("green",), THREE_3T, FORMAT_ENDS["3T"])
    assert resolve_start(plan[1], g1, THREE_3T, BOARD_6).colour == "green"
    # game 2 (3T+): B completes yellow+green with green (4th place) and wins
    g2 = PreviousGame(("yellow", "red", "blue", "green"), THREE_3T, FORMAT_ENDS["3T+"])
    start3 = resolve_start(plan[2], g2, THREE_GP, BOARD_6)
    assert start3.colour == "green"
    assert "game 2" in start3.reason
    # game 3 (GP): B is first to finish both (blue 1st, black 3rd): blue starts game 4
    g3 = PreviousGame(
        ("blue", "yellow", "black", "red", "white", "green"), THREE_GP, FORMAT_ENDS["GP"]
    )
    start4 = resolve_start(plan[3], g3, THREE_3T, BOARD_6)
    assert start4.colour == "blue"
    assert "GP" in start4.reason


def test_challengers_event() -> None:
    plan = plan_challengers(["2T", "2T", "2T+"])
    assert plan[0] == StartPlan(0, "die-roll")
    assert plan[1] == StartPlan(1, "first-finisher-rearguard", 0)
    # game 0: B (black+yellow) gets yellow home first
    g0_colours = {"A": ("green", "red"), "B": ("black", "yellow")}
    g0 = PreviousGame(("yellow",), g0_colours, "first-colour")
    assert first_finisher(g0) == "B"
    # in game 1 B holds yellow+green: their rearguard, yellow, starts
    g1_colours = {"A": ("red", "black"), "B": ("yellow", "green")}
    start1 = resolve_start(plan[1], g0, g1_colours, BOARD_4)
    assert start1.colour == "yellow"
    assert "finished game 0 first" in start1.reason
    # game 1 (2T): red finished first: red starts game 2
    g1 = PreviousGame(("red",), g1_colours, "first-colour")
    assert resolve_start(plan[2], g1, g0_colours, BOARD_4).colour == "red"
    # the first finisher of a 2T+ game is the first to finish both colours
    plus = PreviousGame(("red", "yellow", "green", "black"), g1_colours, "both-colours")
    assert first_finisher(plus) == "B"


def test_dependent_games() -> None:
    plan = plan_triple_threat(["3T"] * 4)
    assert dependent_games(plan, 2) == (3,)
    assert dependent_games(plan, 4) == ()
    assert dependent_games(plan_challengers(["2T", "2T", "2T"]), 0) == (1,)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: plan_triple_threat([]), "at least one game"),
        (lambda: plan_triple_threat(["3T", "4T"]), "game 1: unknown format '4T'"),
        (lambda: plan_triple_threat("3T"), "not one string"),
        (lambda: plan_challengers(["2T"]), "game 0 and at least game 1"),
        (lambda: plan_challengers(["2T", "GP"]), "no rearguard"),
        (
            lambda: resolve_start(StartPlan(1, "die-roll"), PreviousGame(("red",), TWO), TWO),
            "started by die roll",
        ),
        (
            lambda: resolve_start(
                StartPlan(2, "clinching-colour", 1),
                PreviousGame(("white",), THREE_3T),
                {"A": ("red", "black"), "B": ("yellow", "green")},
                BOARD_6,
            ),
            "not in play",
        ),
        (
            lambda: resolve_start(
                StartPlan(2, "clinching-colour", 1),
                PreviousGame(("yellow", "red"), THREE_3T, "both-colours"),
                THREE_3T,
                BOARD_6,
            ),
            "no winner yet",
        ),
    ],
)
def test_event_errors(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StartingColourError, match=message):
        call()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(sorted(FORMAT_ENDS)), min_size=1, max_size=12))
def test_every_later_game_depends_on_the_one_before(formats: list[str]) -> None:
    plan = plan_triple_threat(formats)
    assert [p.game for p in plan] == list(range(1, len(formats) + 1))
    assert plan[0].depends_on is None
    for previous, game in itertools.pairwise(plan):
        assert game.depends_on == previous.game
        assert dependent_games(plan, previous.game) == (game.game,)
