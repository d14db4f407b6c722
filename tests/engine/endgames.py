"""Small endgames solved exactly, to check the evaluator and the strong player against
expectimax (games/engine/analysis/exact.py): races with and without ``jump_in_goal``,
positions where a capture is possible (one pawn each left, so a captured pawn's whole
way round stays small enough to solve), three colours, board 6.

Used by tests/engine/test_evaluator_exact.py and bench/evaluator.py."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import Game
from games.engine.analysis.exact import exact_win
from games.engine.evaluator.race import is_pure_race

JUMP = {"preset": "league", "jump_in_goal": True}
MAX_STATES = 40_000


@dataclass
class Endgame:
    kind: str
    game: Game


def _house(k: int, T: int, rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(T, T + 4), k), reverse=True)


def race(rng: random.Random, board: int, rules, colours: int, most: int = 2) -> Game | None:
    """Each colour with one or two (at most ``most``) pawns on the last 8 fields, the rest
    in its house."""
    g0 = Game.new(rules, board)
    T = g0.T
    names = g0.names
    seats = [0, board // 2] if colours == 2 else [0, 1, 2]
    positions = {}
    taken: set[int] = set()
    for s in seats:
        out = rng.choice((1, 1, 2)[: 2 if most < 2 else 3])
        track = []
        for _ in range(out):
            for _try in range(20):
                p = rng.randint(T - 8, T - 1)
                a = (g0.start[s] + p) % T
                if a not in taken and p not in track:
                    taken.add(a)
                    track.append(p)
                    break
        if len(track) != out:
            return None
        positions[names[s]] = track + _house(4 - out, T, rng)
    turn = names[rng.choice(seats)]
    try:
        return Game.from_positions(positions, turn=turn, rules=rules, board=board)
    except ValueError:
        return None


def capture(rng: random.Random, board: int, rules) -> Game | None:
    """Two colours with one pawn each on the track within reach of each other (one can
    capture the other), three pawns home each."""
    g0 = Game.new(rules, board)
    T = g0.T
    names = g0.names
    a, b = 0, 1
    pa = rng.randint(T - 12, T - 3)
    abs_a = (g0.start[a] + pa) % T
    gap = rng.choice((-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6))
    abs_b = (abs_a + gap) % T
    pb = (abs_b - g0.start[b]) % T
    if pb < T - 20:  # b's pawn far from its house: too many states
        return None
    positions = {
        names[a]: [pa, *_house(3, T, rng)],
        names[b]: [pb, *_house(3, T, rng)],
    }
    turn = names[rng.choice((a, b))]
    try:
        g = Game.from_positions(positions, turn=turn, rules=rules, board=board)
    except ValueError:
        return None
    return None if is_pure_race(g) else g  # the pawns must still be able to meet


def endgames(seed: int, count: int) -> list[Endgame]:
    """``count`` endgames of mixed kinds (seeded)."""
    rng = random.Random(seed)
    kinds = [
        ("race league", lambda: race(rng, 4, "league", 2)),
        ("race jump_in_goal", lambda: race(rng, 4, JUMP, 2)),
        ("race classic", lambda: race(rng, 4, "classic", 2)),
        ("race 3 colours", lambda: race(rng, 4, "league", 3)),
        ("race board 6", lambda: race(rng, 6, "league", 2)),
        ("capture league", lambda: capture(rng, 4, "league")),
        ("capture jump_in_goal", lambda: capture(rng, 4, JUMP)),
        ("capture board 6", lambda: capture(rng, 6, "league")),
    ]
    out: list[Endgame] = []
    i = 0
    while len(out) < count:
        kind, make = kinds[i % len(kinds)]
        g = make()
        if g is not None and not g.over:
            out.append(Endgame(kind, g))
            i += 1
    return out


@dataclass
class Check:
    kind: str
    exact: dict[str, float]  # each player's exact chance at the position
    evaluated: dict[str, float]  # the evaluator's
    decisions: int  # rolls with two or more moves
    best: int  # of them: the bot's choice had the exact best value
    worst_loss: float  # the largest exact loss of a choice


def check(endgame: Endgame, bot, evaluator) -> Check:
    """The evaluator's value and the bot's choice for every roll with a choice, against
    expectimax (each player maximising their own chance)."""
    g = endgame.game
    exact = exact_win(g, max_states=MAX_STATES)
    evaluated = evaluator.player_chances(g)
    c = g.turn_seat
    me = g.setup.player_of(c)
    decisions = best = 0
    worst = 0.0
    for die in range(1, 7):
        moves = g.legal(c, die)
        if len(moves) < 2:
            continue
        decisions += 1
        values = []
        for m in moves:
            h = g.copy()
            h.push_raw(die, m)
            values.append(exact_win(h, max_states=MAX_STATES)[me])
        pick = moves.index(bot.choose(g, c, die, moves, random.Random(0)))
        loss = max(values) - values[pick]
        worst = max(worst, loss)
        best += loss <= 1e-9
    return Check(endgame.kind, exact, evaluated, decisions, best, worst)
