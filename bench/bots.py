"""Win rates of the computer players (a script, not a test).

    python bench/bots.py [--games 10000] [--workers 2] [--rules league,classic]
                         [--matches strong-random,heuristic-random,strong-heuristic,
                                    heuristic-heuristic]
                         [--ceiling] [--ceiling-games 1000] [--fresh 5]
                         [--first-game 0] [--save FILE.json] [--compare FILE.json]

Each rule set of ``--rules`` in turn (default league, then classic), board 4, four
colours, each its own player; a game counts as won by the first colour home (under
classic rules, all-places, that is the winner; the game is not played on for the
places). In each
match one colour is played by the bot under test and the three others by the
opponents; game ``i`` gives the bot seat ``i mod 4`` and the first roll to colour
``(i div 4) mod 4``, so every seat and every starting colour comes up equally often.

The dice are *per seat*: seat ``s`` of game ``i`` rolls from its own generator seeded by
``(i, s)``, and so does each random player's choice. Two bots under test in the same
games therefore see the same dice for the same seat (common random numbers): their
difference is measured more precisely than either rate.

``heuristic-heuristic`` is the control: four equal players, so its hero must win 25% up
to the noise (it checks that seat and first colour are fair), and it is the strong
player's partner on the same dice against three heuristics.

For each match it prints the win rate with its 95% Wilson interval, and for the bots
under test the decision time (per call of ``choose`` with at least two legal moves) at
p50 / p99 / max, in CPU time of the deciding thread (one core's work, what the budget is
about) and wall clock (inflated when the machine is shared). Then the paired differences
strong − heuristic on the same dice (95% interval). ``--fresh N`` times the strong
player's first decision in N fresh processes (a new interpreter each: the import of the
engine, then the first ``choose``, which loads the evaluator's weights), timed apart from
the import.

Besides the registry's players a hero may be one of the benchmark's own
(:func:`bench_bot`): ``strong1`` / ``strong2`` / ``strong3`` (one, two or three plies;
``strong`` is three since session 9), ``rolloutsN`` (N
rollouts per option with the heuristic for every colour), or a model file ``PATH.npz``
(the strong player on that model: a new generation against the shipped one). ``--save``
writes every match's per-game results (after each match), ``--compare`` pairs this run's
matches with an earlier run's on the same games (``--first-game`` must agree): e.g. a new
model against the shipped one without playing the shipped one again.

``--ceiling`` adds a clairvoyant player: it knows every future die and every future
choice of its random opponents (it sees the generators), and at each decision plays
every option out to the end of the game with that future — itself by the heuristic —,
picking the option that wins, soonest (see docs/engine.md, "Computer players"). Its win
rate is an estimate of how much of the game is decided by the dice alone.

Multiprocessing over ``--workers`` processes; times are wall clock.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game, HeuristicBot, RandomBot
from games.engine.analysis.stats import paired_half_width
from games.engine.analysis.stats import wilson_interval as wilson
from games.engine.bots import Bot
from games.engine.registry import make_bot

COLOURS = ("red", "black", "yellow", "green")
RULES = "league"  # set per rule set by main() (and in each worker, by run_chunk)
MAX_EVENTS = 20_000


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


# --- one game ---------------------------------------------------------------------


class Streams:
    """The per-seat generators of game ``i``: dice and the random players' choices."""

    def __init__(self, i: int) -> None:
        self.dice = [random.Random(i * 16 + s) for s in range(4)]
        self.choice = [random.Random(i * 16 + 8 + s) for s in range(4)]


def make(name: str) -> Bot:
    """A bot by name: the registry's, or one of the benchmark's own (:func:`bench_bot`)."""
    bot = bench_bot(name)
    if bot is not None:
        return bot
    try:
        return make_bot(name)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None


