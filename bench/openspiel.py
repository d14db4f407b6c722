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
  uniform outcome, decision nodes a uniform legal action (passes included) — with the
  usual driver (``is_terminal`` / ``is_chance_node`` at every node: the issue's peer)
  and with a tight one (no node-kind queries, bound methods: the fewest calls into
  OpenSpiel a Python driver can make; OpenSpiel at its best).

The two alternate in rounds within one run (the order flips every round), so a
shared, busy machine disturbs both alike; each round's figure is CPU seconds of
this process (``time.process_time``). Printed: games/s of each per round, the
median, and the ratios project / OpenSpiel (median, min–max over the rounds).
Target (issue #15): project / OpenSpiel with the usual driver ≥ 2. Rolls per game
are printed too, as a check that all play the same game (they agree within noise).
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
    """The usual driver of an OpenSpiel game: ask the state what kind of node it is."""
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


def openspiel_tight_runner(games: int) -> Callable[[random.Random], int]:
    """The fewest calls into OpenSpiel: maedn strictly alternates a chance node (the roll)
    and a decision (a pass at least) and ends only after a decision, so the driver needs
    no node-kind queries; bound methods, no choice among a single action."""
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": 4})

    def run(rng: random.Random) -> int:
        dice = rng.random
        rolls = 0
        for _ in range(games):
            state = game.new_initial_state()
            apply, legal, terminal = state.apply_action, state.legal_actions, state.is_terminal
            while True:
                apply(int(dice() * 6))
                rolls += 1
                actions = legal()
                apply(actions[0] if len(actions) == 1 else actions[int(dice() * len(actions))])
                if terminal():
                    break
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

    sides = {
        "project": project_runner(args.games),
        "openspiel": openspiel_runner(args.games),
        "tight": openspiel_tight_runner(args.games),
    }
    rates: dict[str, list[float]] = {name: [] for name in sides}
    rolls: dict[str, int] = dict.fromkeys(sides, 0)
    print(
        f"Python {sys.version.split()[0]}, single process; {args.rounds} rounds of "
        f"{args.games} random 4-player games to the first finisher per side"
    )
    print(
        f"{'round':>6} {'project games/s':>16} {'OpenSpiel games/s':>18} {'ratio':>6}"
        f" {'OpenSpiel, tight driver':>24} {'ratio':>6}"
    )
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            cpu, n = timed(sides[name], args.seed + r)
            rates[name].append(args.games / cpu)
            rolls[name] += n
        p, o, t = (rates[name][-1] for name in sides)
        print(f"{r + 1:>6} {p:>16,.0f} {o:>18,.0f} {p / o:>6.2f} {t:>24,.0f} {p / t:>6.2f}")
    ratios = {
        peer: [p / o for p, o in zip(rates["project"], rates[peer], strict=True)]
        for peer in ("openspiel", "tight")
    }
    med = {name: statistics.median(rates[name]) for name in sides}
    print(
        f"{'median':>6} {med['project']:>16,.0f} {med['openspiel']:>18,.0f} "
        f"{statistics.median(ratios['openspiel']):>6.2f} {med['tight']:>24,.0f} "
        f"{statistics.median(ratios['tight']):>6.2f}"
    )
    for peer, label in (("openspiel", "OpenSpiel"), ("tight", "OpenSpiel, tight driver")):
        rs = ratios[peer]
        print(
            f"ratio project / {label}: median {statistics.median(rs):.2f}, "
            f"min {min(rs):.2f}, max {max(rs):.2f}"
        )
    print("target (issue #15): project / OpenSpiel (the usual driver) ≥ 2")
    total = args.games * args.rounds
    print("rolls per game: " + ", ".join(f"{name} {rolls[name] / total:.1f}" for name in sides))


if __name__ == "__main__":
    main()
