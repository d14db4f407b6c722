"""The fast rollout policy is the heuristic bot: on positions from random games (all
the presets and the variants, one and two players per side) it chooses exactly the
move ``HeuristicBot.choose`` chooses."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, HeuristicBot, Setup
from games.engine.analysis.policy import FastHeuristicPolicy, HeuristicPolicy

RULES: list[Any] = [
    "league",
    "online",
    "classic",
    "league-2t+",
    {"preset": "classic", "compulsory_capture": "huff"},
    {"preset": "classic", "neutral": "green"},
    {"preset": "classic", "barriers": True},
]
PLAYERS = [None, {"alice": ["green", "red"], "bob": ["black", "yellow"]}]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES), st.sampled_from(PLAYERS), st.integers(0, 2**31))
def test_fast_policy_chooses_like_the_heuristic_bot(rules: Any, players: Any, seed: int) -> None:
    if isinstance(rules, dict) and "neutral" in rules:
        players = None
    rng = random.Random(seed)
    setup = Setup.create(board=4, rules=rules, players=players, first="red")
    game = Game(setup)
    bot, fast = HeuristicBot(), FastHeuristicPolicy()
    slow = HeuristicPolicy()
    checked = 0
    while not game.over and game.events < 3000:
        c = game.turn_seat
        n = rng.randint(1, 6)
        moves = game.legal(c, n)
        m = None
        if len(moves) > 1:
            expected = bot.choose(game, c, n, moves, rng)
            assert fast.choose(game, c, n, moves) == expected
            assert slow.choose(game, c, n, moves) == expected
            checked += 1
            m = moves[int(rng.random() * len(moves))]  # random play: varied positions
        elif moves:
            m = moves[0]
        huff = None
        if m is not None and game.huffing and game.huff_due(c, moves, m):
            huff = min(game.huff_targets(c, moves, m))
        game.push_raw(n, m, huff)
    assert checked > 0


def test_the_lite_policy_values_a_house_pawn_where_it_stands():
    # yellow can capture red on its 38 (36→38) or step inside the house (40→42): the
    # heuristic captures; the lite policy once counted the house pawn's whole worth as a gain
    from games.engine import Game, HeuristicBot
    from games.engine.analysis.policy import FastHeuristicPolicy, LitePolicy

    yard = ["B"] * 4
    game = Game.from_positions(
        {"yellow": [36, 40, "B", "B"], "red": [18, "B", "B", "B"], "black": yard, "green": yard},
        turn="yellow",
        rules="league",
    )
    seat = game.turn_seat
    moves = game.legal(seat, 2)
    assert sorted(moves) == [(seat, 36, 38, 0), (seat, 40, 42, -1)]
    capture = (seat, 36, 38, 0)
    assert HeuristicBot().choose(game, seat, 2, moves, random.Random(1)) == capture
    assert LitePolicy().choose(game, seat, 2, moves) == capture
    assert FastHeuristicPolicy().choose(game, seat, 2, moves) == capture