def bench_bot(name: str) -> Bot | None:
    """Players only the benchmarks know (too slow or not better, so not in the registry):

    * ``strong1`` / ``strong2`` / ``strong3``: the strong player with one ply (its
      evaluator on the positions after its own moves), two (the expectation over the next
      roll of its roller's best reply; the registry's ``strong`` until session 9) or three
      (the two best moves by two plies searched one roll deeper when they are close: the
      registry's ``strong``);
    * ``rolloutsN`` (e.g. ``rollouts64``): N rollouts per option to the end of the game
      on common random numbers, every colour played by the heuristic (the true model of
      heuristic opponents), the option with the most wins — one step of policy
      improvement over the heuristic;
    * ``MODEL.npz`` (a path ending in ``.npz``): the strong player on that model file
      (``A.npz+B.npz``: on the ensemble of the two, ``model.Ensemble``);
      ``MODEL.npz@1`` / ``@2`` / ``@3``: the same searched one, two or three plies
      (``strong1`` … ``strong3`` on another model: a cheap screen of a new generation).
    """
    from games.engine.strong import StrongBot

    if name in ("strong1", "strong2", "strong3"):
        return StrongBot(depth=int(name[-1]))
    if name.startswith("rollouts") and name[8:].isdigit():
        return RolloutBot(int(name[8:]))
    path, _at, depth = name.partition("@")
    if path.endswith(".npz") and depth in ("", "1", "2", "3"):
        from games.engine.evaluator import Evaluator
        from games.engine.evaluator.model import load_model

        model = load_model(path)  # A.npz+B.npz: the ensemble of those files
        evaluator = Evaluator(model, model.meta.get("name") or Path(path).stem)
        return StrongBot(evaluator, depth=int(depth or 3))
    return None


class RolloutBot(Bot):
    """N rollouts per option (module docstring of :func:`bench_bot`): rollout ``k`` of
    every option on the same dice, the heuristic (its exact fast replica) for every
    colour; the most wins, the heuristic's own choice first among equals."""

    def __init__(self, rollouts: int) -> None:
        from games.engine.analysis.policy import FastHeuristicPolicy

        self.rollouts = rollouts
        self.policy = FastHeuristicPolicy()
        self.calls = 0

    def choose(self, game, seat, die, moves, rng):
        from games.engine.analysis.dice import dice_for
        from games.engine.analysis.rollout import rollout

        self.calls += 1
        me = game.setup.player_of(seat)
        own = self.policy.choose(game, seat, die, moves)
        order = [own] + [m for m in moves if m != own]
        afters = []
        for m in order:
            g = game.copy()
            g.push_raw(die, m)
            afters.append(g)
        wins = [0] * len(order)
        tag = int(rng.random() * 1_000_000)
        for k in range(self.rollouts):
            dice = dice_for(tag, 0, k, len(game.pawns))
            for j, g in enumerate(afters):
                wins[j] += rollout(g.copy(), dice, self.policy) == me
        best = 0
        for j in range(1, len(order)):
            if wins[j] > wins[best]:
                best = j
        return order[best]


def step(game: Game, st: Streams, bots: list[Bot], times: list[float] | None = None) -> None:
    """One roll of game ``game`` from its streams ``st``: the colour on turn rolls its own
    die and its bot chooses among two or more legal moves (timed into ``times``, if given,
    for the bot under test, wrapped in :class:`Timed`)."""
    c = game.turn_seat
    n = int(st.dice[c].random() * 6) + 1
    moves = game.legal(c, n)
    if not moves:
        game.push_raw(n)
        return
    bot = bots[c]
    m = moves[0]
    if len(moves) > 1:
        if times is not None and getattr(bot, "timed", False):
            t0, c0 = time.perf_counter(), time.thread_time()
            m = bot.choose(game, c, n, moves, st.choice[c])
            times.append((time.perf_counter() - t0, time.thread_time() - c0))
        else:
            m = bot.choose(game, c, n, moves, st.choice[c])
    huff = None
    if game.huffing and game.huff_due(c, moves, m):
        huff = bot.choose_huff(game, c, sorted(game.huff_targets(c, moves, m)), st.choice[c])
    game.push_raw(n, m, huff)


class Timed:
    """The bot under test, whose decisions :func:`step` times."""

    timed = True

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose(self, *args):
        return self.bot.choose(*args)

    def choose_huff(self, *args):
        return self.bot.choose_huff(*args)


