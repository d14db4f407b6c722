"""Where does the strong player lose against the heuristic? (a script, not a test)

    python bench/strong_gap.py [--games 40] [--first-game 0] [--rollouts 64] [--every 6]
                               [--workers 2] [--rules league]

The games of ``bench/bots.py``'s ``strong2-heuristic`` match (game ``i``: the two-ply
strong player, the registry's ``strong`` until session 9,
at seat ``i mod 4`` against three heuristic players, first roll to colour ``(i div 4) mod
4``, the same per-seat dice). At every decision of the strong player (two or more legal
moves) it also asks the heuristic bot and the three-ply strong player (``StrongBot(depth=3)``)
what they would play. A decision is **measured** when the three do not all agree, and
every ``--every``-th decision anyway: each option is then valued by ``--rollouts`` rollouts
to the end of the game on common random numbers (rollout ``k`` of every option on the same
dice), all four colours played by the heuristic bot (its exact replica
``FastHeuristicPolicy``). For the three opponents that is their true play; for the hero it
is the heuristic's continuation, so the reference values "this move, then play like the
heuristic" — one step of policy improvement over the heuristic, the question being which
of the candidates' moves is better *in this field*.

It prints:

* how often the strong player (two plies) and the heuristic disagree, per game;
* on those decisions, the rollout value of the strong move minus the heuristic's (mean,
  95 % interval), and the same times the disagreements per game: what the strong player's
  deviations from the heuristic are worth per game, in points of winning chance;
* the same split by the kind of move each chose (entry, capture, into the house, a move in
  the house, leaving its field A, other), to see where the deviations lose;
* three plies against two: the value of the 3-ply move minus the 2-ply's where they differ;
* the spread of the option values (best − worst) at the sampled decisions;
* on the every-``--every``-th sample: the gain of choosing by the rollouts (best option by
  one half of the rollouts, valued on the other: unbiased) over each player's move — how
  much one step of policy improvement with the true opponent model would add.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots as bench

from games.engine import HeuristicBot
from games.engine.analysis.dice import dice_for
from games.engine.analysis.policy import FastHeuristicPolicy
from games.engine.analysis.rollout import rollout
from games.engine.strong import StrongBot


def kind(game, seat: int, m) -> str:
    """A coarse name of a move's kind."""
    _s, a, b, cap = m
    T = game.T
    if cap >= 0:
        return "capture"
    if a < 0:
        return "entry"
    if a >= T:
        return "in-house"
    if b >= T:
        return "into-house"
    if a == 0:
        return "leave-A"
    return "track"


def values(game, seat: int, die: int, moves, rollouts: int, tag: int, policy) -> list[list[int]]:
    """Per option, per rollout: 1 if the hero's player won."""
    me = game.setup.player_of(seat)
    afters = []
    for m in moves:
        g = game.copy()
        g.push_raw(die, m)
        afters.append(g)
    out = [[0] * rollouts for _ in moves]
    for k in range(rollouts):
        dice = dice_for(tag, 0, k, len(game.pawns))
        for j, g in enumerate(afters):
            out[j][k] = int(rollout(g.copy(), dice, policy) == me)
    return out


def play(i: int, rollouts: int, every: int) -> dict:
    hero_seat = i % 4
    game = bench.new_game(i)
    st = bench.Streams(i)
    strong, strong3, heur = StrongBot(depth=2), StrongBot(depth=3), HeuristicBot()
    policy = FastHeuristicPolicy()
    opp = HeuristicBot()
    decisions = 0
    rows = []
    while not game.placings and game.events < bench.MAX_EVENTS:
        c = game.turn_seat
        n = int(st.dice[c].random() * 6) + 1
        moves = game.legal(c, n)
        if not moves:
            game.push_raw(n)
            continue
        if len(moves) == 1:
            game.push_raw(n, moves[0])
            continue
        if c != hero_seat:
            game.push_raw(n, opp.choose(game, c, n, moves, st.choice[c]))
            continue
        decisions += 1
        s = strong.best_index(game, c, n, moves)
        t = strong3.best_index(game, c, n, moves)
        h = moves.index(heur.choose(game, c, n, moves, None))
        sampled = decisions % every == 0
        if s != h or t != s or sampled:
            res = values(game, c, n, moves, rollouts, i * 1000 + decisions, policy)
            rows.append(
                {
                    "s": s,
                    "t": t,
                    "h": h,
                    "sampled": sampled,
                    "res": res,
                    "ks": kind(game, c, moves[s]),
                    "kh": kind(game, c, moves[h]),
                    "n": len(moves),
                }
            )
        game.push_raw(n, moves[s])
    won = bool(game.placings) and game.placings[0] == hero_seat
    return {"won": won, "decisions": decisions, "rows": rows}


