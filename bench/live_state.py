"""How long live play takes to load the game state a move needs, by the game's length:
the room's stored snapshot restored onto a fresh game (what every process does now) against
replaying the events (what a process without the game in its cache did before, issue 23:
11.7 ms at 158 events in a Celery worker). Engine only (the room row is read either way).

    python bench/live_state.py [--games 20]

Prints the median per load in microseconds and the ratio, at 50, 150 and 400 events.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game, game_restore, game_snapshot, simulate_game


def _median_us(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"{'events':>7} {'replay µs':>10} {'snapshot µs':>12} {'ratio':>7}")
    for length in (50, 150, 400):
        replay, restore = [], []
        for seed in range(args.games):
            log = simulate_game("online", 4, seed=seed, bots="random")
            events = log["events"][:length]
            fresh = Game.new("online", 4, first=log["first"])
            game = fresh.copy()
            game.push_events(events)
            stored = json.dumps({"game": game_snapshot(game)})

            def by_replay(events=events, fresh=fresh):
                g = fresh.copy()
                g.push_events(events)

            def by_snapshot(stored=stored, fresh=fresh):
                game_restore(fresh.copy(), json.loads(stored)["game"])

            replay.append(_median_us(by_replay, 5))
            restore.append(_median_us(by_snapshot, 50))
        r, s = statistics.median(replay), statistics.median(restore)
        print(f"{length:>7} {r:>10.0f} {s:>12.1f} {r / s:>6.0f}×")


if __name__ == "__main__":
    main()