def new_game(i: int) -> Game:
    """Game ``i``, before its first roll: the first roll goes to colour ``(i div 4) mod 4``."""
    return Game.new(RULES, first=COLOURS[(i // 4) % 4])


def lineup(i: int, hero, opponent) -> list:
    """The bots of game ``i`` in seat order: ``hero`` at seat ``i mod 4``."""
    return [hero if s == i % 4 else opponent for s in range(4)]


def play_game(i: int, hero: Bot, opponent: Bot, times: list[float] | None) -> tuple[bool, int]:
    """Game ``i``: ``hero`` at seat ``i % 4`` against three ``opponent`` colours; the
    hero's decisions are timed into ``times`` if given. Returns (hero won, rolls)."""
    hero_seat, game, bots = i % 4, new_game(i), lineup(i, Timed(hero), opponent)
    st = Streams(i)
    while not game.placings and game.events < MAX_EVENTS:  # to the first colour home
        step(game, st, bots, times)
    won = bool(game.placings) and game.placings[0] == hero_seat
    return won, game.events


# --- the clairvoyant ----------------------------------------------------------------


def play_clairvoyant(i: int) -> tuple[bool, int]:
    """Game ``i`` with a clairvoyant hero against three random players (see the module
    docstring). The hero's own later moves inside its look-ahead are the heuristic's."""
    rnd = RandomBot()
    hero_seat, game, st = i % 4, new_game(i), Streams(i)
    future_bots = lineup(i, HeuristicBot(), rnd)

    def future(g: Game, fork: Streams) -> tuple[bool, int]:
        """Play on with the known future (heuristic hero); (hero won, rolls to the end)."""
        start = g.events
        while not g.over and g.events < MAX_EVENTS:
            step(g, fork, future_bots)
        return bool(g.placings) and g.placings[0] == hero_seat, g.events - start

    class Seer(Bot):
        def choose(self, g, c, n, moves, _rng):
            best, best_key = moves[0], None
            for m in moves:
                h = g.copy()
                fork = Streams.__new__(Streams)
                fork.dice = [_clone(r) for r in st.dice]
                fork.choice = [_clone(r) for r in st.choice]
                h.push_raw(n, m)
                won, rolls = future(h, fork)
                key = (won, -rolls if won else rolls)
                if best_key is None or key > best_key:
                    best, best_key = m, key
            return best

    bots = lineup(i, Seer(), rnd)
    while not game.over and game.events < MAX_EVENTS:
        step(game, st, bots)
    return bool(game.placings) and game.placings[0] == hero_seat, game.events


def _clone(r: random.Random) -> random.Random:
    c = random.Random()
    c.setstate(r.getstate())
    return c


# --- workers ------------------------------------------------------------------------


def run_chunk(args: tuple[str, str, str, int, int]) -> tuple[list[bool], list[float]]:
    """Games ``lo … hi-1`` of a match under ``rules``: (hero won, per game), decision times."""
    global RULES
    rules, hero_name, opp_name, lo, hi = args
    RULES = rules
    if hero_name == "clairvoyant":
        return [play_clairvoyant(i)[0] for i in range(lo, hi)], []
    hero = make(hero_name)
    opponent = make(opp_name)
    times: list[float] = []
    return [play_game(i, hero, opponent, times)[0] for i in range(lo, hi)], times


def match(
    pool: ProcessPoolExecutor, hero: str, opponent: str, games: int, workers: int, first: int = 0
):
    """Play a match over the pool and print its line; returns the per-game results."""
    t0 = time.perf_counter()
    step = max(4, games // (workers * 8))
    end = first + games
    chunks = [(RULES, hero, opponent, lo, min(end, lo + step)) for lo in range(first, end, step)]
    results: list[bool] = []
    times: list[float] = []
    for r, t in pool.map(run_chunk, chunks):
        results += r
        times += t
    wins, n = sum(results), len(results)
    lo, hi = wilson(wins, n)
    line = (
        f"{RULES:>8} {hero:>11} vs 3 {opponent:<9} {n:>6} games  wins {wins / n:6.1%}  "
        f"95% CI [{lo:.1%}, {hi:.1%}]  ({time.perf_counter() - t0:.0f} s)"
    )
    if times:
        wall = [w for w, _c in times]
        cpu = [c for _w, c in times]
        line += (
            f"  decision CPU p50 {percentile(cpu, 0.5) * 1000:.2f} / p99 "
            f"{percentile(cpu, 0.99) * 1000:.2f} / max {max(cpu) * 1000:.1f} ms"
            f"  (wall p50 {percentile(wall, 0.5) * 1000:.2f} / p99 "
            f"{percentile(wall, 0.99) * 1000:.2f} / max {max(wall) * 1000:.1f} ms)"
        )
    print(line, flush=True)
    return results


def paired(a: list[bool], b: list[bool]) -> str:
    """Mean difference of two bots' results on the same games, with its 95% interval."""
    ints = [int(x) for x in a], [int(y) for y in b]
    mean = (sum(ints[0]) - sum(ints[1])) / len(a)
    return f"{mean:+.1%} ± {paired_half_width(*ints):.1%}"


def save(path: Path, rules: str, spec: str, first: int, results: list[bool]) -> None:
    """Add a match's per-game results to the JSON file ``path`` (``--save``)."""
    import json

    saved = json.loads(path.read_text()) if path.is_file() else {}
    saved.setdefault(rules, {})[spec] = {"first": first, "results": [int(x) for x in results]}
    path.write_text(json.dumps(saved))


FRESH = """
import random, sys, time
t0 = time.perf_counter()
from games.engine import Game, make_bot
from games.engine.simulate import play
from games.engine.bots import HeuristicBot
t1 = time.perf_counter()
game = Game.new(sys.argv[1])
play(game, [HeuristicBot()] * 4, random.Random(int(sys.argv[2])), max_events=120)
bot = make_bot("strong")
c = game.turn_seat
rng = random.Random(0)
for die in (6, 5, 4, 3, 2, 1):
    moves = game.legal(c, die)
    if len(moves) > 1:
        break
t2, c2 = time.perf_counter(), time.process_time()
bot.choose(game, c, die, moves, rng)
t3, c3 = time.perf_counter(), time.process_time()
print(t1 - t0, t3 - t2, c3 - c2, len(moves))
"""


def fresh_first_decisions(rules: str, runs: int) -> None:
    """The strong player's first decision in ``runs`` fresh interpreters."""
    import subprocess

    imports, firsts, cpus = [], [], []
    root = Path(__file__).resolve().parents[1]
    for k in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", FRESH, rules, str(k)],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        imports.append(float(out[0]))
        firsts.append(float(out[1]))
        cpus.append(float(out[2]))
    print(
        f"{rules:>8} strong: first decision of a fresh process (over {runs}): CPU "
        f"median {percentile(cpus, 0.5) * 1000:.1f} ms, max {max(cpus) * 1000:.1f} ms; "
        f"wall median {percentile(firsts, 0.5) * 1000:.1f} ms, max {max(firsts) * 1000:.1f} ms "
        f"(the engine's import before it, not counted: median "
        f"{percentile(imports, 0.5) * 1000:.0f} ms)",
        flush=True,
    )


def main() -> None:
    global RULES
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", default="league,classic")
    parser.add_argument(
        "--matches",
        default="strong-random,heuristic-random,strong-heuristic,heuristic-heuristic",
    )
    parser.add_argument("--ceiling", action="store_true", help="add the clairvoyant")
    parser.add_argument("--ceiling-games", type=int, default=1000)
    parser.add_argument("--fresh", type=int, default=5, help="fresh processes timed")
    parser.add_argument("--first-game", type=int, default=0, help="games FIRST … FIRST+GAMES-1")
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        help="write every match's per-game results here (JSON), to pair them with a later "
        "run on the same games (--compare)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="a --save file of an earlier run: paired differences against its matches",
    )
    args = parser.parse_args()
    print(
        f"board 4, 4 colours; hero seat and first colour rotated; {args.workers} worker processes"
    )
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for rules in filter(None, args.rules.split(",")):
            RULES = rules
            if args.fresh:
                fresh_first_decisions(rules, args.fresh)
            done: dict[str, list[bool]] = {}
            for spec in filter(None, args.matches.split(",")):
                hero, opponent = spec.rsplit("-", 1)
                done[spec] = match(pool, hero, opponent, args.games, args.workers, args.first_game)
                if args.save:  # after every match: a run stopped later keeps what it has
                    save(args.save, rules, spec, args.first_game, done[spec])
            for spec, a in done.items():
                hero, opponent = spec.rsplit("-", 1)
                for ref in ("heuristic", "strong"):
                    b = done.get(f"{ref}-{opponent}")
                    skip = hero == ref or (ref == "strong" and hero == "heuristic")
                    if b is not None and not skip:
                        print(
                            f"{rules:>8} {hero} − {ref} against {opponent} players, "
                            f"same dice: {paired(a, b)}"
                        )
            if args.compare and args.compare.is_file():
                import json

                old = json.loads(args.compare.read_text()).get(rules, {})
                for spec, a in done.items():
                    hero, opponent = spec.rsplit("-", 1)
                    for ospec, entry in old.items():
                        ohero, oopp = ospec.rsplit("-", 1)
                        b = entry["results"]
                        same = oopp == opponent and entry["first"] == args.first_game
                        if same and len(b) == len(a):
                            print(
                                f"{rules:>8} {hero} − {ohero} (earlier run) against "
                                f"{opponent} players, same dice: {paired(a, b)}"
                            )
            if args.ceiling:
                match(pool, "clairvoyant", "random", args.ceiling_games, args.workers)
    print(f"elapsed {time.perf_counter() - t0:.0f} s wall")


if __name__ == "__main__":
    main()