def chunk(args):
    rules, lo, hi, rollouts, every = args
    bench.RULES = rules
    return [play(i, rollouts, every) for i in range(lo, hi)]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return float("nan"), float("nan")
    m = statistics.fmean(xs)
    h = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, h


def diff(res, a: int, b: int) -> float:
    return (sum(res[a]) - sum(res[b])) / len(res[a])


def split_gain(res, played: int) -> float:
    """Best option by one half of the rollouts, valued on the other, minus ``played``."""
    k = len(res[0])
    half = k // 2
    out = 0.0
    for (lo, hi), (olo, ohi) in (((0, half), (half, k)), ((half, k), (0, half))):
        pick = max(range(len(res)), key=lambda j: sum(res[j][lo:hi]))
        out += (sum(res[pick][olo:ohi]) - sum(res[played][olo:ohi])) / (ohi - olo) / 2
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--rollouts", type=int, default=64)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rules", default="league")
    ap.add_argument("--save", type=Path, default=None, help="write the measured decisions (JSON)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    a, n = args.first_game, args.games
    step = max(1, n // (args.workers * 4))
    jobs = [
        (args.rules, lo, min(a + n, lo + step), args.rollouts, args.every)
        for lo in range(a, a + n, step)
    ]
    games = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(chunk, jobs):
            games += part
    if args.save:
        import json

        args.save.write_text(json.dumps(games))
    g = len(games)
    dec = sum(x["decisions"] for x in games) / g
    rows = [r for x in games for r in x["rows"]]
    wins = sum(x["won"] for x in games)
    print(
        f"{args.rules}: strong vs 3 heuristic, games {a}–{a + n - 1}: hero won {wins}/{g}; "
        f"{dec:.1f} hero decisions a game; {len(rows)} measured, {args.rollouts} rollouts "
        "per option (all colours continue as the heuristic)"
    )

    def report(label: str, sel: list, x: str, y: str) -> None:
        ds = [diff(r["res"], r[x], r[y]) for r in sel]
        m, h = mean_ci(ds)
        per_game = len(sel) / g
        print(
            f"{label}: {per_game:.2f} a game; value {x}−{y} per decision {m:+.4f} ± {h:.4f}; "
            f"per game {m * per_game * 100:+.2f} ± {h * per_game * 100:.2f} points"
        )

    sh = [r for r in rows if r["s"] != r["h"]]
    report("strong (2 plies) ≠ heuristic", sh, "s", "h")
    by = defaultdict(list)
    for r in sh:
        by[(r["ks"], r["kh"])].append(r)
    print("  by kind (strong's move / heuristic's move): n, value s−h per decision, per game")
    for key, sel in sorted(by.items(), key=lambda kv: -len(kv[1])):
        ds = [diff(r["res"], r["s"], r["h"]) for r in sel]
        m, h = mean_ci(ds)
        print(
            f"    {key[0]:>10} / {key[1]:<10} {len(sel):5d}  {m:+.4f} ± {h:.4f}  "
            f"{m * len(sel) / g * 100:+.2f} points a game"
        )
    ts = [r for r in rows if r["t"] != r["s"]]
    report("3 plies ≠ 2 plies", ts, "t", "s")
    th = [r for r in rows if r["t"] != r["h"]]
    report("3 plies ≠ heuristic", th, "t", "h")
    sample = [r for r in rows if r["sampled"]]
    spreads = sorted(
        (max(map(sum, r["res"])) - min(map(sum, r["res"]))) / args.rollouts for r in sample
    )
    if spreads:
        print(
            f"spread of the option values (best − worst, {args.rollouts} rollouts: noise "
            f"included) at the sampled decisions: median {statistics.median(spreads):.4f}, "
            f"90th percentile {spreads[int(0.9 * (len(spreads) - 1))]:.4f}"
        )
    for who in ("s", "t", "h"):
        gains = [split_gain(r["res"], r[who]) for r in sample]
        m, h = mean_ci(gains)
        print(
            f"gain of choosing by the rollouts (split halves) over {who}: per decision "
            f"{m:+.4f} ± {h:.4f} on {len(sample)} sampled; per game ×{dec:.0f} decisions: "
            f"{m * dec * 100:+.2f} ± {h * dec * 100:.2f} points"
        )
    print(f"elapsed {time.perf_counter() - t0:.0f} s wall")


if __name__ == "__main__":
    main()
