"""Benchmark of the game analysis (a script, not a test).

    python bench/analysis.py [--rollouts 200] [--log LOG.json] [--rules league]
                             [--players alice=green+red,bob=black+yellow] [--seed 0]
                             [--policy lite|fast|heuristic] [--events 600]

Analyses one game and prints its size (events, decisions, options, distinct options
after merging transpositions), CPU and wall seconds, rollouts per second and rollout
rolls per second. Without ``--log`` the game is a simulated league game between
heuristic players: the first seed from 0 on whose game has ``--events`` ± 10 % events
(deterministic). Target (issue #15): a ~600-event game with ≥ 200 rollouts per option
in under 60 s on one core. CPU seconds (``time.process_time``) are the figure to
quote on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import simulate_game
from games.engine.analysis import analyse
from games.engine.analysis.decisions import walk
from games.engine.analysis.policy import POLICIES
from games.engine.analysis.rollout import state_key
from games.engine.cli import _parse_players


def typical_game(rules: str, players: dict | None, events: int) -> tuple[int, dict]:
    for seed in range(10_000):
        log = simulate_game(rules=rules, players=players, bots="heuristic", seed=seed)
        if abs(len(log["events"]) - events) <= events // 10:
            return seed, log
    raise SystemExit("no simulated game of that length")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--log", type=Path, default=None)
    ap.add_argument("--rules", default="league")
    ap.add_argument("--players", default=None)
    ap.add_argument("--seed", type=int, default=0, help="seed of the rollouts")
    ap.add_argument("--policy", default="lite", choices=sorted(POLICIES))
    ap.add_argument("--events", type=int, default=600)
    args = ap.parse_args()
    if args.log:
        log = json.loads(args.log.read_text(encoding="utf-8"))
        source = str(args.log)
    else:
        game_seed, log = typical_game(args.rules, _parse_players(args.players), args.events)
        source = f"simulated {args.rules} game, heuristic players, seed {game_seed}"
    policy = POLICIES[args.policy]()
    w = walk(log, policy)
    options = sum(len(d.moves) for d in w.decisions)
    distinct = sum(len({state_key(g) for g in d.games}) for d in w.decisions)
    c0, w0 = time.process_time(), time.perf_counter()
    data = analyse(log, rollouts=args.rollouts, seed=args.seed, policy=policy)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    total = (distinct + 1) * args.rollouts
    print(f"game: {source}")
    print(
        f"events: {len(log['events'])}  decisions: {len(w.decisions)}  options: {options}"
        f"  distinct options: {distinct}"
    )
    print(f"policy: {data['policy']}  rollouts per option: {args.rollouts}  rollouts: {total}")
    print(f"seconds per game: {cpu:.1f} CPU ({wall:.1f} wall)")
    print(f"rollouts/s: {total / cpu:.0f} CPU")
    marks = {
        k: sum(s[k] for s in data["summary"].values())
        for k in ("inaccuracies", "mistakes", "blunders")
    }
    print(f"marks: {marks}")


if __name__ == "__main__":
    main()
