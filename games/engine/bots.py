"""Computer players.

A bot picks one of the legal moves the engine offers (engine-internal move
tuples ``(pawn_seat, from, to, captured_seat)``, see :mod:`games.engine.moves`)
and, under the huff rule, which of its pawns is huffed.

* :class:`RandomBot` — uniformly random; the baseline.
* :class:`HeuristicBot` — scores every legal move by the progress it makes, what
  it captures, how exposed the moved pawn is before and after, and a few
  positional habits (see docs/engine.md, "Computer players").

The strong player is :mod:`games.engine.strong`; the bots by name (``make_bot``):
:mod:`games.engine.registry`.
"""

from __future__ import annotations

import random
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


class LookAheadBot(Bot):
    """One-move look-ahead: play each legal move (with the huff it calls for) on a copy and
    keep the one whose position :meth:`evaluate` scores best (first of equals)."""

    def choose(self, game, seat, die, moves, rng):
        allies = _allies(game, seat)
        best = moves[0]
        best_score = -1e18
        for m in moves:
            g = game.copy()
            huff = None
            if g.huffing and g.huff_due(seat, moves, m):
                huff = self.choose_huff(g, seat, sorted(g.huff_targets(seat, moves, m)), rng)
            g.move_pawn(seat, m)
            if huff is not None:
                g.send_home(seat, huff)
            variant = g.platform_variant  # a move that wins a Quick / First-capture game
            if variant is not None and variant.decides(g.home[seat], m):
                return m
            score = self.evaluate(g, allies)
            if score > best_score:
                best, best_score = m, score
        return best

    def evaluate(self, g: Game, allies: frozenset[int]) -> float:
        """Score of the position for the player holding ``allies`` (higher is better)."""
        raise NotImplementedError


class HeuristicBot(LookAheadBot):
    """One-move look-ahead: play each legal move on a copy and score the position.

    The score (from the bot's point of view, all its allied colours together):

    * every own pawn is worth its progress, valued convexly — ``T·(p/T)²`` on the
      track, so a step near the house counts more than a step near the start and
      the bot runs its leading pawn home instead of spreading out —, plus a fixed
      amount for being out of the yard and more for being in the house (deeper
      is clearly better: without jumping in the house a pawn at its front blocks
      the others);
    * a track pawn loses its worth times the chance that it is captured before
      the next turn: enemy pawns 1–6 fields behind it (1/10 each — the enemy may
      well move another pawn) and 7–12 behind (1/36), and enemy yards whose start
      field it stands on or just after (entering captures; an enemy that is stuck
      rolls three times, so its 6 is likely);
    * a track pawn gains a little for every enemy track pawn 1–6 fields ahead of
      it (the chance of capturing it next turn, weighted by the victim's worth);
    * enemy progress counts against the bot (so captures pay, more for advanced
      victims; captures of an ally cost);
    * with three tries, leaving house pawns unpacked while the track is empty and
      pawns wait in the yard costs the extra tries.
    """

    name = "heuristic"

    ENTRY = 10.0  # worth of a pawn out of the yard
    HOUSE = 10.0  # extra worth of a pawn in the house (it can't be captured)
    DEPTH = 5.0  # per house field further in
    POWER = 2.0  # convexity of track progress
    RISK = 1.0  # weight of the capture risk
    ENEMY = 0.5  # weight of enemy progress
    THREAT = 0.5  # weight of the chance to capture an enemy pawn next turn
    UNPACKED = 20.0  # losing three tries by an unpacked house
    HIT = 0.1  # chance that an enemy pawn 1-6 fields behind hits
    HIT_FAR = 1.0 / 36.0  # ... 7-12 fields behind (a 6, then the rest)
    STUCK_SIX = 1.0 - (5.0 / 6.0) ** 3  # chance of a 6 in three tries

    def choose_huff(self, game, seat, targets, rng):
        # lose as little as possible: the yard (nothing), else the least advanced pawn
        return min(targets, key=lambda p: -1 if p < 0 else p)

    def evaluate(self, g: Game, allies: frozenset[int]) -> float:
        """Score of the position for the player holding ``allies``."""
        T = g.T
        track = g.track
        neutral = g.neutral
        total = 0.0
        for s, pw in enumerate(g.pawns):
            if not pw or (s == neutral and s not in allies):
                continue
            value = 0.0
            if s not in allies:
                for p in pw:
                    if p >= T:
                        value += self.ENTRY + T + self.HOUSE
                    elif p >= 0:
                        value += self.ENTRY + T * (p / T) ** self.POWER
                total -= self.ENEMY * value
                continue
            on_track = False
            absm = g.abs_of[s]
            for p in pw:
                if p < 0:
                    continue
                if p >= T:
                    value += self.ENTRY + T + self.HOUSE + (p - T) * self.DEPTH
                    continue
                on_track = True
                worth = self.ENTRY + T * (p / T) ** self.POWER
                value += worth * (1.0 - self.RISK * _risk(g, s, p, allies, self))
                for t in range(p + 1, min(p + 7, T)):  # enemy pawns within reach
                    a = absm[t]
                    e = track[a]
                    if e >= 0 and e != neutral and e not in allies:
                        q = g.rel_of[e][a] / T
                        value += self.THREAT * (self.ENTRY + T * q * q) / 6.0
            if g.yard[s] and g.three and not on_track and not g.stuck(s):
                value -= self.UNPACKED
            total += value
        return total


def _allies(game: Game, seat: int) -> frozenset[int]:
    for seats in game.setup.players.values():
        if seat in seats:
            return frozenset(seats)
    return frozenset((seat,))


def _risk(game: Game, s: int, pos: int, allies: frozenset[int], bot: HeuristicBot) -> float:
    """Rough chance that the pawn of seat ``s`` on relative track field ``pos`` is captured
    before its next turn."""
    T = game.T
    a = game.abs_of[s][pos]
    miss = 1.0
    hit = bot.HIT
    hit_far = bot.HIT_FAR
    for e, pw in enumerate(game.pawns):
        if e in allies or not pw or game.finished[e]:
            continue
        r = game.rel_of[e][a]
        for q in pw:
            if 0 <= q < T:
                d = r - q
                if 1 <= d <= 6:
                    miss *= 1.0 - hit
                elif 7 <= d <= 12:
                    miss *= 1.0 - hit_far
        if game.yard[e]:
            six = bot.STUCK_SIX if game.three and game.stuck(e) else 1.0 / 6.0
            if r == 0:
                miss *= 1.0 - six
            elif r <= 6 and game.track[game.abs_of[e][0]] < 0:
                miss *= 1.0 - six / 6.0
    return 1.0 - miss
