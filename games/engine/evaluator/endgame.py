"""Two-colour endgames, solved: the evaluator's exact part where pawns can still meet.

**The rule** (which positions are solved): exactly two colours are still playing, of two
different players (so the first of them to finish wins, under every end condition); the
rules are a preset's option family (no barriers, backward captures, compulsory capture,
huff, neutral colour or platform variant); each of the two colours has **one pawn
outside its house** (on the track or in the yard) and three in it. Its graph has at most
164 × 164 pairs of placements on board 4 and 196 × 196 on board 6 (one per colour: 41 or
49 places for the loose pawn, times the house configurations the colour can still reach,
one with a packed house and up to four), all within :data:`MAX_PAIRS`, so every such
endgame is solved. Pure races are left to :mod:`.race` (cheaper, and exact for its play);
everything else to the network.

Without barriers, a colour's legal moves depend on its own pawns only (rules.md §3: the
entry, forward moves, the house, compulsory entry and clearing A); the other colour only
decides whether the move captures. So the game is the product of two small *local*
graphs — each colour's placements reachable by its own moves and by losing a track pawn
to the yard — coupled by captures. The solver

1. enumerates each colour's reachable placements (``X``: the colour with the lower seat,
   ``Y``: the other),
2. tabulates, per placement and roll, the legal moves (after the filters) and the field
   each one lands on, and per placement of the other colour, the placement after losing
   the pawn on a field,
3. finds ``P(X wins)`` for every pair and colour on turn (at the start of its roll
   opportunity) by value iteration in numpy (float32) — each colour maximising its own
   chance (expectimax), a 6 rolling again, a stuck colour rolling up to three times for
   a 6 (``three_tries``, in closed form) — until the largest change is below
   :data:`TOL`.

The graph has cycles (a captured pawn comes round again; a roll without a move), so the
values are a fixed point, the same as :func:`games.engine.analysis.exact.exact_win`'s
(tests/engine/test_evaluator_endgame.py checks the two against each other on random
positions). One solve gives every position of the endgame's graph and is memoised (the
positions a search asks about are in the graph of its root), so an endgame costs one
solve: 5–25 ms of CPU with packed houses, 40–75 ms for the largest graphs
(docs/analysis.md, "Evaluator"). Nothing is shipped or built ahead: a table is small
enough to solve when it is first needed.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from ..board import PAWNS_PER_COLOUR, YARD
from ..game import Game
from .race import is_pure_race

MAX_PAIRS = 40_000
"""Placement pairs a solve may have: above the largest graph the rule admits (196² =
38,416 on board 6; 40–75 ms of CPU, docs/analysis.md), a safety net like
:data:`MAX_LOCAL`."""

MAX_LOCAL = 400
"""Placements one colour may have (a safety net: one loose pawn gives at most 4 · 49)."""

TOL = 1e-5
"""Value iteration stops when no value changes by more than this (float32 values, within
about 5e-5 of the fixed point: a thousandth of the 2-point and a hundredth of the 0.5-point
targets)."""

_Q = 5.0 / 6.0

_TABLES = 16


class _Store:
    """Solved graphs (at most :data:`_TABLES`, least recently used first) and the keys of
    graphs found too large, behind a lock (a store may be shared by threads)."""

    def __init__(self) -> None:
        self.tables: OrderedDict[tuple, _Table] = OrderedDict()
        self.too_large: set[tuple] = set()
        self.lock = threading.Lock()


_shared = _Store()
"""The process's store: the live rooms' threads and the simulations share it."""

_current: ContextVar[_Store | None] = ContextVar("endgame_store", default=None)

solved = 0
"""Graphs solved so far in this process (a counter, for tests and benchmarks)."""


def _store() -> _Store:
    return _current.get() or _shared


@contextmanager
def private_store() -> Iterator[None]:
    """Lookups within this block (in this thread or task) use a store of their own,
    empty at the start and dropped at the end. Two graphs that hold the same position
    agree to about 5e-5 (``TOL``), not to the bit, so what a lookup returns depends on
    which graphs were solved before it; the analysis runs every log in a private store,
    so the same log gives the same bits in any process, whatever else the process
    solves meanwhile."""
    token = _current.set(_Store())
    try:
        yield
    finally:
        _current.reset(token)


def tables() -> list[_Table]:
    """The current store's solved graphs, least recently used first (for tests)."""
    return list(_store().tables.values())


