"""The strong computer player: the heuristic's score plus an exact solo-race table.

:class:`~games.engine.bots.HeuristicBot` values a pawn by a hand-made curve of its
progress. :class:`StrongBot` adds what that curve can only guess: the number of turns
each of its colours still needs to finish — the **solo race** of its four pawns
under the game's own rules (a 6's extra roll, compulsory entry, clearing the start
field, no jumping in the house, three tries for a colour with nothing on the track),
played as well as possible, with every track pawn exposed to capture at a fixed rate
per roll (``HAZARD``). The race is computed once per rule set and board by dynamic
programming over every placement of four pawns (:func:`solo_table`: ~150,000 on board
4; a few seconds, cached per process).

The score of a position for the bot's side (higher is better):

* the heuristic's score (:meth:`HeuristicBot.evaluate`), plus ``RACE`` times
* minus the side's race in turns (allied colours under ``first-colour``: the soft
  minimum of their races — one of them finishing is enough; otherwise their sum),
* minus, for every own track pawn, the chance it is captured before its next turn
  (the heuristic's estimate) times the turns the capture would cost (``RISK``).

A decision plays every legal move on a copy (with the huff where due) and takes the
best score: a one-move look-ahead, like the heuristic. The weights come from paired
self-play against random players on a fixed seed set (``bench/tune_strong.py``); the
measured win rates are in docs/engine.md, "Computer players" (``bench/bots.py``).

Pure Python, no Django; it reads the game through the public-ish ``Game`` API only
(``copy``, ``move_pawn``, ``send_home``, ``huff_due``, ``huff_targets``, ``pawns``,
``finished``, ``rules``, ``T``, ``end``), like the heuristic.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

from .board import PAWNS_PER_COLOUR, YARD
from .bots import HeuristicBot, LookAheadBot, _risk
from .game import Game

__all__ = ["StrongBot", "solo_table"]

Placement = tuple[int, ...]
"""A colour's four pawn positions, most advanced first (``YARD`` = -1 last)."""


@lru_cache(maxsize=16)
def solo_table(
    T: int, three: bool, jump: bool, entry: bool, clear: bool, hazard: float = 0.0
) -> dict[Placement, float]:
    """Expected turns a colour alone on the board still needs to finish, playing best,
    for every placement of its pawns — the turns *after* the one it is rolling in (so a
    fresh colour needs 1 + this), plus ``hazard`` times the turns a capture would cost
    for every pawn on the track at each roll.

    A turn is one roll opportunity, plus another after every 6; with ``three``, a colour
    with no pawn on the track and a packed house rolls up to three times for a 6 (rules.md
    §4). Moves only ever advance pawns, so the placements are solved from the finished one
    backwards, by total progress; a roll with no move that keeps the turn (a 6) is a
    self-loop, solved in closed form. The hazard uses the hazard-free table for what a
    capture costs (an approximation that keeps the recursion one pass).
    """
    last = T + PAWNS_PER_COLOUR - 1
    states: list[Placement] = []
    for k in range(PAWNS_PER_COLOUR + 1):  # k pawns in the yard
        for combo in itertools.combinations(range(last, -1, -1), PAWNS_PER_COLOUR - k):
            states.append(combo + (YARD,) * k)
    states.sort(key=sum, reverse=True)
    base = solo_table(T, three, jump, entry, clear) if hazard else None
    table: dict[Placement, float] = {}
    p6 = 1 - (5 / 6) ** 3 if three else 1 / 6
    for s in states:
        yard = s.count(YARD)
        if yard == 0 and s[-1] >= T:
            table[s] = 0.0
            continue
        exposed = 0.0
        if base is not None:
            r = base[s]
            exposed = hazard * sum(_without(base, s, p) - r for p in s if 0 <= p < T)
        if three and all(p < 0 or p >= T + yard for p in s):  # stuck: three tries
            entered = tuple(sorted((*s[: PAWNS_PER_COLOUR - yard], 0), reverse=True))
            entered += (YARD,) * (yard - 1)
            table[s] = (p6 * table[entered] + (1 - p6)) / p6
            continue
        const = loop = 0.0  # R(s) = const + loop · R(s)
        for d in range(1, 7):
            best = None
            for t in _solo_moves(s, d, yard, T, jump, entry, clear):
                # after a roll other than a 6 the turn passes (one more turn), unless done
                v = table[t] if d == 6 or t[-1] >= T else 1 + table[t]
                if best is None or v < best:
                    best = v
            if best is None:
                loop += 1 / 6
                if d != 6:
                    const += 1 / 6  # the turn passes: one more turn, same placement
            else:
                const += best / 6
        table[s] = const / (1 - loop) + exposed
    return table


