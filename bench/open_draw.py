"""Benchmark of the open-tournament table draw against a pure lottery (a script, not a test).

    python bench/open_draw.py [--tournaments 200] [--rounds 5] [--players 12,13,16,17,23,30]

For each field size it simulates ``--tournaments`` tournaments of ``--rounds`` rounds,
once drawn by :func:`tournaments.algorithms.open_draw.draw_round` and once by
:func:`~tournaments.algorithms.open_draw.lottery_round`, and prints the averages of
the quality figures of :class:`~tournaments.algorithms.open_draw.DrawQuality`:

* repeats — repeat pairings per player: Σ over opponents of (meetings − 1);
* worst — how often the most-repeated pair met (averaged over tournaments);
* colours — spread of colours per player (most-played − least-played colour);
* seats — spread of at-board positions per player (positions 1–4),

and the CPU milliseconds per drawn round. The draw only looks at the earlier rounds,
never at results, so simulating the tables is enough.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.algorithms.open_draw import draw_quality, draw_round, lottery_round


def simulate(players: int, rounds: int, tournaments: int, method: str) -> tuple[list[float], float]:
    totals = [0.0, 0.0, 0.0, 0.0]
    cpu = 0.0
    for t in range(tournaments):
        history = []
        rng = random.Random(f"lottery:{players}:{t}")
        for number in range(1, rounds + 1):
            c0 = time.process_time()
            if method == "draw":
                draw = draw_round(range(players), history, seed=f"bench-{players}-{t}")
            else:
                draw = lottery_round(range(players), number, rng=rng)
            cpu += time.process_time() - c0
            history.append(draw)
        quality = draw_quality(history)
        for i, value in enumerate(
            (
                quality.repeat_pairings,
                quality.worst_repeats,
                quality.colour_spread,
                quality.position_spread,
            )
        ):
            totals[i] += value
    return [v / tournaments for v in totals], 1000 * cpu / (tournaments * rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", default="12,13,16,17,23,30")
    args = parser.parse_args()
    print(
        f"{args.tournaments} simulated tournaments of {args.rounds} rounds per line "
        "(averages; lower is better)"
    )
    print(
        f"{'players':>7} {'method':>8} {'repeats':>8} {'worst':>6} {'colours':>8} "
        f"{'seats':>6} {'ms/round':>9}"
    )
    for players in (int(p) for p in args.players.split(",")):
        for method in ("lottery", "draw"):
            (repeats, worst, colours, seats), ms = simulate(
                players, args.rounds, args.tournaments, method
            )
            print(
                f"{players:>7} {method:>8} {repeats:>8.2f} {worst:>6.2f} {colours:>8.2f} "
                f"{seats:>6.2f} {ms:>9.2f}"
            )


if __name__ == "__main__":
    main()