class _TooLarge(Exception):
    pass


def endgame_seats(g: Game) -> tuple[int, int] | None:
    """The two colours' seats ``(X, Y)`` (lower seat first) if ``g`` is a two-colour
    endgame (module docstring), else None."""
    if g.in_play.count(True) - g.finished.count(True) != 2:  # the common case: first
        return None
    return _endgame_pair(g)


def _endgame_pair(g: Game) -> tuple[int, int] | None:
    """:func:`endgame_seats` for a game with two colours left to play."""
    if (
        g.over
        or g.neutral >= 0
        or g.variants
        or g.capture
        or g.huffing
        or g.platform_variant is not None
    ):
        return None
    active = [s for s in range(len(g.names)) if g.in_play[s] and not g.finished[s]]
    if len(active) != 2 or g.turn_seat not in active:
        return None
    x, y = active
    player_of = g.setup.player_of
    if player_of(x) == player_of(y):
        return None
    T = g.T
    # one pawn each outside the house (on the track or in the yard)
    if any(sum(p < T for p in g.pawns[s]) != 1 for s in active):
        return None
    return x, y


@functools.lru_cache(maxsize=1 << 16)
def _local_moves(s: tuple[int, ...], d: int, T: int, rules: tuple) -> tuple[tuple, ...]:
    """The legal moves of a colour at placement ``s`` (sorted, largest first; yard -1)
    rolling ``d``: ``(placement after, relative field landed on or None)``. Memoised
    process-wide (a colour's moves depend only on its own placement and the rules, and
    the closure and the plan of every solve ask for the same ones)."""
    jump, entry, clear, _three = rules
    last = T + PAWNS_PER_COLOUR - 1
    out: list[tuple[tuple[int, ...], int | None, int]] = []  # (after, landed, from)
    yard = YARD in s
    if d == 6 and yard and 0 not in s:
        placed = list(s)
        placed[placed.index(YARD)] = 0
        out.append((tuple(sorted(placed, reverse=True)), 0, YARD))
    seen = set()
    for i, p in enumerate(s):
        if p < 0 or p in seen:
            continue
        seen.add(p)
        t = p + d
        if t > last or t in s:
            continue
        if t >= T and not jump:
            lo = p + 1 if p >= T else T
            if any(lo <= q < t for q in s):
                continue
        placed = list(s)
        placed[i] = t
        out.append((tuple(sorted(placed, reverse=True)), t if t < T else None, p))
    if len(out) > 1:
        out = _filtered(out, entry and d == 6, clear and yard and 0 in s)
    return tuple((a, t) for a, t, _f in out)


def _filtered(out: list, must_enter: bool, must_clear: bool) -> list:
    """The filters of rules.md §3 on a colour's moves ``(after, landed, from)``: entering
    on a 6 (``must_enter``: compulsory entry applies), else clearing the start field."""
    if must_enter and out[0][2] == YARD:
        return out[:1]
    if must_clear:
        return [m for m in out if m[2] == 0] or out
    return out


def _stuck(s: tuple[int, ...], T: int) -> bool:
    """No pawn on the track and the house packed (rules.md §4)."""
    if any(0 <= p < T for p in s):
        return False
    home = [p for p in s if p >= T]
    lowest = T + PAWNS_PER_COLOUR - len(home)
    return all(p >= lowest for p in home)


def _finished(s: tuple[int, ...], T: int) -> bool:
    return all(p >= T for p in s)


def _closure(start: tuple[int, ...], T: int, rules: tuple) -> list[tuple[int, ...]]:
    """Every placement reachable from ``start`` by own moves and by captures, the
    finished one excluded."""
    seen = {start}
    todo = [start]
    while todo:
        s = todo.pop()
        nxt = [a for d in range(1, 7) for a, _t in _local_moves(s, d, T, rules)]
        for i, p in enumerate(s):
            if 0 <= p < T:
                placed = list(s)
                placed[i] = YARD
                nxt.append(tuple(sorted(placed, reverse=True)))
        for a in nxt:
            if a not in seen and not _finished(a, T):
                seen.add(a)
                if len(seen) > MAX_LOCAL:
                    raise _TooLarge
                todo.append(a)
    return sorted(seen, reverse=True)


