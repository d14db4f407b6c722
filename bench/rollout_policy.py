"""Is the fast rollout policy the heuristic bot? Agreement and speed (a script, not a test).

    python bench/rollout_policy.py [--games 40] [--rules league,online,classic]

Plays ``--games`` games per preset with heuristic players; at every decision (more
than one legal move) asks both :class:`HeuristicPolicy` (the bot itself: a copy and a
full evaluation per move) and :class:`FastHeuristicPolicy` (incremental scores) and
counts how often they choose the same move, and times both over the same decisions.
Same choices at every decision means the same player (so the same strength).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game
from games.engine.analysis.policy import FastHeuristicPolicy, HeuristicPolicy
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rules", default="league,online,classic")
    args = ap.parse_args()
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
