"""How much do a player's choices matter against three random players? (a script, not a test)

    python bench/headroom.py [--games 24] [--rollouts 2000] [--every 3] [--workers 2]
                             [--field random|lite]

The evidence for issue #15's question whether 80 % wins against three random players can
be reached under league rules. League rules, board 4, four colours, each its own player;
game ``i`` gives the hero seat ``i mod 4`` and the first roll to colour ``(i div 4) mod 4``.
The hero plays the lite rollout policy (as strong as the heuristic bot), the others play
at random. At every ``--every``-th decision of the hero (two or more legal moves) each
option is valued by ``--rollouts`` rollouts to the end of the game under the *true*
model of the opponents — the hero playing on with the lite policy, the three others at
random — on common random numbers (the same dice and the same random choices for every
option), split in two halves. With ``--field lite`` the three others play the lite policy
too, in the game and in the rollouts (four equal players: the question whether a player
can clearly beat three heuristic ones).

It prints, over the sampled decisions:

* the spread of the option values (best − worst), its mean, median and 90th percentile;
* how often the hero's move is significantly worse than the best (paired z > 2);
* the **gain** of choosing by the rollouts instead of the policy, per decision and per
  game (× decisions per game), two ways: *plug-in* (best by all rollouts, minus the move
  played, on the same rollouts: biased upwards, as a maximum of noisy values is) and
  *split* (best by one half, valued on the other: unbiased for the player choosing by
  half the rollouts, below the perfect chooser's gain), and *guarded* (the same, but
  leaving the policy's move only where that half shows it worse by z > 2).

One step of policy improvement (the perfect chooser against the true opponents) adds
about ``decisions per game × true gain per decision`` to the policy's win rate; the
plug-in figure bounds that from above (in expectation), and further steps add less.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game
from games.engine.analysis.dice import dice_for
from games.engine.analysis.policy import LitePolicy, Policy
from games.engine.analysis.rollout import rollout

COLOURS = ("red", "black", "yellow", "green")


class HeroAgainstRandom(Policy):
    """The rollout policy of the measurement: the hero's seat by ``hero``, the others at
    random from ``rng`` (reseeded per rollout, so every option sees the same choices)."""

    def __init__(self, hero: Policy, seat: int) -> None:
        self.hero, self.seat, self.rng = hero, seat, random.Random(0)

    def choose(self, game, seat, die, moves):
        if seat == self.seat:
            return self.hero.choose(game, seat, die, moves)
        return moves[int(self.rng.random() * len(moves))]


def values(game: Game, seat: int, die: int, moves: list, rollouts: int, tag: int, field: str):
    """Per option: wins in each half of the rollouts, and the per-rollout results."""
    policy = HeroAgainstRandom(LitePolicy(), seat) if field == "random" else None
    lite = LitePolicy()
    me = game.setup.player_of(seat)
    after = []
    for m in moves:
        g = game.copy()
        g.push_raw(die, m)
        after.append(g)
    results = [[0] * rollouts for _ in moves]
    for k in range(rollouts):
        dice = dice_for(tag, 0, k, len(game.pawns))
        for j, g in enumerate(after):
            if policy is None:
                results[j][k] = int(rollout(g.copy(), dice, lite) == me)
                continue
            policy.rng.seed(tag * 1_000_003 + k)
            results[j][k] = int(rollout(g.copy(), dice, policy) == me)
    return results


def play(i: int, rollouts: int, every: int, field: str) -> tuple[bool, int, list[dict]]:
    """Game ``i``: (hero won, hero decisions, the sampled decisions' figures)."""
    hero = i % 4
    game = Game.new("league", first=COLOURS[(i // 4) % 4])
    dice, choice = random.Random(i * 7919), random.Random(i * 104_729)
    lite = LitePolicy()
    decisions = 0
    sampled = []
    while not game.over:
        c = game.turn_seat
        n = dice.randint(1, 6)
        moves = game.legal(c, n)
        if not moves:
            game.push_raw(n)
            continue
        if len(moves) == 1:
            m = moves[0]
        elif c != hero and field == "random":
            m = moves[int(choice.random() * len(moves))]
        elif c != hero:
            m = lite.choose(game, c, n, moves)
        else:
            m = lite.choose(game, c, n, moves)
            decisions += 1
            if decisions % every == 0:
                res = values(game, c, n, moves, rollouts, i * 1000 + decisions, field)
                sampled.append(figures(res, moves.index(m)))
        game.push_raw(n, m)
    return game.placings[0] == hero, decisions, sampled


def figures(res: list[list[int]], played: int) -> dict:
    k = len(res[0])
    half = k // 2
    mean = [sum(r) / k for r in res]
    best = max(range(len(res)), key=lambda j: mean[j])
    diff = [a - b for a, b in zip(res[best], res[played], strict=True)]
    sd = statistics.pstdev(diff) if best != played else 0.0
    split = 0.0
    for lo, hi in ((0, half), (half, k)):  # choose on one half, value on the other
        olo, ohi = (half, k) if lo == 0 else (0, half)
        pick = max(range(len(res)), key=lambda j: sum(res[j][lo:hi]))
        split += (sum(res[pick][olo:ohi]) - sum(res[played][olo:ohi])) / (ohi - olo) / 2
    guarded = 0.0  # deviate from the policy only where one half shows it clearly worse
    for lo, hi in ((0, half), (half, k)):
        olo, ohi = (half, k) if lo == 0 else (0, half)
        pick = max(range(len(res)), key=lambda j: sum(res[j][lo:hi]))
        d = [a - b for a, b in zip(res[pick][lo:hi], res[played][lo:hi], strict=True)]
        if pick != played and statistics.fmean(d) > 2 * statistics.pstdev(d) / math.sqrt(len(d)):
            guarded += (sum(res[pick][olo:ohi]) - sum(res[played][olo:ohi])) / (ohi - olo) / 2
    return {
        "guarded": guarded,
        "spread": max(mean) - min(mean),
        "plug_in": mean[best] - mean[played],
        "split": split,
        "significant": best != played and mean[best] - mean[played] > 2 * sd / math.sqrt(k),
    }


def chunk(args: tuple[int, int, int, int, str]):
    lo, hi, rollouts, every, field = args
    return [play(i, rollouts, every, field) for i in range(lo, hi)]


def ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return f"{m:+.4f} ± {h:.4f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--rollouts", type=int, default=2000)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--field", choices=("random", "lite"), default="random")
    args = ap.parse_args()
    t0 = time.perf_counter()
    a = args.first_game
    step = max(1, args.games // (args.workers * 2))
    jobs = [
        (lo, min(a + args.games, lo + step), args.rollouts, args.every, args.field)
        for lo in range(a, a + args.games, step)
    ]
    games = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(chunk, jobs):
            games += part
    wins = sum(g[0] for g in games)
    per_game = statistics.fmean(g[1] for g in games)
    s = [d for g in games for d in g[2]]
    spreads = sorted(d["spread"] for d in s)
    print(
        f"league rules, lite hero vs 3 {args.field}: {len(games)} games, hero won {wins} "
        f"({wins / len(games):.1%}); {per_game:.1f} hero decisions per game; "
        f"{len(s)} sampled, {args.rollouts} rollouts per option"
    )
    print(
        f"option spread (best − worst): mean {statistics.fmean(spreads):.4f}, "
        f"median {statistics.median(spreads):.4f}, "
        f"90th percentile {spreads[int(0.9 * (len(spreads) - 1))]:.4f}"
    )
    sig = sum(d["significant"] for d in s)
    print(f"hero's move significantly worse than the best (z > 2): {sig} of {len(s)}")
    for key in ("plug_in", "split", "guarded"):
        xs = [d[key] for d in s]
        m = statistics.fmean(xs)
        print(f"gain per decision ({key}): {ci(xs)};  per game: {m * per_game:+.3f}")
    print(f"elapsed {time.perf_counter() - t0:.0f} s wall")


if __name__ == "__main__":
    main()
