"""The position and move generation: where every pawn stands, and what a roll allows.

:class:`Position` knows the board, the rules that shape moves (rules.md §3) and the
pawns; it generates the candidate and legal moves of a colour for a roll, tells
whether a colour is stuck (§4), and moves pawns — with no idea of turns, tries or
the end of the game (that is :class:`~games.engine.game.Game`, built on it the way
python-chess's ``Board`` is built on ``BaseBoard``).

Speed matters (the validator replays hundreds of thousands of events a second):
colours are seat numbers, positions small ints (``YARD == -1``), the track a list of
occupant seats plus counts for barriers, moves plain tuples
``(pawn_seat, from, to, captured_seat)`` (:data:`~games.engine.moves.RawMove`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from .board import PAWNS_PER_COLOUR, YARD, Board, parse_position
from .moves import RawMove
from .setup import Setup, SetupError


@cache
def _geometry(b: Board) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """The start fields and the tables ``abs_of`` / ``rel_of`` of a board, made once and
    shared by every position on it (read-only, like the setup)."""
    T = b.track_length
    start = [b.start_field(s) for s in range(b.seats)]
    abs_of = [[(start[s] + p) % T for p in range(T)] for s in range(b.seats)]
    rel_of = [[(a - start[s]) % T for a in range(T)] for s in range(b.seats)]
    return start, abs_of, rel_of


class Position:
    """Pawns on the board of one :class:`~games.engine.setup.Setup`, and their moves.

    Public state (read it, don't write it): ``pawns[seat]`` (positions relative to the
    seat, ``YARD`` for the yard), ``track[field]`` (the seat on an absolute track field,
    ``-1`` for none), ``tcount[field]`` (how many pawns stand there: 2 is a barrier),
    ``yard[seat]``, ``home[seat]`` (pawns in the house), ``capture_counts[seat]``
    (captures made on that seat's turns); the geometry ``T`` (track length),
    ``last`` (``T + 3``, goal field d), ``start[seat]`` (absolute field of A),
    ``abs_of[seat][pos]`` and ``rel_of[seat][field]``; ``movers[seat]`` (the seats whose
    pawns ``seat`` may move: its own, and the neutral one) and the move-shaping options.
    """

    __slots__ = (
        "T",
        "abs_of",
        "back",
        "barriers",
        "capture",
        "capture_counts",
        "clear",
        "entry",
        "home",
        "huffing",
        "jump",
        "last",
        "movers",
        "names",
        "neutral",
        "pawns",
        "rel_of",
        "seat_of",
        "setup",
        "start",
        "tcount",
        "three",
        "track",
        "variants",
        "yard",
    )

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        b = setup.board
        r = setup.rules
        T = self.T = b.track_length
        self.last = b.last_field
        n = b.seats
        self.names = setup.colours
        self.seat_of = {name: i for i, name in enumerate(setup.colours)}
        self.start, self.abs_of, self.rel_of = _geometry(b)
        self.entry = r.compulsory_entry
        self.clear = r.clear_start
        self.three = r.three_tries
        self.jump = r.jump_in_goal
        self.barriers = r.barriers
        self.capture = r.compulsory_capture is True
        self.huffing = r.huff
        self.back = r.capture_backwards
        self.variants = r.barriers or r.capture_backwards
        self.neutral = -1 if setup.neutral is None else setup.neutral
        self.movers = [
            (s, self.neutral) if self.neutral >= 0 and s != self.neutral else (s,) for s in range(n)
        ]
        self.pawns: list[list[int]] = [[] for _ in range(n)]
        self.track = [-1] * T
        self.tcount = [0] * T
        self.home = [0] * n
        self.yard = [0] * n
        self.capture_counts = [0] * n
        for s in setup.used:
            self._start_pawns(s, one_out=r.setup == "one-out")

    def _start_pawns(self, s: int, *, one_out: bool) -> None:
        """Seat ``s``'s pawns at the start: all in the yard, or one on field A (one-out)."""
        if one_out:
            self.pawns[s] = [0, YARD, YARD, YARD]
            self.yard[s] = PAWNS_PER_COLOUR - 1
            self.track[self.start[s]] = s
            self.tcount[self.start[s]] = 1
        else:
            self.pawns[s] = [YARD] * PAWNS_PER_COLOUR
            self.yard[s] = PAWNS_PER_COLOUR

    def place(self, positions: Mapping[str, Iterable[int | str]]) -> None:
        """Put the pawns where ``positions`` (colour → 4 positions, ``"B"`` = yard) says;
        colours left out have no pawns. Raises :class:`SetupError` for an impossible one."""
        names = self.names
        board = self.setup.board
        T = self.T
        self.pawns = [[] for _ in names]
        self.track = [-1] * T
        self.tcount = [0] * T
        self.yard = [0] * len(names)
        self.home = [0] * len(names)
        limit = 2 if self.barriers else 1
        for colour, ps in positions.items():
            s = self.setup.seat(colour)
            pw = [parse_position(p, board) for p in ps]
            if len(pw) != PAWNS_PER_COLOUR:
                raise SetupError(f"{colour} must have {PAWNS_PER_COLOUR} pawns, not {len(pw)}")
            self.pawns[s] = pw
            for p in pw:
                if p < 0:
                    self.yard[s] += 1
                elif p >= T:
                    if pw.count(p) > 1:
                        raise SetupError(f"two {colour} pawns on house field {p}")
                    self.home[s] += 1
                else:
                    self._place_on_track(s, p, limit)

    def _place_on_track(self, s: int, p: int, limit: int) -> None:
        """Put a pawn of seat ``s`` on its relative track field ``p`` (:meth:`place`), at
        most ``limit`` of one colour on a field."""
        colour = self.names[s]
        a = self.abs_of[s][p]
        if self.track[a] not in (-1, s):
            raise SetupError(f"{colour} and {self.names[self.track[a]]} share a field")
        self.track[a] = s
        self.tcount[a] += 1
        if self.tcount[a] > limit:
            raise SetupError(f"too many {colour} pawns on field {p}")

    # --- move generation ---------------------------------------------------------------

    def candidates(self, c: int, n: int) -> list[RawMove]:
        """Moves of seat ``c`` rolling ``n`` before the filters of rules.md §3 (entry,
        forward, backward).

        This is the hot path of validation and simulation. Without barriers and
        backward captures a track field holds at most one pawn, so the occupant
        (``-1`` for none) is directly the captured seat; the variants take
        :meth:`_candidates_variants`.
        """
        if self.variants:
            return self._candidates_variants(c, n)
        T = self.T
        last = self.last
        track = self.track
        jump = self.jump
        out: list[RawMove] = []
        for s in self.movers[c]:
            pw = self.pawns[s]
            absm = self.abs_of[s]
            yard_done = False
            for p in pw:
                if p < 0:
                    if n == 6 and not yard_done:
                        yard_done = True
                        o = track[absm[0]]
                        if o != s:
                            out.append((s, YARD, 0, o))
                    continue
                t = p + n
                if t < T:
                    o = track[absm[t]]
                    if o != s:
                        out.append((s, p, t, o))
                elif t <= last and t not in pw:
                    if not jump:
                        lo = p + 1 if p >= T else T
                        if any(lo <= q < t for q in pw):
                            continue
                    out.append((s, p, t, -1))
        return out

    def _candidates_variants(self, c: int, n: int) -> list[RawMove]:
        """:meth:`candidates` with barriers and/or backward captures."""
        T = self.T
        last = self.last
        track = self.track
        tcount = self.tcount
        barriers = self.barriers
        back = self.back
        jump = self.jump
        out: list[RawMove] = []
        for s in self.movers[c]:
            pw = self.pawns[s]
            absm = self.abs_of[s]
            seen: list[int] = []
            for p in pw:
                if p in seen:  # a barrier's two pawns, or the yard: one move each
                    continue
                seen.append(p)
                if p < 0:
                    if n == 6:
                        a = absm[0]
                        o = track[a]
                        if o != s and (o < 0 or tcount[a] == 1):
                            out.append((s, YARD, 0, o))
                    continue
                t = p + n
                if p < T:
                    if t < T:
                        a = absm[t]
                        o = track[a]
                        if not barriers:
                            if o != s:
                                out.append((s, p, t, o))
                        elif self.clear_path(absm, p + 1, t) and (o < 0 or tcount[a] == 1):
                            out.append((s, p, t, -1 if o == s else o))
                    elif (
                        t <= last
                        and t not in pw
                        and (jump or not any(T <= q < t for q in pw))
                        and (not barriers or self.clear_path(absm, p + 1, T))
                    ):
                        out.append((s, p, t, -1))
                    if back and p - n >= 1:
                        t = p - n
                        a = absm[t]
                        o = track[a]
                        if (
                            o >= 0
                            and o != s
                            and tcount[a] == 1
                            and (not barriers or self.clear_path(absm, t + 1, p))
                        ):
                            out.append((s, p, t, o))
                elif t <= last and t not in pw and (jump or not any(p < q < t for q in pw)):
                    out.append((s, p, t, -1))
        return out

    def clear_path(self, absm: list[int], lo: int, hi: int) -> bool:
        """No barrier on the relative track fields ``lo … hi-1`` of the table ``absm``."""
        tcount = self.tcount
        return all(tcount[absm[q]] < 2 for q in range(lo, hi))

    def legal(self, c: int, n: int) -> list[RawMove]:
        """Legal moves of seat ``c`` rolling ``n``: the candidates, then the filters of §3."""
        if self.yard[c] and not self.variants:
            # the two filters that leave one move, decided before generating any (without
            # barriers a field holds one pawn: the occupant is the captured seat)
            absm = self.abs_of[c]
            track = self.track
            on_start = track[absm[0]]
            if on_start != c:
                if n == 6 and self.entry:
                    return [(c, YARD, 0, on_start)]
            elif self.clear and track[absm[n]] != c:
                return [(c, 0, n, track[absm[n]])]
        moves = self.candidates(c, n)
        if len(moves) < 2:  # each filter keeps at least one move
            return moves
        if self.entry and n == 6:
            for m in moves:
                if m[1] < 0 and m[0] == c:
                    return [m]
        if self.clear and self.yard[c] and self.track[self.start[c]] == c:
            sel = [m for m in moves if m[1] == 0 and m[0] == c]
            if sel:
                moves = sel
        if self.capture:
            sel = [m for m in moves if m[3] >= 0]
            if sel:
                moves = sel
        return moves

    def stuck(self, c: int) -> bool:
        """rules.md §4: no pawn ``c`` may move is on the track, and no house pawn can move.

        A house pawn can move (for some roll) exactly when the house is not packed:
        its ``k`` pawns do not fill the last ``k`` fields. With or without jumping.
        """
        yard = self.yard
        home = self.home
        for s in self.movers[c]:
            k = home[s]
            if yard[s] + k != PAWNS_PER_COLOUR:
                return False  # a pawn on the track
            if k:
                lowest = self.T + PAWNS_PER_COLOUR - k
                for p in self.pawns[s]:
                    if 0 <= p < lowest:
                        return False
        return True

    # --- the huff (compulsory_capture: "huff") -------------------------------------------

    @staticmethod
    def huff_due(c: int, legal: list[RawMove], m: RawMove) -> bool:
        """Whether ``c`` playing ``m`` skipped a capture one of its own pawns could make."""
        return m[3] < 0 and any(x[3] >= 0 and x[0] == c for x in legal)

    def huff_targets(self, c: int, legal: list[RawMove], m: RawMove) -> set[int]:
        """Where ``c``'s pawns that could have captured stand once ``m`` is made.

        Called before ``m`` is made. The moved pawn is named by its target; the others
        by where they stand (``YARD``: a yard pawn that could have entered capturing).
        """
        capable = {x[1] for x in legal if x[0] == c and x[3] >= 0}
        own_move = m[0] == c
        pw = self.pawns[c]
        out = set()
        for f in capable:
            left = self.yard[c] if f < 0 else pw.count(f)
            if own_move and m[1] == f:
                left -= 1
                out.add(m[2])
            if left > 0:
                out.add(f)
        return out

    # --- moving pawns ----------------------------------------------------------------------

    def move_pawn(self, c: int, m: RawMove) -> None:
        """Make the move ``m`` on the board (no checks); ``c``, the colour on turn, is
        credited with its capture. Neither finishing nor the turn: see ``Game.push_raw``."""
        s, frm, to, cap = m
        T = self.T
        pw = self.pawns[s]
        pw[pw.index(frm)] = to
        absm = self.abs_of[s]
        tcount = self.tcount
        track = self.track
        if frm < 0:
            self.yard[s] -= 1
        elif frm < T:
            a = absm[frm]
            k = tcount[a] - 1
            tcount[a] = k
            if not k:
                track[a] = -1
        if to < T:
            a = absm[to]
            if cap >= 0:
                cp = self.pawns[cap]
                cp[cp.index(self.rel_of[cap][a])] = YARD
                self.yard[cap] += 1
                tcount[a] = 0
                self.capture_counts[c] += 1
            track[a] = s
            tcount[a] += 1
        elif frm < T:
            self.home[s] += 1

    def send_home(self, c: int, h: int) -> None:
        """The huff: ``c``'s pawn at ``h`` goes back to its yard (nothing for ``h`` in the yard)."""
        if h < 0:
            return
        pw = self.pawns[c]
        pw[pw.index(h)] = YARD
        self.yard[c] += 1
        if h < self.T:
            a = self.abs_of[c][h]
            k = self.tcount[a] - 1
            self.tcount[a] = k
            if not k:
                self.track[a] = -1
        else:
            self.home[c] -= 1

    def captured_pawn(self, m: RawMove) -> tuple[str, int] | None:
        """The pawn the move ``m`` captures: (its colour, its position relative to that
        colour), or ``None``."""
        s, _frm, to, cap = m
        if cap < 0:
            return None
        return (self.names[cap], self.rel_of[cap][self.abs_of[s][to]])

    def copy_position_into(self, other: Position) -> None:
        """Give ``other`` (a fresh instance) this position: the board, rules and tables
        shared (they never change), the pawns in copies of their own. Every slot is set
        (tests/engine/test_engine_positions.py checks it); written out, not looped over
        ``__slots__``, because bots and rollouts copy positions by the hundred thousand."""
        other.setup = self.setup
        other.T = self.T
        other.last = self.last
        other.names = self.names
        other.seat_of = self.seat_of
        other.start = self.start
        other.abs_of = self.abs_of
        other.rel_of = self.rel_of
        other.movers = self.movers
        other.neutral = self.neutral
        other.entry = self.entry
        other.clear = self.clear
        other.three = self.three
        other.jump = self.jump
        other.barriers = self.barriers
        other.capture = self.capture
        other.huffing = self.huffing
        other.back = self.back
        other.variants = self.variants
        other.pawns = [p[:] for p in self.pawns]
        other.track = self.track[:]
        other.tcount = self.tcount[:]
        other.home = self.home[:]
        other.yard = self.yard[:]
        other.capture_counts = self.capture_counts[:]