def _expectation(plan: list, own: np.ndarray, other: np.ndarray, is_x: bool):
    """One sweep's sum over the six rolls of the mover's best option (X maximises its
    chance, Y minimises it), and the values after a 6's best option."""
    src = np.concatenate((own.ravel(), other.ravel()))
    total = None
    six = None
    for rolls, flat in plan:
        g = src.take(flat)  # (rolls, k, nA, nB)
        best = g.max(axis=1) if is_x else g.min(axis=1)  # each mover for itself
        part = best.sum(axis=0) if len(rolls) > 1 else best[0]
        total = part if total is None else total + part
        if 5 in rolls:
            six = best[rolls.index(5)]
    return total, six


def _option_targets(opts: list, kk: int, index: dict, n: int, T: int):
    """For option ``kk`` (the last one where a placement has fewer) of every placement's
    moves ``opts``: the index of the placement after it (``n``: finished; itself without a
    move) and the relative field it lands on (``T``: none on the track)."""
    nxt = np.empty(n, dtype=np.intp)
    land = np.empty(n, dtype=np.intp)
    for j, o in enumerate(opts):
        if not o:  # no move: the same placement
            nxt[j] = j
            land[j] = T
            continue
        a, t = o[min(kk, len(o) - 1)]
        nxt[j] = n if _finished(a, T) else index[a]
        land[j] = T if t is None else t
    return nxt, land


