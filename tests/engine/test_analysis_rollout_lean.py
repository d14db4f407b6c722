"""A rollout under every preset runs in the engine's lean loop (``simulate.play_lean``
with the policy as chooser and the per-seat dice); under the variants it takes the
general loop. Both are the same game: from positions of random games, the lean and the
general rollout on the same dice end in the same position, after the same number of
rolls, with the same winner — for the lite and the heuristic policies."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, Setup
from games.engine.analysis.dice import dice_for
from games.engine.analysis.policy import FastHeuristicPolicy, LitePolicy
from games.engine.analysis.rollout import rollout, rollout_general, state_key
from games.engine.simulate import lean_rules, play_lean

PRESETS = ["league", "online", "classic", "league-2t+", "league-gp"]
PLAYERS = [None, {"alice": ["green", "red"], "bob": ["black", "yellow"]}]


def random_position(rules: Any, players: Any, board: int, seed: int) -> Game:
    rng = random.Random(seed)
    colours = {4: None, 6: None}[board]
    setup = Setup.create(board=board, rules=rules, players=players, first="red", colours=colours)
    game = Game(setup)
    for _ in range(rng.randrange(0, 400)):
        if game.over:
            break
        n = rng.randint(1, 6)
        moves = game.legal(game.turn_seat, n)
        game.push_raw(n, moves[int(rng.random() * len(moves))] if moves else None)
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(PRESETS),
    st.sampled_from(PLAYERS),
    st.sampled_from([4, 6]),
    st.integers(0, 2**31),
    st.sampled_from([LitePolicy, FastHeuristicPolicy]),
)
def test_the_lean_rollout_is_the_general_rollout(rules, players, board, seed, policy) -> None:
    if board == 6:
        players = None
    game = random_position(rules, players, board, seed)
    assert lean_rules(game)
    p = policy()
    for k in range(3):
        lean, general = game.copy(), game.copy()
        seats = len(game.pawns)
        won_lean = rollout(lean, dice_for(seed, 0, k, seats), p)
        won_general = rollout_general(general, dice_for(seed, 0, k, seats), p)
        assert won_lean == won_general
        assert state_key(lean) == state_key(general)
        assert lean.events == general.events
        assert lean.capture_counts == general.capture_counts


def test_the_variants_take_the_general_loop() -> None:
    setup = Setup.create(board=4, rules={"preset": "classic", "barriers": True}, first="red")
    game = Game(setup)
    assert not lean_rules(game)
    with pytest.raises(ValueError, match="lean loop"):
        play_lean(game, random.Random(1))
    # rollout() still plays it, by the general loop
    assert rollout(game.copy(), dice_for(1, 0, 0, 4), LitePolicy()) is not None


def test_play_lean_needs_a_source_of_choices() -> None:
    game = Game(Setup.create(board=4, rules="league", first="red"))
    with pytest.raises(ValueError, match="rng"):
        play_lean(game, dice=dice_for(1, 0, 0, 4))
