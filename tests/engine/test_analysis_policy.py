"""The fast rollout policy is the heuristic bot: on positions from random games (all
the presets and the variants, one and two players per side) it chooses exactly the
move ``HeuristicBot.choose`` chooses."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, HeuristicBot, Setup
from games.engine.analysis.policy import FastHeuristicPolicy, HeuristicPolicy, RandomPolicy

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


def test_the_random_policy_is_seeded_per_rollout_paired_and_independent() -> None:
    """Rollout ``k`` of every option starts the random policy from the same seed (its
    choices are paired like the dice), different rollouts from different seeds, and the
    same call gives the same winners (deterministic)."""
    from games.engine import simulate_game
    from games.engine.analysis.rollout import estimate_options
    from games.engine.validate import replay_log

    log = simulate_game(rules="league", bots="heuristic", seed=3)
    _, game, steps = replay_log(log)
    for step in steps:
        if step.index == 60:
            break
        game.push_event(step.event)
    seeds: list[int] = []

    class Recording(RandomPolicy):
        def start(self, seed: int) -> None:
            seeds.append(seed)
            super().start(seed)

    first = estimate_options([game.copy(), game.copy()], 40, 7, 60, Recording())
    # identical states share their rollouts; a copy of another state gets its own
    other = game.copy()
    other.push_raw(6 if not other.legal(other.turn_seat, 6) else 1)
    seeds.clear()
    a = estimate_options([game, other], 40, 7, 60, Recording())
    assert seeds[0::2] == seeds[1::2]  # both options of rollout k: one seed
    assert len(set(seeds[0::2])) == 40  # a seed of its own per rollout
    b = estimate_options([game, other], 40, 7, 60, RandomPolicy())
    assert [x.winners for x in a] == [x.winners for x in b]
    assert first[0].winners == a[0].winners
    assert len(set(a[0].winners)) > 1  # random play: not one winner every time

    picks = RandomPolicy()
    moves = [(0, 1, 2), (0, 3, 4), (0, 5, 6)]
    picks.start(11)
    run1 = [picks.choose(game, 0, 1, moves) for _ in range(30)]
    picks.start(11)
    assert [picks.choose(game, 0, 1, moves) for _ in range(30)] == run1
    assert set(run1) == set(moves)
