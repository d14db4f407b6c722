"""The evaluator and the strong player against expectimax in endgames solved exactly
(games/engine/analysis/exact.py, every player maximising their own chance): races with
and without ``jump_in_goal`` (league, classic, three colours, board 6, allied colours)
and a position where a capture is still possible.

Targets (issue 21): the strong player's choice is the exact best or within 0.5 points of
it; the evaluator's value within 2 points. Races are solved by the evaluator's race part
(games/engine/evaluator/race.py); the capture endgame by its endgame part
(games/engine/evaluator/endgame.py, tested against exact.py in
tests/engine/test_evaluator_endgame.py).
"""

from __future__ import annotations

import random

import pytest
from endgames import JUMP, Endgame, check, race
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game
from games.engine.analysis.exact import exact_win
from games.engine.evaluator import evaluator_for
from games.engine.evaluator.race import is_pure_race, race_chances, turns_to_finish
from games.engine.strong import StrongBot

RACES = [
    ({"red": [36, 38, 42, 43], "black": [35, 37, 42, 43]}, "black", "league", 4),
    ({"red": [36, 41, 42, 43], "black": [35, 41, 42, 43]}, "red", "league", 4),
    ({"red": [34, 40, 41, 43], "black": [33, 41, 42, 43]}, "black", "classic", 4),
    ({"red": [37, 38, 42, 43], "yellow": [36, 39, 41, 42]}, "yellow", JUMP, 4),
    (
        {"red": [37, 41, 42, 43], "yellow": [36, 40, 41, 42], "green": [38, 40, 41, 43]},
        "green",
        JUMP,
        4,
    ),
    ({"red": [37, 41, 42, 43], "black": [36, 40, 42, 43]}, "red", "league-gp", 4),
    ({"red": [44, 46, 50, 51], "yellow": [45, 49, 50, 51]}, "yellow", "league", 6),
]
CAPTURE = ({"red": [43, 42, 41, 34], "black": [43, 42, 41, 22]}, "black", "league", 4)


def _check(positions, turn, rules, board):
    game = Game.from_positions(positions, turn=turn, rules=rules, board=board)
    return game, check(Endgame("", game), StrongBot(), evaluator_for(rules))


@pytest.mark.parametrize("case", range(len(RACES)))
def test_in_races_the_evaluator_is_exact_and_the_choice_the_best(case):
    game, c = _check(*RACES[case])
    assert is_pure_race(game)
    for player, value in c.exact.items():
        assert abs(c.evaluated[player] - value) <= 0.02  # the target: 2 points
        assert abs(c.evaluated[player] - value) <= 1e-3  # what the race part achieves
    assert c.worst_loss <= 0.005


@pytest.mark.slow  # the textbook expectimax of the reference takes 10-20 s
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), kind=st.sampled_from(["league", "jump", "classic", "b6"]))
def test_random_races_against_expectimax(seed, kind):
    rng = random.Random(seed)
    rules = {"league": "league", "jump": JUMP, "classic": "classic", "b6": "league"}[kind]
    game = race(rng, 6 if kind == "b6" else 4, rules, 2, most=1)  # one pawn out: fast
    if game is None or game.over:
        return
    c = check(Endgame(kind, game), StrongBot(), evaluator_for(rules))
    for player, value in c.exact.items():
        assert abs(c.evaluated[player] - value) <= 0.02
    assert c.worst_loss <= 0.005


def test_allied_colours_in_a_race_under_both_end_conditions():
    positions = {"red": [38, 41, 42, 43], "black": [36, 41, 42, 43]}
    positions |= {"yellow": [37, 41, 42, 43], "green": [39, 40, 42, 43]}
    players = {"a": ["green", "red"], "b": ["black", "yellow"]}
    for rules in ("league", "league-2t+"):
        game = Game.from_positions(positions, turn="red", rules=rules, players=players)
        assert is_pure_race(game)
        exact = exact_win(game)
        got = evaluator_for(rules).player_chances(game)
        for player in exact:
            assert got[player] == pytest.approx(exact[player], abs=0.01), rules


@pytest.mark.slow  # the textbook expectimax of the reference takes 10-20 s
def test_a_capture_endgame_choice_against_expectimax():
    game, c = _check(*CAPTURE)
    assert not is_pure_race(game)  # the endgame part's, not the race part's
    assert c.worst_loss <= 0.005
    for player, value in c.exact.items():
        assert abs(c.evaluated[player] - value) <= 0.02  # the target: 2 points


def test_the_race_part_is_not_used_where_pawns_can_still_meet():
    game = Game.from_positions(
        {"red": [30, 41, 42, 43], "black": [15, 41, 42, 43]}, turn="red"
    )  # black's pawn (absolute 25) is behind red's (30): it can still capture it
    assert not is_pure_race(game)
    assert race_chances(game, list(game.setup.players.items())) is None
    with_yard = Game.from_positions(
        {"red": [38, "B", 42, 43], "black": [37, 41, 42, 43]}, turn="red"
    )
    assert not is_pure_race(with_yard)


def test_turns_to_finish_is_a_distribution_and_knows_the_one_roll_finish():
    dist = turns_to_finish((43, 42, 41, 39), 40, False)  # needs exactly a 1
    assert dist.sum() == pytest.approx(1.0, abs=1e-9)
    # a 1 in the first turn: 1/6 directly, or after sixes (each 6 rolls again): 1/5
    assert dist[1] == pytest.approx(1 / 5)
    assert dist[2] == pytest.approx(4 / 5 * 1 / 5)
