"""Benchmark: the project's engine against DeepMind's OpenSpiel ``maedn`` (a script, not a test).

    python bench/openspiel.py [--games 500] [--rounds 7] [--seed 1]

Random 4-player games, each played to the first colour home, under the rules
OpenSpiel's C++ ``maedn`` game implements — the project's preset ``classic`` with
``setup: yard`` and ``end: first-colour`` (docs/engine.md, "Speed", has the rule
mapping). Both sides are driven from Python the same way: dice from Python's
``random``, every move chosen uniformly among the legal ones.

* project: ``games.engine.play(Game(setup), [RandomBot()] * 4, rng, until_first=True)``
  (the random-play simulation path, no log recorded);
* OpenSpiel: ``pyspiel.load_game("maedn", {"players": 4})``; chance nodes get a
  uniform outcome, decision nodes a uniform legal action (passes included).

The two alternate in rounds within one run (the order flips every round), so a
shared, busy machine disturbs both alike; each round's figure is CPU seconds of
this process (``time.process_time``). Printed: games/s of both per round, the
median, and the ratio project / OpenSpiel (median, min–max over the rounds).
Target (issue #15): ratio ≥ 2. Rolls per game are printed too, as a check that
both play the same game (they agree within noise).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game, RandomBot, Setup, play

RULES = {"preset": "classic", "setup": "yard", "end": "first-colour"}
"""The project's rules that match OpenSpiel's maedn (docs/engine.md, "Speed")."""


def project_runner(games: int) -> Callable[[random.Random], int]:
    setup = Setup.create(board=4, rules=RULES, first="red")  # OpenSpiel's player 0 starts
    bots = [RandomBot()] * 4

    def run(rng: random.Random) -> int:
        rolls = 0
        for _ in range(games):
            rolls += play(Game(setup), bots, rng, until_first=True).events
        return rolls

    return run


def openspiel_runner(games: int) -> Callable[[random.Random], int]:
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": 4})

    def run(rng: random.Random) -> int:
        dice = rng.random
        rolls = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(int(dice() * 6))  # outcomes 0–5: the die shows 1–6
                    rolls += 1
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[int(dice() * len(actions))])
        return rolls

    return run


def timed(run: Callable[[random.Random], int], seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    t0 = time.process_time()
    rolls = run(rng)
    return time.process_time() - t0, rolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per side and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:  # make bench goes on with the other benchmarks
        print(
            "SKIPPED: OpenSpiel is not installed (pip install open_spiel, a dev dependency); "
            "nothing to compare the engine against",
            file=sys.stderr,
        )
        return

    sides = {"project": project_runner(args.games), "openspiel": openspiel_runner(args.games)}
    rates: dict[str, list[float]] = {name: [] for name in sides}
    rolls: dict[str, int] = dict.fromkeys(sides, 0)
    print(
        f"Python {sys.version.split()[0]}, single process; {args.rounds} rounds of "
        f"{args.games} random 4-player games to the first finisher per side"
    )
    print(f"{'round':>5} {'project games/s':>16} {'OpenSpiel games/s':>18} {'ratio':>6}")
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            cpu, n = timed(sides[name], args.seed + r)
            rates[name].append(args.games / cpu)
            rolls[name] += n
        p, o = rates["project"][-1], rates["openspiel"][-1]
        print(f"{r + 1:>5} {p:>16,.0f} {o:>18,.0f} {p / o:>6.2f}")
    ratios = [p / o for p, o in zip(rates["project"], rates["openspiel"], strict=True)]
    total = args.games * args.rounds
    print(
        f"{'median':>5} {statistics.median(rates['project']):>16,.0f} "
        f"{statistics.median(rates['openspiel']):>18,.0f} {statistics.median(ratios):>6.2f}"
    )
    print(
        f"ratio project/OpenSpiel: median {statistics.median(ratios):.2f}, "
        f"min {min(ratios):.2f}, max {max(ratios):.2f} (target ≥ 2)"
    )
    print(
        f"rolls per game: project {rolls['project'] / total:.1f}, "
        f"OpenSpiel {rolls['openspiel'] / total:.1f}"
    )


if __name__ == "__main__":
    main()