def _solo_moves(
    s: Placement, d: int, yard: int, T: int, jump: bool, entry: bool, clear: bool
) -> list[Placement]:
    """The placements a lone colour at ``s`` may reach with the roll ``d`` (rules.md §3)."""
    last = T + PAWNS_PER_COLOUR - 1
    moves: list[tuple[int, int]] = []
    for i, p in enumerate(s):
        if p < 0:
            if d == 6 and 0 not in s:
                moves.append((i, 0))
            break  # the yard pawns come last, one entry for all
        t = p + d
        if t > last or t in s:
            continue
        if t >= T and not jump and any(q in s for q in range(max(p + 1, T), t)):
            continue
        moves.append((i, t))
    if entry and d == 6 and moves and s[moves[-1][0]] < 0:
        moves = moves[-1:]
    elif clear and yard and 0 in s:
        moves = [m for m in moves if s[m[0]] == 0] or moves
    out = []
    for i, t in moves:
        placed = list(s)
        placed[i] = t
        placed.sort(reverse=True)
        out.append(tuple(placed))
    return out


def _placement(table: dict[Placement, float], pawns: list[int]) -> Placement:
    """``pawns`` as a key of ``table``. A barrier's two pawns (``barriers``) share a field,
    which a lone colour without barriers never does: the race counts the second one a
    field further back (or the first free field behind it)."""
    place = tuple(sorted(pawns, reverse=True))
    if place in table:
        return place
    placed: list[int] = []
    for p in place:
        while p >= 0 and p in placed:
            p -= 1
        placed.append(p)
    return tuple(sorted(placed, reverse=True))


def _without(table: dict[Placement, float], place: Placement, p: int) -> float:
    """The race of ``place`` with its pawn at ``p`` sent back to the yard."""
    placed = list(place)
    placed[placed.index(p)] = YARD
    placed.sort(reverse=True)
    return table[tuple(placed)]


def _softmin(values: list[float], tau: float) -> float:
    lo = min(values)
    return lo - tau * math.log(sum(math.exp((lo - v) / tau) for v in values))


class StrongBot(LookAheadBot):
    """One-move look-ahead on the heuristic's score plus the solo race (module docstring)."""

    name = "strong"

    RACE = 1.0  # weight of the race (turns) against the heuristic's score
    HAZARD = 0.05  # capture rate per roll and track pawn inside the race table
    RISK = 1.0  # weight of the turns a capture before the next turn would cost
    TAU = 3.0  # softness (turns) of the minimum over allied colours' races
    FINISHED = 100.0  # turns "saved" by an allied colour that has finished

    def __init__(self) -> None:
        self._heuristic = HeuristicBot()

    def choose_huff(self, game, seat, targets, rng):
        return self._heuristic.choose_huff(game, seat, targets, rng)

    def table(self, g: Game) -> dict[Placement, float]:
        """The solo-race table of ``g``'s rules and board."""
        r = g.rules
        return solo_table(
            g.T, r.three_tries, r.jump_in_goal, r.compulsory_entry, r.clear_start, self.HAZARD
        )

    def evaluate(self, g: Game, allies: frozenset[int]) -> float:
        """Score of the position for the side holding ``allies`` (higher is better)."""
        heuristic = self._heuristic
        score = heuristic.evaluate(g, allies)
        if not self.RACE:
            return score
        table = self.table(g)
        T = g.T
        races: list[float] = []
        danger = 0.0
        for s in allies:
            pw = g.pawns[s]
            if not pw:
                continue
            if g.finished[s]:
                races.append(-self.FINISHED)
                continue
            place = _placement(table, pw)
            race = table[place]
            races.append(race)
            for p in place:
                if 0 <= p < T:
                    chance = _risk(g, s, p, allies, heuristic)
                    if chance > 0.0:
                        danger += chance * (_without(table, place, p) - race)
        if not races:
            return score
        if len(races) == 1:
            own = races[0]
        elif g.end == "first-colour":
            own = _softmin(races, self.TAU)
        else:
            own = sum(races)
        return score - self.RACE * (own + self.RISK * danger)
