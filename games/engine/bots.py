"""Computer players.

A bot picks one of the legal moves the engine offers (engine-internal move
tuples ``(pawn_seat, from, to, captured_seat)``, see :mod:`games.engine.moves`)
and, under the huff rule, which of its pawns is huffed.

* :class:`RandomBot` — uniformly random; the baseline.
* :class:`HeuristicBot` — scores every legal move by the progress it makes, what
  it captures, how exposed the moved pawn is before and after, and a few
  positional habits (see docs/engine.md, "Bots").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from .game import Game
from .moves import RawMove


class Bot:
    """Base class: override :meth:`choose` (and :meth:`choose_huff`)."""

    name: ClassVar[str] = "bot"

    def choose(self, game: Game, seat: int, die: int, moves: list[RawMove], rng: random.Random):
        """One of ``moves`` (there are at least two) for ``seat`` rolling ``die``."""
        raise NotImplementedError

    def choose_huff(self, game: Game, seat: int, targets: list[int], rng: random.Random) -> int:
        """Which of ``seat``'s pawns (positions in ``targets``, -1 = yard) is huffed."""
        return targets[0]


class RandomBot(Bot):
    """Picks uniformly among the legal moves (and huffs a random eligible pawn)."""

    name = "random"

    def choose(self, game, seat, die, moves, rng):
        return moves[int(rng.random() * len(moves))]

    def choose_huff(self, game, seat, targets, rng):
        return targets[int(rng.random() * len(targets))]


class HeuristicBot(Bot):
    """Greedy one-move look-ahead with a hand-tuned score (see docs/engine.md)."""

    name = "heuristic"

    ENTRY_VALUE = 12.0  # what a pawn out of the yard is worth beyond its progress
    HOUSE_BONUS = 18.0  # a pawn in the house can never be captured
    ALLY_CAPTURE = -1.0  # capturing an ally costs what it would cost an enemy
    THREAT = 0.6  # per enemy pawn within reach 1–6 ahead of the moved pawn
    START_CLEAR = 3.0  # moving off our own field A while pawns wait in the yard
    NEUTRAL_FACTOR = 0.35  # a neutral pawn's progress counts this much for us

    def choose(self, game, seat, die, moves, rng):
        allies = _allies(game, seat)
        best = None
        best_score = -1e18
        for m in moves:
            score = self.score(game, seat, allies, m)
            if score > best_score:
                best, best_score = m, score
        return best

    def choose_huff(self, game, seat, targets, rng):
        # lose as little as possible: the yard (nothing), else the least advanced pawn
        return min(targets, key=lambda p: -1 if p < 0 else p)

    def score(self, game: Game, seat: int, allies: frozenset[int], m: RawMove) -> float:
        s, frm, to, cap = m
        T = game.T
        own = s == seat
        factor = 1.0 if own else self.NEUTRAL_FACTOR
        v_from = self._value(frm, T)
        v_to = self._value(to, T)
        score = (v_to - v_from) * factor
        if own:
            # exposure: escaping a threatened field, stepping into reach of enemies
            if 0 <= frm < T:
                score += _risk(game, s, frm, allies, ignore=None) * v_from
            if to < T:
                score -= _risk(game, s, to, allies, ignore=cap) * v_to
                score += self.THREAT * _threats(game, s, to, allies)
            if frm == 0 and game.yard[s]:
                score += self.START_CLEAR
        if cap >= 0:
            victim = self._value(game._rel[cap][game._abs[s][to]], T)
            if cap in allies:
                score += self.ALLY_CAPTURE * victim
            elif cap == seat:
                score -= victim  # a neutral pawn capturing our own pawn
            else:
                score += victim
        if game._huffing and cap < 0 and own is not None:
            # a skipped capture costs a pawn; prefer capturing
            score -= 2.0
        return score + 0.001 * to

    def _value(self, pos: int, T: int) -> float:
        if pos < 0:
            return 0.0
        if pos >= T:
            return self.ENTRY_VALUE + T + self.HOUSE_BONUS + (pos - T) * 0.5
        return self.ENTRY_VALUE + pos


def _allies(game: Game, seat: int) -> frozenset[int]:
    for seats in game.setup.players.values():
        if seat in seats:
            return frozenset(seats)
    return frozenset((seat,))


def _risk(game: Game, s: int, pos: int, allies: frozenset[int], ignore: int | None) -> float:
    """Rough chance that a pawn of seat ``s`` on relative track ``pos`` is captured soon."""
    T = game.T
    a = game._abs[s][pos]
    hits = 0
    for e in range(len(game.pawns)):
        if e in allies or not game.pawns[e]:
            continue
        r = game._rel[e][a]
        for q in game.pawns[e]:
            if 0 <= q < T and 1 <= r - q <= 6:
                hits += 1
        if r == 0 and game.yard[e]:
            hits += 1
        if e == ignore:
            hits = max(0, hits - 1)
    return 1.0 - (5.0 / 6.0) ** hits if hits else 0.0


def _threats(game: Game, s: int, pos: int, allies: frozenset[int]) -> int:
    """Enemy track pawns 1–6 fields ahead of relative ``pos`` (targets for next turn)."""
    T = game.T
    count = 0
    for d in range(1, 7):
        if pos + d >= T:
            break
        o = game.track[game._abs[s][pos + d]]
        if o >= 0 and o not in allies:
            count += 1
    return count


BOTS: Mapping[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(spec: str | Bot) -> Bot:
    """A bot from its name (``"random"``, ``"heuristic"``) or the bot itself."""
    if isinstance(spec, Bot):
        return spec
    try:
        return BOTS[spec]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown bot {spec!r} (bots: {', '.join(BOTS)})") from None
