"""Is the fast rollout policy the heuristic bot? Agreement and speed (a script, not a test).

    python bench/rollout_policy.py [--games 40] [--rules league,online,classic]
    python bench/rollout_policy.py --strength lite [--games 2000] [--rules league]

Plays ``--games`` games per preset with heuristic players; at every decision (more
than one legal move) asks both :class:`HeuristicPolicy` (the bot itself: a copy and a
full evaluation per move) and :class:`FastHeuristicPolicy` (incremental scores) and
counts how often they choose the same move, and times both over the same decisions.
Same choices at every decision means the same player (so the same strength).

``--strength NAME`` instead plays ``--games`` four-colour games of the policy NAME on
one seat (rotating) against three heuristic bots and prints its win share with a
95 % interval (25 % = as strong as the bot), and the CPU µs per decision of both.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Bot, Game, HeuristicBot, play
from games.engine.analysis.policy import POLICIES, FastHeuristicPolicy, HeuristicPolicy
from games.engine.simulate import _setup


def decisions(rules: str, games: int):
    slow = HeuristicPolicy()
    for seed in range(games):
        rng = random.Random(seed)
        game = Game(_setup(rules, 4, None, None, None, None, rng))
        while not game.over:
            c = game.turn_seat
            n = rng.randint(1, 6)
            moves = game.legal(c, n)
            m = None
            if len(moves) > 1:
                yield game.copy(), c, n, moves
                m = slow.choose(game, c, n, moves)
            elif moves:
                m = moves[0]
            huff = None
            if m is not None and game.huffing and game.huff_due(c, moves, m):
                huff = slow.choose_huff(game, c, sorted(game.huff_targets(c, moves, m)))
            game.push_raw(n, m, huff)


class Timed(Bot):
    """A bot (or a rollout policy) that adds up its CPU time per decision."""

    def __init__(self, choose) -> None:
        self._choose = choose
        self.seconds = 0.0
        self.calls = 0

    def choose(self, game, seat, die, moves, rng):
        t = time.process_time()
        m = self._choose(game, seat, die, moves)
        self.seconds += time.process_time() - t
        self.calls += 1
        return m


def strength(name: str, rules: str, games: int) -> None:
    policy = POLICIES[name]()
    mine = Timed(policy.choose)
    heuristic = HeuristicBot()
    theirs = Timed(lambda g, s, d, ms: heuristic.choose(g, s, d, ms, None))
    wins = 0
    for i in range(games):
        rng = random.Random(i)
        game = Game(_setup(rules, 4, None, "red", None, None, rng))
        seat = i % 4
        bots = [mine if s == seat else theirs for s in range(4)]
        play(game, bots, rng, until_first=True)
        wins += game.placings[0] == seat
    p = wins / games
    hw = 1.96 * math.sqrt(p * (1 - p) / games)
    print(
        f"{name} vs 3 heuristic bots, {rules}, {games} games: wins {100 * p:.1f} %"
        f" ± {100 * hw:.1f} (95 %); µs per decision: {name}"
        f" {1e6 * mine.seconds / max(mine.calls, 1):.1f},"
        f" bot {1e6 * theirs.seconds / max(theirs.calls, 1):.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rules", default="league,online,classic")
    ap.add_argument("--strength", default=None, choices=sorted(POLICIES))
    args = ap.parse_args()
    if args.strength:
        for rules in args.rules.split(","):
            strength(args.strength, rules, args.games)
        return
    for rules in args.rules.split(","):
        cases = list(decisions(rules, args.games))
        slow, fast = HeuristicPolicy(), FastHeuristicPolicy()
        t0 = time.process_time()
        a = [slow.choose(g, c, n, ms) for g, c, n, ms in cases]
        t1 = time.process_time()
        b = [fast.choose(g, c, n, ms) for g, c, n, ms in cases]
        t2 = time.process_time()
        same = sum(x == y for x, y in zip(a, b, strict=True))
        print(
            f"{rules}: {len(cases)} decisions, same choice {same}"
            f" ({100 * same / len(cases):.3f} %);"
            f" µs per decision: bot {1e6 * (t1 - t0) / len(cases):.1f},"
            f" fast {1e6 * (t2 - t1) / len(cases):.1f} (×{(t1 - t0) / (t2 - t1):.1f})"
        )


if __name__ == "__main__":
    main()