class _Table:
    """The solved endgame of one pair of local graphs (module docstring)."""

    def __init__(self, T: int, rules: tuple, starts: tuple[int, int], ax, bx) -> None:
        self.T = T
        self.rules = rules
        self.starts = starts
        LA = _closure(ax, T, rules)
        LB = _closure(bx, T, rules)
        if len(LA) * len(LB) > MAX_PAIRS:
            raise _TooLarge
        self.ia = {s: i for i, s in enumerate(LA)}
        self.ib = {s: i for i, s in enumerate(LB)}
        nA, nB = len(LA), len(LB)
        W = nB + 1  # row width: column nB is "Y finished", row nA "X finished"
        sx, sy = starts
        three = rules[3]
        # the other colour's placement after losing the pawn on a field of the mover's
        # frame (column T: nothing captured)
        capB = self._captures(LB, self.ib, (sx - sy) % T)
        capA = self._captures(LA, self.ia, (sy - sx) % T)
        # per roll: per option k, the flat index of the state after it, and whether
        # the mover rolls again (6) — in the mover's table; options padded by repeating
        self.nA, self.nB, self.W = nA, nB, W
        self.x_plan = self._plan(LA, self.ia, nA, capB, W, True)
        self.y_plan = self._plan(LB, self.ib, nB, capA, W, False)
        self.x_stuck = np.array([three and _stuck(s, T) for s in LA])
        self.y_stuck = np.array([three and _stuck(s, T) for s in LB])
        self.vx, self.vy = self._solve()
        # keep only what a lookup needs (the plans are megabytes for the largest graphs)
        self.x_six, self.y_six = self._six(True), self._six(False)
        del self.x_plan, self.y_plan

    def _captures(self, L, index, shift: int) -> np.ndarray:
        """``cap[j, r]``: the index of placement ``L[j]`` after its pawn on the mover's
        relative field ``r`` is captured (``j`` itself if none there); ``cap[j, T] = j``.
        ``shift``: the mover's start minus this colour's, mod T."""
        T = self.T
        n = len(L)
        cap = np.tile(np.arange(n + 1)[:, None], (1, T + 1))
        for j, s in enumerate(L):
            for i, p in enumerate(s):
                if 0 <= p < T:
                    r = (p - shift) % T  # this pawn's field in the mover's frame
                    placed = list(s)
                    placed[i] = YARD
                    cap[j, r] = index[tuple(sorted(placed, reverse=True))]
        return cap

    def _plan(self, L, index, n, cap_other, W, is_x: bool) -> list[tuple[list[int], np.ndarray]]:
        """The flat index of the state after every option, into the mover's table followed
        by the other's (``concatenate``): a 6 leads to the mover's next roll opportunity
        (its own table), any other roll to the other colour's. A roll without a move is an
        option to the same placements. Grouped by the number of options ``k`` (padded by
        repeating the last): ``[(rolls, flat of shape (len(rolls), k, nA, nB)), ...]``."""
        T = self.T
        n_other = cap_other.shape[0] - 1
        size = (self.nA + 1) * W
        ar_o = np.arange(n_other)
        opts = [[_local_moves(s, d, T, self.rules) for s in L] for d in range(1, 7)]
        ks = [max(1, max(len(o) for o in by_d)) for by_d in opts]
        groups = []
        for k in sorted(set(ks)):
            rolls = [d for d in range(6) if ks[d] == k]
            shape = (len(rolls), k, n, n_other) if is_x else (len(rolls), k, n_other, n)
            flat = np.empty(shape, dtype=np.intp)
            for r, d in enumerate(rolls):
                base = 0 if d == 5 else size
                for kk in range(k):
                    nxt, land = _option_targets(opts[d], kk, index, n, T)
                    other = cap_other[ar_o[None, :], land[:, None]]  # (n, n_other)
                    if is_x:
                        flat[r, kk] = base + nxt[:, None] * W + other
                    else:
                        flat[r, kk] = base + (other * W + nxt[:, None]).T
            groups.append((rolls, flat))
        return groups

    def _six(self, is_x: bool) -> np.ndarray:
        """The flat indices after a 6's first option, shape (nA, nB)."""
        for rolls, flat in self.x_plan if is_x else self.y_plan:
            if 5 in rolls:
                return flat[rolls.index(5), 0]
        raise AssertionError("no plan for a 6")

    def _solve(self) -> tuple[np.ndarray, np.ndarray]:
        nA, nB, W = self.nA, self.nB, self.W
        f32 = np.float32
        vx = np.full((nA + 1, W), 0.5, dtype=f32)
        vy = np.full((nA + 1, W), 0.5, dtype=f32)
        for v in (vx, vy):
            v[nA, :] = 1.0
            v[:, nB] = 0.0
        q3 = _Q**3
        stay, enter = f32(q3), f32(1.0 - q3)
        sixth = f32(1.0 / 6.0)
        steps = [np.zeros((nA, nB), f32), np.zeros((nA, nB), f32)]  # last changes
        sides = [
            (True, self.x_plan, self.x_stuck[:, None], self.x_stuck.any()),
            (False, self.y_plan, self.y_stuck[None, :], self.y_stuck.any()),
        ]
        ratio = last = 0.0
        for sweep in range(100_000):
            change = 0.0
            for side, (is_x, plan, stuck, any_stuck) in enumerate(sides):
                own, other = (vx, vy) if is_x else (vy, vx)
                total, six = _expectation(plan, own, other, is_x)
                new = total * sixth
                if any_stuck:  # up to three rolls for a 6, closed form
                    new = np.where(stuck, enter * six + stay * other[:nA, :nB], new)
                step = steps[side]
                np.subtract(new, own[:nA, :nB], out=step)
                change = max(change, float(np.abs(step).max()))
                own[:nA, :nB] = new
            if change < TOL:
                break
            # the error shrinks geometrically (a colour waiting for its 6: about 5/6 a
            # sweep): once the ratio of two changes is steady, jump to the limit of the
            # geometric series (Aitken); the loop goes on until the changes are below TOL
            r = change / last if last > 0.0 else 0.0
            if sweep >= 15 and 0.0 < r < 0.98 and abs(r - ratio) < 0.005:
                jump = f32(r / (1.0 - r))
                for side, v in enumerate((vx, vy)):
                    v[:nA, :nB] += jump * steps[side]
                    np.clip(v[:nA, :nB], 0.0, 1.0, out=v[:nA, :nB])
                r = 0.0
            ratio, last = r, change
        return vx, vy

    def value(self, g: Game, x: int, y: int) -> float:
        """``P(X wins)`` at ``g`` (a roll point of X or Y; its placements are in this
        table's graph)."""
        a = self.ia[tuple(sorted(g.pawns[x], reverse=True))]
        b = self.ib[tuple(sorted(g.pawns[y], reverse=True))]
        x_on_turn = g.turn_seat == x
        own, other = (self.vx, self.vy) if x_on_turn else (self.vy, self.vx)
        if g.tries_max > 1 and g.tries < g.tries_max:  # within a stuck opportunity
            r = g.tries
            idx = (self.x_six if x_on_turn else self.y_six)[a, b]
            six = own.ravel()[idx]  # a 6 indexes the mover's own table
            return float((1.0 - _Q**r) * six + _Q**r * other[a, b])
        return float(own[a, b])


