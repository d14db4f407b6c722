"""Pure races, solved: the evaluator's exact part for the end of a game.

A position is a **pure race** when no pawn can ever meet another again: no yard pawn
anywhere (an entering pawn could capture), and every track pawn of every colour is
already past every other colour's track pawns (a pawn ``q`` of colour Y at Y's field
``r`` would pass the field of X's pawn iff that field is further along Y's way than ``r``).
Then the colours race independently, and each one's number of turns to finish has a
distribution that depends on its own pawns only:

``F(s)[k]`` = the chance that a colour at placement ``s`` finishes in its ``k``-th turn
(``k = 1``: the turn it is rolling in), playing every roll to the placement with the
fewest expected turns left (after a 6 the turn goes on; a roll with no move is spent).
Moves only advance pawns, so ``F`` is a recursion over the few placements reachable from
``s`` (memoised across calls; a colour with more than :data:`MAX_STATES` of them is left to
the network).

The colours take their turns round by round in seat order (a finished colour drops out,
which keeps the order of the rest), so the colour ``i``-th in the order from the one on
turn finishes at slot ``(k - 1) · n + i``; slots never tie. A player finishes at the
earliest of its colours' slots (``first-colour``) or the latest (all its colours:
``both-colours``, ``all-places``), and wins if every other player finishes later:

    P(P wins) = Σ_t P(T_P = t) · Π_{Q ≠ P} P(T_Q > t).

Exact for that play; expectimax (each player maximising the chance of winning rather
than minimising turns) differs by a fraction of a point in the endgames of
tests/engine/test_evaluator_exact.py.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..board import PAWNS_PER_COLOUR
from ..game import Game

K = 160
"""Turns followed per colour; a colour of a pure race almost never needs more (the mass
left after ``K`` turns is dropped)."""

MAX_STATES = 3000
"""Placements one colour's recursion may visit; beyond that the race is left to the network."""

_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
_CACHE_SIZE = 50_000


class _TooLarge(Exception):
    pass


def is_pure_race(g: Game) -> bool:
    """No pawn can meet another any more (module docstring)."""
    if g.over or g.neutral >= 0 or g.variants or g.platform_variant is not None:
        return False
    T = g.T
    active = [s for s in range(len(g.names)) if g.in_play[s] and not g.finished[s]]
    fields: list[tuple[int, int]] = []  # (seat, absolute field) of every track pawn
    rearmost: list[tuple[int, int]] = []  # (seat, its rearmost track pawn's own field)
    for s in active:
        if g.yard[s]:
            return False
        absm = g.abs_of[s]
        back = T
        for p in g.pawns[s]:
            if p < T:
                fields.append((s, absm[p]))
                if p < back:
                    back = p
        if back < T:
            rearmost.append((s, back))
    rel_of = g.rel_of
    for y, r in rearmost:
        rel = rel_of[y]
        for x, f in fields:
            if x != y and rel[f] > r:
                return False  # y's rearmost pawn still has x's pawn at f ahead on its way
    return True


def turns_to_finish(placement: tuple[int, ...], T: int, jump: bool) -> np.ndarray:
    """``F(placement)`` (module docstring): an array of ``K + 1`` chances, index k."""
    key = (T, jump, placement)
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit
    local: dict[tuple[int, ...], tuple[np.ndarray, float]] = {}
    try:
        dist, _e = _solve(placement, T, jump, local)
    finally:
        for s, (d, _) in local.items():
            _cache[(T, jump, s)] = d
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return dist


def _moves(s: tuple[int, ...], d: int, T: int, jump: bool) -> list[tuple[int, ...]]:
    last = T + PAWNS_PER_COLOUR - 1
    out = []
    for i, p in enumerate(s):
        if i and s[i - 1] == p:
            continue
        t = p + d
        if t > last or t in s:
            continue
        if not jump and t >= T and any(q in s for q in range(max(p + 1, T), t)):
            continue
        placed = list(s)
        placed[i] = t
        out.append(tuple(sorted(placed, reverse=True)))
    return out


