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
