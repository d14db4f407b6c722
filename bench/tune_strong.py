"""Tuning the strong player's weights (a script, not a test).

    python bench/tune_strong.py [--games 4000] [--offset 100000] [--workers 2]
                                [--field random|heuristic]
                                RACE=1 HAZARD=0.05 RISK=1 H_ENEMY=0.5 ...

Plays ``StrongBot`` with the given class attributes (``H_NAME``: a weight of the heuristic
score inside it) and ``HeuristicBot`` in the *same* games against three random players,
or three heuristic ones with ``--field heuristic`` (league rules, the games and per-seat dice of
``bench/bots.py``, game numbers from ``--offset`` so that tuning never sees the games the
benchmark reports) and prints both win rates and their paired difference with its 95%
interval. With common dice most games end the same for both, so a difference of a point
is visible in a few thousand games where each rate alone would need tens of thousands.

The weights in games/engine/strong.py were chosen this way, one at a time (the runs and
what was dropped: docs/engine.md, "Computer players").
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import paired, play_game

from games.engine import HeuristicBot, RandomBot
from games.engine.strong import StrongBot


def chunk(args: tuple[int, int, dict[str, float], str]) -> list[tuple[bool, bool]]:
    lo, hi, weights, field = args
    strong = StrongBot()
    for name, value in weights.items():
        if name.startswith("H_"):  # a weight of the heuristic score inside the strong player
            setattr(strong._heuristic, name[2:], value)
        else:
            setattr(strong, name, value)
    heuristic = HeuristicBot()
    opponent = heuristic if field == "heuristic" else RandomBot()
    return [
        (play_game(i, strong, opponent, None)[0], play_game(i, heuristic, opponent, None)[0])
        for i in range(lo, hi)
    ]


def parse(items: list[str]) -> dict[str, float]:
    weights = {}
    for item in items:
        name, _, value = item.partition("=")
        owner, attr = (HeuristicBot, name[2:]) if name.startswith("H_") else (StrongBot, name)
        if not hasattr(owner, attr) or not attr.isupper():
            raise SystemExit(f"unknown weight {name!r}")
        weights[name] = float(value)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--offset", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--field", choices=("random", "heuristic"), default="random")
    parser.add_argument("weights", nargs="*", help="NAME=VALUE, e.g. HAZARD=0.1")
    args = parser.parse_args()
    weights = parse(args.weights)
    t0 = time.perf_counter()
    step = 50
    chunks = [
        (lo, min(args.offset + args.games, lo + step), weights, args.field)
        for lo in range(args.offset, args.offset + args.games, step)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        results = [r for part in pool.map(chunk, chunks) for r in part]
    strong = [a for a, _ in results]
    heuristic = [b for _, b in results]
    n = len(results)
    print(
        f"{weights or 'defaults'}: strong {sum(strong) / n:.1%}  heuristic "
        f"{sum(heuristic) / n:.1%}  difference {paired(strong, heuristic)}  "
        f"({n} games, {time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