def _solve(s, T, jump, local) -> tuple[np.ndarray, float]:
    """(F(s), expected turns) with the memo ``local`` (and the module's cache)."""
    got = local.get(s)
    if got is not None:
        return got
    cached = _cache.get((T, jump, s))
    if cached is not None:
        got = (cached, float(np.dot(np.arange(K + 1), cached)))
        local[s] = got
        return got
    if len(local) >= MAX_STATES:
        raise _TooLarge
    done = s[-1] >= T and all(p == T + PAWNS_PER_COLOUR - 1 - i for i, p in enumerate(s))
    if done:  # finished: never asked for (a finished colour is not in the race)
        dist = np.zeros(K + 1)
        local[s] = (dist, 0.0)
        return local[s]
    same = np.zeros(K + 1)  # this turn continues: F(next)[k]
    passed = np.zeros(K + 1)  # the turn passes: F(next)[k - 1]
    now = 0.0  # finished in this turn
    self_loop = 0.0  # a 6 without a move: roll again, same placement
    stay = 0.0  # no move, not a 6: next turn, same placement
    for d in range(1, 7):
        options = _moves(s, d, T, jump)
        if not options:
            if d == 6:
                self_loop += 1 / 6
            else:
                stay += 1 / 6
            continue
        dist_t = _best_option(options, d == 6, T, jump, local)
        if dist_t is None:
            now += 1 / 6
        elif d == 6:
            same += dist_t / 6
        else:
            passed[1:] += dist_t[:-1] / 6
    dist = _distribution(same, passed, now, stay, self_loop)
    e = float(np.dot(np.arange(K + 1), dist))
    local[s] = (dist, e)
    return local[s]


def _best_option(options, six: bool, T: int, jump: bool, local) -> np.ndarray | None:
    """``F`` after the option that finishes soonest in expectation (a 6's turn goes on,
    so it costs one turn less); ``None`` if an option finishes the colour."""
    best = None
    for t in options:
        if all(p == T + PAWNS_PER_COLOUR - 1 - i for i, p in enumerate(t)):
            return None
        dist_t, e_t = _solve(t, T, jump, local)
        cost = e_t - 1.0 if six else e_t  # turns after this one
        if best is None or cost < best[0]:
            best = (cost, dist_t)
    return best[1]


def _distribution(same, passed, now: float, stay: float, self_loop: float) -> np.ndarray:
    """``F[k] = now·[k=1] + same[k] + passed[k] + stay·F[k-1] + self_loop·F[k]``, solved."""
    dist = np.zeros(K + 1)
    scale = 1.0 / (1.0 - self_loop)
    for k in range(1, K + 1):
        v = same[k] + passed[k] + stay * dist[k - 1]
        if k == 1:
            v += now
        dist[k] = v * scale
    return dist


def race_chances(g: Game, players: list[tuple[str, tuple[int, ...]]]) -> list[float] | None:
    """Each player's chance (in the order of ``players``) if ``g`` is a pure race whose
    colours are small enough to solve, else None."""
    if not is_pure_race(g):
        return None
    n = len(g.names)
    T = g.T
    jump = g.jump
    order = [
        s % n
        for s in range(g.turn_seat, g.turn_seat + n)
        if g.in_play[s % n] and not g.finished[s % n]
    ]
    slots = K * len(order)
    try:
        cdf = _finish_cdfs(g, order, T, jump)
    except _TooLarge:
        return None
    first = g.end == "first-colour"
    player_cdf = []
    for _p, seats in players:
        live = [cdf[s] for s in seats if s in cdf]
        if not live:  # every colour finished: decided before we get here
            return None
        # the first of its colours (one is enough) or the last (all are needed)
        player_cdf.append(
            1.0 - np.prod([1.0 - x for x in live], axis=0) if first else np.prod(live, axis=0)
        )
    out = [_first_to_finish(player_cdf, i, slots) for i in range(len(player_cdf))]
    total = sum(out)
    if total <= 0.0:
        return None
    return [x / total for x in out]


def _finish_cdfs(g: Game, order: list[int], T: int, jump: bool) -> dict[int, np.ndarray]:
    """Seat → the chance it has finished by each slot (slot ``i + m·k``: the ``k``-th
    turn of the ``i``-th of the ``m`` colours in turn ``order``)."""
    m = len(order)
    cdf: dict[int, np.ndarray] = {}
    for i, s in enumerate(order):
        dist = turns_to_finish(tuple(sorted(g.pawns[s], reverse=True)), T, jump)
        pmf = np.zeros(K * m + 1)
        pmf[i + m * np.arange(K)] = dist[1:]
        cdf[s] = np.cumsum(pmf)
    return cdf


def _first_to_finish(player_cdf: list[np.ndarray], i: int, slots: int) -> float:
    """The chance that player ``i`` finishes in a slot before every other player."""
    pmf = np.diff(player_cdf[i], prepend=0.0)
    others = np.ones(slots + 1)
    for j, o in enumerate(player_cdf):
        if j != i:
            others = others * (1.0 - o)
    return float(np.dot(pmf, others))
