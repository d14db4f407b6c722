"""Benchmark of the rules engine (a script, not a test).

    python bench/engine.py [--rules league,classic,online] [--logs 200] [--games 1000]
                           [--repeat 3]

For each preset it prints

* validation throughput: events per second of ``validate()`` over a set of
  simulated logs (complete games, random players), given as parsed dicts and as the
  JSON text an upload arrives as (parsing included), and
* simulation speed: random-play games per second, each played to the first
  colour home (``play(..., until_first=True)``, no log recorded), and rolls per
  second.

Single process. Times are CPU seconds of this process (``time.process_time``),
best of ``--repeat`` runs, so a busy machine disturbs them less; wall-clock
figures are printed alongside. Targets (docs/engine.md): ≥ 250,000 events/s
validated and ≥ 500 random league games/s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game, RandomBot, play, simulate_game, validate

COLOURS = ("red", "black", "yellow", "green")


def best_of(repeat: int, run: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of the fastest of ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall)


def bench_validation(
    rules: str, logs: int, repeat: int, *, text: bool = False
) -> tuple[int, float, float]:
    games = [simulate_game(rules=rules, seed=seed) for seed in range(logs)]
    events = sum(len(g["events"]) for g in games)
    if text:  # the upload path: the JSON text is read (and checked) by the engine too
        games = [json.dumps(g) for g in games]

    def run() -> None:
        for g in games:
            if not validate(g)["valid"]:  # pragma: no cover - would be a bug
                raise SystemExit(f"simulated log not valid under {rules}")

    cpu, wall = best_of(repeat, run)
    return events, cpu, wall


def bench_simulation(rules: str, games: int, repeat: int) -> tuple[int, float, float]:
    bots = [RandomBot()] * len(COLOURS)
    rolls = 0

    def run() -> None:
        nonlocal rolls
        rng = random.Random(12345)
        rolls = 0
        for i in range(games):
            game = Game.new(rules, first=COLOURS[i % len(COLOURS)])
            play(game, bots, rng, until_first=True)
            rolls += game.events

    cpu, wall = best_of(repeat, run)
    return rolls, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="league,classic,online")
    parser.add_argument("--logs", type=int, default=200, help="logs validated per run")
    parser.add_argument("--games", type=int, default=1000, help="games simulated per run")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, single process, best of {args.repeat}")
    print(
        f"{'rules':<10} {'validated events/s':>19} {'(wall)':>10} {'from text':>10} "
        f"{'games/s':>9} {'(wall)':>8} {'rolls/game':>11} {'rolls/s':>10}"
    )
    for rules in args.rules.split(","):
        events, vcpu, vwall = bench_validation(rules, args.logs, args.repeat)
        _, tcpu, _ = bench_validation(rules, args.logs, args.repeat, text=True)
        rolls, scpu, swall = bench_simulation(rules, args.games, args.repeat)
        print(
            f"{rules:<10} {events / vcpu:>19,.0f} {events / vwall:>10,.0f} {events / tcpu:>10,.0f} "
            f"{args.games / scpu:>9,.0f} {args.games / swall:>8,.0f} "
            f"{rolls / args.games:>11.0f} {rolls / scpu:>10,.0f}"
        )


if __name__ == "__main__":
    main()
