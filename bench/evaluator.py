"""The evaluator's calibration and its exact checks (a script, not a test).

    python bench/evaluator.py [--games 200] [--every 25] [--rollouts 1,4,16]
                              [--rules league] [--endgames 24] [--seed 7]
                              [--two-colour 0] [--capture 0]

**Calibration on held-out self-play positions.** ``--games`` games of four heuristic
players under ``--rules`` (board 4), seeded far from the training games (the evaluator's
training used other seeds and the presets' mix), are played out; every ``--every``-th roll
point is a test position and the game's winner its label. For each position the evaluator's
chances and the rollout estimates of today's analysis (the ``lite`` policy, common dice,
``N`` rollouts for each ``N`` of ``--rollouts``; a rollout's 0/1 shares are smoothed to
``(wins + 1/players) / (N + 1)`` so the log loss stays finite) are scored against the
label: log loss and Brier score (per position, summed over the players), the CPU per
position, and a reliability table of the evaluator (the chance it gave every player, in
bins, against how often those players won). CPU time, one process.

**Exact checks.** ``--endgames`` small endgames (tests/engine/endgames.py: races with and
without ``jump_in_goal``, three colours, board 6, and positions with a capture possible)
solved by expectimax (games/engine/analysis/exact.py): the evaluator's largest error and
the strong player's choices (exact best, largest loss). Solving takes seconds each.

**Two-colour games** (``--two-colour N``): N games of the strong player against the
heuristic, two colours on the board (board 4 opposite and adjacent seats, board 6
opposite; league rules), one process, the endgame memo kept across games as in a room's
process: the strong player's decision CPU (p50 / p99 / max), how many decisions solved an
endgame graph (evaluator/endgame.py) and their CPU — the budget check of the exact
endgames, which four-colour games never reach.

**Capture endgames, solved** (``--capture N``): N random capture endgames of each kind
(tests/engine/endgames.py ``capture``: league, ``jump_in_goal``, board 6; seeded by
``--seed``): how many the rule of evaluator/endgame.py takes, the CPU of a solve, and at
every roll with a choice the strong player's move — with the endgame part and on the
network alone — against the best by the solver's values (exact: the solver agrees with
exact.py to 1e-4, tests/engine/test_evaluator_endgame.py).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game, HeuristicBot
from games.engine.analysis.policy import default_policy
from games.engine.analysis.rollout import estimate_options
from games.engine.evaluator import evaluator_for
from games.engine.strong import StrongBot


def positions(rules: str, games: int, every: int, seed: int):
    """(game copy, winner) at every ``every``-th roll point of ``games`` heuristic games."""
    out = []
    bot = HeuristicBot()
    for i in range(games):
        rng = random.Random(10_000_000 + seed * 100_000 + i)
        g = Game.new(rules, first=rng.choice(["red", "black", "yellow", "green"]))
        taken = []
        while not g.placings and g.events < 20_000:
            if g.events % every == every // 2:
                taken.append(g.copy())
            c = g.turn_seat
            n = rng.randint(1, 6)
            moves = g.legal(c, n)
            m = None
            if moves:
                m = moves[0] if len(moves) == 1 else bot.choose(g, c, n, moves, rng)
            g.push_raw(n, m)
        winner = g.setup.player_of(g.placings[0]) if g.placings else None
        out += [(t, winner) for t in taken if winner is not None]
    return out


def score(probs: list[dict[str, float]], labels: list[str]) -> tuple[float, float]:
    ll = br = 0.0
    for p, y in zip(probs, labels, strict=True):
        ll -= math.log(max(p[y], 1e-12))
        br += sum((v - (1.0 if k == y else 0.0)) ** 2 for k, v in p.items())
    return ll / len(labels), br / len(labels)


def calibration(args) -> None:
    data = positions(args.rules, args.games, args.every, args.seed)
    labels = [w for _g, w in data]
    games = [g for g, _w in data]
    players = list(games[0].setup.players)
    ev = evaluator_for(args.rules)
    t0 = time.process_time()
    chances = [ev.player_chances(g) for g in games]
    cpu = (time.process_time() - t0) / len(games)
    uniform = [{p: 1 / len(players) for p in players} for _ in games]
    print(
        f"{len(games)} held-out positions from {args.games} {args.rules} games "
        f"(heuristic self-play, every {args.every}th roll point)"
    )
    print(f"{'estimate':<26} {'log loss':>9} {'Brier':>7} {'CPU ms/position':>16}")
    ll, br = score(uniform, labels)
    print(f"{'uniform (1/players)':<26} {ll:9.4f} {br:7.4f} {0:16.3f}")
    ll, br = score(chances, labels)
    print(f"{'evaluator':<26} {ll:9.4f} {br:7.4f} {cpu * 1000:16.3f}")
    policy = default_policy()
    for n in (int(x) for x in args.rollouts.split(",") if x):
        t0 = time.process_time()
        est = []
        for j, g in enumerate(games):
            r = estimate_options([g], n, seed=args.seed, decision=j, policy=policy)[0]
            shares = r.shares(players)
            k = len(players)
            est.append({p: (shares[p] * n + 1 / k) / (n + 1) for p in players})
        cpu = (time.process_time() - t0) / len(games)
        ll, br = score(est, labels)
        print(f"{f'rollouts, N = {n}':<26} {ll:9.4f} {br:7.4f} {cpu * 1000:16.3f}")
    print("reliability of the evaluator (every player's chance at every position):")
    print(f"{'chance':>12} {'pairs':>7} {'mean chance':>12} {'won':>7}")
    bins = [(0, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.4), (0.4, 0.5)]
    bins += [(0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0001)]
    for lo, hi in bins:
        pairs = [(c[p], p == y) for c, y in zip(chances, labels, strict=True) for p in c]
        sel = [(v, w) for v, w in pairs if lo <= v < hi]
        if sel:
            mean = sum(v for v, _ in sel) / len(sel)
            won = sum(w for _, w in sel) / len(sel)
            print(f"{lo:5.2f}-{min(hi, 1):4.2f} {len(sel):7d} {mean:12.3f} {won:7.3f}")


def exact_checks(args) -> None:
    from tests.engine.endgames import check, endgames

    bot = StrongBot()
    ev = evaluator_for("league")
    by_kind: dict[str, list] = {}
    t0 = time.process_time()
    for e in endgames(args.seed, args.endgames):
        t1 = time.process_time()
        try:
            c = check(e, bot, ev)
        except ValueError:  # too many states for the solver
            continue
        by_kind.setdefault(c.kind, []).append(c)
        err = max(abs(c.exact[p] - c.evaluated[p]) for p in c.exact)
        print(
            f"  {c.kind:<22} |error| {err:.4f}  decisions {c.decisions}, exact best "
            f"{c.best}, worst loss {c.worst_loss:.4f}  ({time.process_time() - t1:.1f} s CPU)",
            flush=True,
        )
    print(f"exact checks ({time.process_time() - t0:.0f} s CPU):")
    print(
        f"{'endgame':<22} {'n':>3} {'max |error|':>12} {'mean |error|':>13} "
        f"{'decisions':>9} {'exact best':>10} {'worst loss':>10}"
    )
    for kind, checks in by_kind.items():
        errs = [abs(c.exact[p] - c.evaluated[p]) for c in checks for p in c.exact]
        print(
            f"{kind:<22} {len(checks):3d} {max(errs):12.4f} {sum(errs) / len(errs):13.4f} "
            f"{sum(c.decisions for c in checks):9d} {sum(c.best for c in checks):10d} "
            f"{max(c.worst_loss for c in checks):10.4f}"
        )


def two_colour(args) -> None:
    from games.engine.evaluator import endgame

    bot = StrongBot()
    heur = HeuristicBot()
    layouts = [(4, ("red", "yellow")), (4, ("red", "black")), (6, ("red", "green"))]
    times: list[float] = []
    solving: list[float] = []
    won = 0
    t0 = time.process_time()
    for i in range(args.two_colour):
        board, colours = layouts[i % len(layouts)]
        rng = random.Random(20_000_000 + i)
        hero = colours[i % 2]
        names = ["red", "black", "yellow", "green", "blue", "white"][:board]
        unused = [c for c in names if c not in colours]
        g = Game.new("league", board, unused=unused, first=colours[(i // 2) % 2])
        while not g.over:
            c = g.turn_seat
            n = rng.randint(1, 6)
            moves = g.legal(c, n)
            m = None
            if len(moves) == 1:
                m = moves[0]
            elif moves:
                if g.names[c] == hero:
                    before = endgame.solved
                    t = time.process_time()
                    m = bot.choose(g, c, n, moves, rng)
                    dt = time.process_time() - t
                    times.append(dt)
                    if endgame.solved != before:
                        solving.append(dt)
                else:
                    m = heur.choose(g, c, n, moves, rng)
            g.push_raw(n, m)
        won += g.winner == hero
    times.sort()
    solving.sort()

    def q(xs, p):
        return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else float("nan")

    print(
        f"two-colour games: {args.two_colour} (strong vs heuristic, league), strong won "
        f"{won} ({time.process_time() - t0:.0f} s CPU); {len(times)} decisions: CPU p50 "
        f"{q(times, 0.5):.2f} / p99 {q(times, 0.99):.2f} / max {q(times, 1.0):.1f} ms; "
        f"{len(solving)} solved an endgame graph: p50 {q(solving, 0.5):.1f} / max "
        f"{q(solving, 1.0):.1f} ms"
    )


def capture_choices(args) -> None:
    from games.engine.evaluator import Evaluator, endgame, shipped_network
    from tests.engine.endgames import JUMP, capture

    rng = random.Random(args.seed)
    bots = {
        "strong": StrongBot(evaluator_for("league")),
        "strong, network alone": StrongBot(Evaluator(shipped_network(), exact_endgames=False)),
    }
    stats = {name: [0, 0, 0.0] for name in bots}  # decisions, exact best, worst loss
    kinds = [("league", 4, "league"), ("jump_in_goal", 4, JUMP), ("board 6", 6, "league")]
    for kind, board, rules in kinds:
        made = solved = 0
        times: list[float] = []
        while made < args.capture:
            g = capture(rng, board, rules)
            if g is None or g.over:
                continue
            made += 1
            endgame.clear()
            t = time.process_time()
            if endgame.endgame_chance(g) is None:
                continue
            times.append(time.process_time() - t)
            solved += 1
            c = g.turn_seat
            for d in range(1, 7):
                moves = g.legal(c, d)
                if len(moves) < 2:
                    continue
                values = []
                for m in moves:
                    h = g.copy()
                    h.push_raw(d, m)
                    if h.over:
                        values.append(1.0 if h.winner == g.setup.player_of(c) else 0.0)
                        continue
                    x, _y, px = endgame.endgame_chance(h)
                    values.append(px if x == c else 1.0 - px)
                best = max(values)
                for name, bot in bots.items():
                    loss = best - values[moves.index(bot.choose(g, c, d, moves, rng))]
                    st = stats[name]
                    st[0] += 1
                    st[1] += loss <= 1e-4
                    st[2] = max(st[2], loss)
        times.sort()
        print(
            f"capture {kind}: {solved} of {made} in the rule; solve CPU p50 "
            f"{times[len(times) // 2] * 1000:.1f} / max {times[-1] * 1000:.1f} ms"
        )
    for name, (n, best, worst) in stats.items():
        print(f"{name}: {n} decisions, the exact best {best}, worst loss {worst:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--rollouts", default="1,4,16")
    parser.add_argument("--rules", default="league")
    parser.add_argument("--endgames", type=int, default=24)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--two-colour", type=int, default=0)
    parser.add_argument("--capture", type=int, default=0)
    args = parser.parse_args()
    if args.games:
        calibration(args)
    if args.endgames:
        exact_checks(args)
    if args.two_colour:
        two_colour(args)
    if args.capture:
        capture_choices(args)


if __name__ == "__main__":
    main()
