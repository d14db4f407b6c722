"""The evaluator's contract (games/engine/evaluator/__init__.py): one chance per colour in
seat order, players' chances summing to 1, allied colours sharing their player's chance,
exact outcomes for finished games, determinism, board 6 and every preset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, Game, HeuristicBot, RandomBot, RulesError
from games.engine.evaluator import Evaluator, evaluator_for
from games.engine.simulate import play

PLAYERS = {
    "league-2t+": {"a": ["red", "black"], "b": ["yellow", "green"]},
    "league": {"a": ["green", "red"], "b": ["black", "yellow"]},
}


def _players_sum(game: Game, chances: tuple[float, ...]) -> float:
    return sum(chances[seats[0]] for seats in game.setup.players.values())


def _played(preset: str, board: int, seed: int, rolls: int, players=None) -> Game:
    game = Game.new(preset, board, players=players)
    rng = random.Random(seed)
    bots = [HeuristicBot() if s % 2 else RandomBot() for s in range(board)]
    play(game, bots, rng, max_events=rolls)
    return game


def test_the_evaluator_is_loaded_once_and_checks_the_rules():
    assert evaluator_for("league") is evaluator_for("classic")
    assert isinstance(evaluator_for({"preset": "online"}), Evaluator)
    with pytest.raises(RulesError):
        evaluator_for("no-such-preset")


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    board=st.sampled_from([4, 6]),
    seed=st.integers(0, 10_000),
    rolls=st.integers(0, 600),
)
def test_chances_per_colour_sum_to_one_over_players(preset, board, seed, rolls):
    game = _played(preset, board, seed, rolls)
    chances = evaluator_for(preset).win_chances(game)
    assert len(chances) == len(game.names)
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert _players_sum(game, chances) == pytest.approx(1.0, abs=1e-12)
    if game.over:
        assert chances == tuple(
            1.0 if game.setup.player_of(s) == game.winner else 0.0 for s in range(len(chances))
        )


@pytest.mark.parametrize("preset", ["league", "league-2t+"])
def test_allied_colours_carry_their_players_chance(preset):
    ev = evaluator_for(preset)
    for seed in range(5):
        game = _played(preset, 4, seed, 200, PLAYERS[preset])
        red, black, yellow, green = ev.win_chances(game)
        pc = ev.player_chances(game)
        assert sum(pc.values()) == pytest.approx(1.0)
        if preset == "league":  # green + red, black + yellow
            assert red == green == pc["a"] and black == yellow == pc["b"]
        else:
            assert red == black == pc["a"] and yellow == green == pc["b"]


def test_unused_colours_get_nothing_and_batches_equal_singles():
    ev = evaluator_for("league")
    games = [_played("league", 6, seed, 150 + 7 * seed) for seed in range(6)]
    games.append(Game.new("league", 4, unused=["black", "green"]))
    batch = ev.win_chances_many(games)
    for g, b in zip(games, batch, strict=True):
        assert ev.win_chances(g) == b  # deterministic, bit for bit, batched or not
    two = batch[-1]
    assert two[1] == two[3] == 0.0 and two[0] + two[2] == pytest.approx(1.0)


def test_a_finished_game_returns_its_exact_outcome():
    game = Game.from_positions({"red": [40, 41, 42, 43], "black": [5, "B", "B", "B"]}, turn="black")
    assert game.over and game.winner == "red"
    assert evaluator_for("league").win_chances(game) == (1.0, 0.0, 0.0, 0.0)


def test_an_all_places_game_with_its_winner_known_is_exact():
    game = Game.from_positions(
        {
            "red": [40, 41, 42, 43],
            "black": [5, "B", "B", "B"],
            "yellow": [7, "B", "B", "B"],
        },
        turn="black",
        rules="classic",
    )
    assert not game.over  # classic plays on for the places
    assert evaluator_for("classic").win_chances(game) == (1.0, 0.0, 0.0, 0.0)


def test_a_colour_near_home_is_the_favourite():
    ev = evaluator_for("league")
    game = Game.from_positions({"red": [39, 41, 42, 43], "black": [3, "B", "B", "B"]}, turn="black")
    red, black, _, _ = ev.win_chances(game)
    assert red > 0.8 > 0.2 > black