def _yardify(s: tuple[int, ...], T: int) -> tuple[int, ...]:
    """``s`` with its track pawns in the yard: the placement that generates the same
    closure (a capture sends any track pawn to the yard, and from there the dice can
    bring it back to any field)."""
    return tuple(sorted((YARD if p < T else p for p in s), reverse=True))


def endgame_chance(g: Game, solve: bool = True) -> tuple[int, int, float] | None:
    """``(X, Y, P(X wins))`` if ``g`` is a two-colour endgame small enough to solve
    (module docstring), else None.

    Memoised: ``g`` is looked up in the table of its own graph (the same rules, colours
    and house pawns, the track pawns put in the yard: a capture sends any track pawn
    there, so that placement generates the same graph), else in the latest table whose
    graph holds it (a position after a move is in the graph of the one before), else its
    graph is solved. Tables that hold the same position agree to about 5e-5 (``TOL``), not
    to the bit: use a :func:`private_store` where the same input must give the same bits
    (the analysis does, for every log). ``solve=False``: a lookup only (None
    where a solve would be needed)."""
    seats = endgame_seats(g)
    if seats is None:
        return None
    store = _store()
    with store.lock:
        return _lookup(store, g, seats, solve)


def _lookup(
    store: _Store, g: Game, seats: tuple[int, int], solve: bool
) -> tuple[int, int, float] | None:
    global solved
    memo, too_large = store.tables, store.too_large
    x, y = seats
    T = g.T
    rules = (g.jump, g.entry, g.clear, g.three)
    starts = (g.start[x], g.start[y])
    head = (T, rules, starts)
    ax = _yardify(g.pawns[x], T)
    bx = _yardify(g.pawns[y], T)
    key = (head, ax, bx)
    table = memo.get(key)
    if table is not None:
        memo.move_to_end(key)  # kept least-recently-used last
        return x, y, table.value(g, x, y)
    table = _holding(memo, head, g, x, y)
    if table is None:
        if key in too_large or not solve:
            return None
        table = _solved(store, key)
        if table is None:
            return None
        solved += 1
    return x, y, table.value(g, x, y)


def _holding(memo, head: tuple, g: Game, x: int, y: int) -> _Table | None:
    """The latest table with the same rules and colours whose graph holds ``g``'s
    placements (made the most recently used), or None."""
    a = tuple(sorted(g.pawns[x], reverse=True))
    b = tuple(sorted(g.pawns[y], reverse=True))
    for k, t in reversed(memo.items()):
        if k[0] == head and a in t.ia and b in t.ib:
            memo.move_to_end(k)
            return t
    return None


def _solved(store: _Store, key: tuple) -> _Table | None:
    """The graph of ``key`` solved and memoised (the least recently used dropped beyond
    ``_TABLES``), or None (remembered) if it is too large."""
    (T, rules, starts), ax, bx = key
    try:
        table = _Table(T, rules, starts, ax, bx)
    except _TooLarge:
        if len(store.too_large) > 10_000:
            store.too_large.clear()
        store.too_large.add(key)
        return None
    memo = store.tables
    memo[key] = table
    while len(memo) > _TABLES:
        memo.popitem(last=False)
    return table


def prepare(games) -> None:
    """Solve at most one new graph for a batch of positions: of those in the rule that no
    memoised graph holds, the one with the least advanced house pawns (its graph holds
    the positions after house moves, which the others may be). Pure races are left out
    (:mod:`.race` values them)."""

    best = None
    for g in games:
        seats = endgame_seats(g)
        if seats is None or endgame_chance(g, solve=False) is not None or is_pure_race(g):
            continue
        x, y = seats
        T = g.T
        key = (sum(_yardify(g.pawns[x], T)) + sum(_yardify(g.pawns[y], T)), len(g.names))
        if best is None or key < best[0]:
            best = (key, g)
    if best is not None:
        endgame_chance(best[1])


def clear() -> None:
    """Forget every solved endgame of the current store (the next lookups solve again)."""
    store = _store()
    with store.lock:
        store.tables.clear()
        store.too_large.clear()
