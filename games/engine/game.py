"""The game state: who sits where, where every pawn stands, whose turn it is.

:class:`Setup` is the fixed part of a game (board, rules, colour names, players,
unused and neutral colours, first colour). :class:`Game` is a position plus the
turn state, with :meth:`Game.legal_moves` and :meth:`Game.push`, like a
python-chess ``Board``.

Speed matters (the validator replays hundreds of thousands of events a second):
colours are seat numbers, positions small ints (``YARD == -1``), the track an
array of occupants, moves plain tuples; readable :class:`Move` objects are only
made for callers.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import messages
from ._text import describe
from .board import (
    PAWNS_PER_COLOUR,
    YARD,
    YARD_NAME,
    Board,
    get_board,
    parse_position,
    position_name,
)
from .moves import Move, RawMove
from .rules import RuleSet
from .setup import Setup, SetupError, colours_in_play

MAX_T = sys.float_info.max
"""The largest event time ``"t"``: a ``"t"`` is a finite number ≥ 0 (game-log.md)."""


class IllegalMove(ValueError):
    """An event the rules do not allow; the message says why in a player's words."""

    index: int | None = None
    """position of the event in the sequence given to :meth:`Game.push_events`"""


def _q(value: object) -> str:
    return describe(value)


# --- outcome -------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """Where a game stands at the end of a log (or now)."""

    complete: bool
    events: int
    placings: tuple[str, ...]
    winner: str | None
    pawns_home: dict[str, int]
    captures: dict[str, int]
    positions: dict[str, tuple[int | str, ...]]
    """every used colour's pawn positions (``"B"`` = yard), sorted; unused colours: ()"""
    turn: str | None
    """colour on turn (``None`` once the game is over)"""

    def result(self) -> dict[str, Any]:
        """The validation result object of game-log.md."""
        out: dict[str, Any] = {
            "valid": True,
            "complete": self.complete,
            "events": self.events,
            "placings": list(self.placings),
        }
        if self.winner is not None:
            out["winner"] = self.winner
        out["pawns_home"] = dict(self.pawns_home)
        out["captures"] = dict(self.captures)
        return out


# --- the game ------------------------------------------------------------------


class Game:
    """A game in progress: the position plus whose turn it is and how many tries are left.

    ``push(die, move)`` records the next roll of the colour on turn (checked
    against the rules); ``apply`` does the same on a copy. ``legal_moves(die)``
    lists what the colour on turn may do with a roll.
    """

    __slots__ = (
        "T",
        "_abs",
        "_back",
        "_barriers",
        "_capture",
        "_captures",
        "_clear",
        "_end",
        "_entry",
        "_huffing",
        "_jump",
        "_rel",
        "_three",
        "_variants",
        "events",
        "finished",
        "home",
        "home_order",
        "in_play",
        "last_t",
        "movers",
        "names",
        "neutral",
        "over",
        "pawns",
        "placings",
        "prev",
        "seat_of",
        "setup",
        "start",
        "tcount",
        "track",
        "tries",
        "tries_max",
        "turn_seat",
        "winner",
        "yard",
    )

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        b = setup.board
        r = setup.rules
        T = self.T = b.track_length
        n = b.seats
        self.names = setup.colours
        self.seat_of = {name: i for i, name in enumerate(setup.colours)}
        self.start = [b.start_field(s) for s in range(n)]
        self._abs = [[(self.start[s] + p) % T for p in range(T)] for s in range(n)]
        self._rel = [[(a - self.start[s]) % T for a in range(T)] for s in range(n)]
        self._entry = r.compulsory_entry
        self._clear = r.clear_start
        self._three = r.three_tries
        self._jump = r.jump_in_goal
        self._barriers = r.barriers
        self._capture = r.compulsory_capture is True
        self._huffing = r.huff
        self._back = r.capture_backwards
        self._variants = r.barriers or r.capture_backwards
        self._end = r.end
        self.neutral = -1 if setup.neutral is None else setup.neutral
        used = setup.used
        self.in_play = [s in setup.in_play for s in range(n)]
        self.movers = [
            (s, self.neutral) if self.neutral >= 0 and s != self.neutral else (s,) for s in range(n)
        ]
        self.pawns: list[list[int]] = [[] for _ in range(n)]
        self.track = [-1] * T
        self.tcount = [0] * T
        self.home = [0] * n
        self.yard = [0] * n
        for s in used:
            if r.setup == "one-out":
                self.pawns[s] = [0, YARD, YARD, YARD]
                self.yard[s] = 3
                self.track[self.start[s]] = s
                self.tcount[self.start[s]] = 1
            else:
                self.pawns[s] = [YARD] * PAWNS_PER_COLOUR
                self.yard[s] = PAWNS_PER_COLOUR
        self.finished = [False] * n
        self.placings: list[int] = []
        self.home_order: list[int] = []
        self._captures = [0] * n
        self.over = False
        self.winner: str | None = None
        self.events = 0
        self.prev: tuple[int, int, int] | None = None  # (seat, die, tries_max) of the last roll
        self.turn_seat = -1
        self.tries = 0
        self.tries_max = 0
        self.last_t: float = 0  # the latest event time ("t") so far; times never go back
        self._open(setup.first)

    # --- construction --------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: RuleSet | str | Mapping[str, Any] = "league",
        board: int = 4,
        *,
        first: str | None = None,
        colours: Sequence[str] | None = None,
        players: Mapping[str, Sequence[str]] | None = None,
        unused: Iterable[str] | None = None,
    ) -> Game:
        """A new game; ``first`` defaults to the first colour in play."""
        if first is None:
            first = colours_in_play(board, rules, colours, unused)[0]
        return cls(
            Setup.create(
                board=board,
                rules=rules,
                colours=colours,
                players=players,
                unused=unused,
                first=first,
            )
        )

    @classmethod
    def from_positions(
        cls,
        positions: Mapping[str, Iterable[int | str]],
        *,
        turn: str,
        rules: RuleSet | str | Mapping[str, Any] = "league",
        board: int = 4,
        colours: Sequence[str] | None = None,
        players: Mapping[str, Sequence[str]] | None = None,
        placings: Sequence[str] | None = None,
    ) -> Game:
        """A game set up in a hand-built position, with ``turn`` about to roll.

        ``positions`` maps each used colour to its four pawn positions (``"B"`` for
        the yard); colours left out are unused. ``placings`` lists colours already
        finished, in order (default: every colour with all pawns home, clockwise —
        with a neutral colour only once the neutral pawns are home, too).
        """
        b = get_board(board)
        names = tuple(colours) if colours is not None else b.colours
        ruleset = RuleSet.from_spec(rules)
        unused = [c for c in names if c not in positions]
        setup = Setup.create(
            board=b, rules=ruleset, colours=names, players=players, unused=unused, first=turn
        )
        game = cls(setup)
        T = game.T
        game.pawns = [[] for _ in names]
        game.track = [-1] * T
        game.tcount = [0] * T
        game.yard = [0] * len(names)
        game.home = [0] * len(names)
        for colour, ps in positions.items():
            s = setup.seat(colour)
            pw = [parse_position(p, b) for p in ps]
            if len(pw) != PAWNS_PER_COLOUR:
                raise SetupError(f"{colour} must have 4 pawns, not {len(pw)}")
            game.pawns[s] = pw
            for p in pw:
                if p < 0:
                    game.yard[s] += 1
                elif p >= T:
                    if pw.count(p) > 1:
                        raise SetupError(f"two {colour} pawns on house field {p}")
                    game.home[s] += 1
                else:
                    a = game._abs[s][p]
                    if game.track[a] not in (-1, s):
                        raise SetupError(f"{colour} and {names[game.track[a]]} share a field")
                    game.track[a] = s
                    game.tcount[a] += 1
                    limit = 2 if ruleset.barriers else 1
                    if game.tcount[a] > limit:
                        raise SetupError(f"too many {colour} pawns on field {p}")
        if placings is None:
            neutral_home = game.neutral < 0 or game.home[game.neutral] == PAWNS_PER_COLOUR
            done = [s for s in setup.in_play if game.home[s] == PAWNS_PER_COLOUR]
            if neutral_home:
                placings = [names[s] for s in done]
            else:
                game.home_order = done
                placings = []
        for colour in placings:
            s = setup.seat(colour)
            if game.home[s] != PAWNS_PER_COLOUR:
                raise SetupError(f"{colour} is listed as finished but has pawns outside its house")
            game.finished[s] = True
            game.placings.append(s)
            if s not in game.home_order and game.neutral >= 0:
                game.home_order.append(s)
        if game.placings:
            game._check_end()
        if game.finished[setup.first]:
            raise SetupError(f"{turn} has finished and can't be on turn")
        game.prev = None
        game._open(setup.first)
        if game.over:
            game.turn_seat = -1
        return game

    def copy(self) -> Game:
        """An independent copy (the setup is shared; it is immutable)."""
        g = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g.pawns = [list(p) for p in self.pawns]
        g.track = list(self.track)
        g.tcount = list(self.tcount)
        g.home = list(self.home)
        g.yard = list(self.yard)
        g.finished = list(self.finished)
        g.placings = list(self.placings)
        g.home_order = list(self.home_order)
        g._captures = list(self._captures)
        return g

    # --- reading the state -----------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.setup.board

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def turn(self) -> str | None:
        """The colour to roll next, or ``None`` when the game is over."""
        return None if self.over else self.names[self.turn_seat]

    @property
    def tries_left(self) -> int:
        """Rolls left in the current roll opportunity (3, 2 or 1 when stuck; else 1)."""
        return 0 if self.over else self.tries

    @property
    def attempt(self) -> tuple[int, int]:
        """(try, of) of the next roll: try ``try`` of the ``of`` tries of this roll opportunity
        (``of`` = 3 for a stuck colour under ``three_tries``, else 1); (0, 0) once over."""
        if self.over:
            return (0, 0)
        return (self.tries_max - self.tries + 1, self.tries_max)

    def is_over(self) -> bool:
        return self.over

    def is_stuck(self, colour: str | None = None) -> bool:
        """Whether ``colour`` (default: the one on turn) is stuck in the sense of rules.md §4."""
        s = self.turn_seat if colour is None else self.setup.seat(colour)
        return self._stuck(s)

    def positions(self) -> dict[str, tuple[int | str, ...]]:
        """Every colour's pawn positions (sorted, ``"B"`` = yard); unused colours: ()."""
        return {
            self.names[s]: tuple(position_name(p) for p in sorted(self.pawns[s], reverse=True))
            for s in range(len(self.names))
        }

    def pawns_home(self) -> dict[str, int]:
        return {name: self.home[s] for s, name in enumerate(self.names)}

    def captures(self) -> dict[str, int]:
        return {name: self._captures[s] for s, name in enumerate(self.names)}

    def placing_colours(self) -> list[str]:
        return [self.names[s] for s in self.placings]

    def outcome(self) -> Outcome:
        return Outcome(
            complete=self.over,
            events=self.events,
            placings=tuple(self.placing_colours()),
            winner=self.winner,
            pawns_home=self.pawns_home(),
            captures=self.captures(),
            positions=self.positions(),
            turn=self.turn,
        )

    def result(self) -> dict[str, Any]:
        """The validation result object (game-log.md) for the events pushed so far."""
        return self.outcome().result()

    def move_object(self, raw: RawMove, roller: int, huff: int | None = None) -> Move:
        """The readable :class:`Move` of an engine-internal move tuple made by seat ``roller``."""
        s, frm, to, cap = raw
        return Move(
            colour=self.names[roller],
            pawn_colour=self.names[s],
            from_=position_name(frm),
            to=to,
            captures=self.names[cap] if cap >= 0 else None,
            huff=None if huff is None else position_name(huff),
        )

    def captured_pawn(self, raw: RawMove) -> tuple[str, int] | None:
        """The pawn an engine-internal move captures: (its colour, its position relative to
        that colour), or ``None``."""
        s, _frm, to, cap = raw
        if cap < 0:
            return None
        return (self.names[cap], self._rel[cap][self._abs[s][to]])

    # --- legal moves -----------------------------------------------------------------

    def legal_moves(self, die: int) -> list[Move]:
        """The moves the colour on turn may make with ``die`` (empty: the roll is spent)."""
        if self.over:
            return []
        _check_die(die)
        c = self.turn_seat
        return [self.move_object(m, c) for m in self._legal(c, die)]

    def huff_options(self, die: int, move: Move | None) -> list[int | str]:
        """Positions (after ``move``) of the pawns that may be huffed for it; [] if no huff."""
        if self.over or move is None or not self._huffing:
            return []
        legal = self._legal(self.turn_seat, die)
        raw = self._find(legal, move)
        if raw is None or not self._huff_due(self.turn_seat, legal, raw):
            return []
        return [position_name(p) for p in sorted(self._huff_targets(self.turn_seat, legal, raw))]

    def _find(self, legal: list[RawMove], move: Move) -> RawMove | None:
        """The legal move tuple matching a :class:`Move` (or ``None``)."""
        s = self.seat_of.get(move.pawn_colour, -1)
        frm = YARD if move.from_ == YARD_NAME else move.from_
        if type(frm) is not int or (frm < 0 and move.from_ != YARD_NAME):
            return None  # -1 is not the yard
        for m in legal:
            if m[0] == s and m[1] == frm and m[2] == move.to:
                return m
        return None

    def _candidates(self, c: int, n: int) -> list[RawMove]:
        """Moves before the filters of rules.md §3 (entry, forward, backward).

        This is the hot path of validation and simulation. Without barriers and
        backward captures a track field holds at most one pawn, so the occupant
        (``-1`` for none) is directly the captured seat; the variants take
        :meth:`_candidates_variants`.
        """
        if self._variants:
            return self._candidates_variants(c, n)
        T = self.T
        last = T + 3
        track = self.track
        jump = self._jump
        out: list[RawMove] = []
        for s in self.movers[c]:
            pw = self.pawns[s]
            absm = self._abs[s]
            yard_done = False
            for p in pw:
                if p < 0:
                    if n == 6 and not yard_done:
                        yard_done = True
                        o = track[absm[0]]
                        if o != s:
                            out.append((s, -1, 0, o))
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
        """:meth:`_candidates` with barriers and/or backward captures."""
        T = self.T
        last = T + 3
        track = self.track
        tcount = self.tcount
        barriers = self._barriers
        back = self._back
        jump = self._jump
        out: list[RawMove] = []
        for s in self.movers[c]:
            pw = self.pawns[s]
            absm = self._abs[s]
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
                            out.append((s, -1, 0, o))
                    continue
                t = p + n
                if p < T:
                    if t < T:
                        a = absm[t]
                        o = track[a]
                        if not barriers:
                            if o != s:
                                out.append((s, p, t, o))
                        elif self._clear_path(absm, p + 1, t) and (o < 0 or tcount[a] == 1):
                            out.append((s, p, t, -1 if o == s else o))
                    elif (
                        t <= last
                        and t not in pw
                        and (jump or not any(T <= q < t for q in pw))
                        and (not barriers or self._clear_path(absm, p + 1, T))
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
                            and (not barriers or self._clear_path(absm, t + 1, p))
                        ):
                            out.append((s, p, t, o))
                elif t <= last and t not in pw and (jump or not any(p < q < t for q in pw)):
                    out.append((s, p, t, -1))
        return out

    def _clear_path(self, absm: list[int], lo: int, hi: int) -> bool:
        """No barrier on relative track fields lo … hi-1."""
        tcount = self.tcount
        return all(tcount[absm[q]] < 2 for q in range(lo, hi))

    def _legal(self, c: int, n: int) -> list[RawMove]:
        """Legal moves of seat ``c`` with roll ``n``: candidates, then the filters of §3."""
        moves = self._candidates(c, n)
        if len(moves) < 2:  # each filter keeps at least one move
            return moves
        if self._entry and n == 6:
            for m in moves:
                if m[1] < 0 and m[0] == c:
                    return [m]
        if self._clear and self.yard[c] and self.track[self.start[c]] == c:
            sel = [m for m in moves if m[1] == 0 and m[0] == c]
            if sel:
                moves = sel
        if self._capture:
            sel = [m for m in moves if m[3] >= 0]
            if sel:
                moves = sel
        return moves

    def _stuck(self, c: int) -> bool:
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

    # --- making moves ----------------------------------------------------------------

    def _apply(self, c: int, m: RawMove) -> None:
        """Move a pawn (no checks). ``c`` is the colour on turn, credited with a capture."""
        s, frm, to, cap = m
        T = self.T
        pw = self.pawns[s]
        pw[pw.index(frm)] = to
        absm = self._abs[s]
        if frm < 0:
            self.yard[s] -= 1
        elif frm < T:
            a = absm[frm]
            k = self.tcount[a] - 1
            self.tcount[a] = k
            if not k:
                self.track[a] = -1
        if to < T:
            a = absm[to]
            if cap >= 0:
                cp = self.pawns[cap]
                cp[cp.index(self._rel[cap][a])] = -1
                self.yard[cap] += 1
                self.tcount[a] = 0
                self._captures[c] += 1
            self.track[a] = s
            self.tcount[a] += 1
        elif frm < T:
            self.home[s] += 1

    @staticmethod
    def _huff_due(c: int, legal: list[RawMove], m: RawMove) -> bool:
        """Whether ``c`` playing ``m`` skipped a capture one of its own pawns could make."""
        return m[3] < 0 and any(x[3] >= 0 and x[0] == c for x in legal)

    def _huff_targets(self, c: int, legal: list[RawMove], m: RawMove) -> set[int]:
        """Where ``c``'s pawns that could have captured stand once ``m`` is made.

        Called before ``m`` is applied. The moved pawn is named by its target;
        the others by where they stand (``-1``: a yard pawn that could have
        entered capturing).
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

    def _send_home(self, c: int, h: int) -> None:
        """The huff: ``c``'s pawn at ``h`` goes back to its yard (nothing for ``h`` in the yard)."""
        if h < 0:
            return
        pw = self.pawns[c]
        pw[pw.index(h)] = -1
        self.yard[c] += 1
        if h < self.T:
            a = self._abs[c][h]
            k = self.tcount[a] - 1
            self.tcount[a] = k
            if not k:
                self.track[a] = -1
        else:
            self.home[c] -= 1

    def _after_move(self, c: int) -> None:
        """Finishing (rules.md §5, §7) and the end of the game (§6) after ``c``'s move."""
        neutral = self.neutral
        if neutral < 0:
            if self.home[c] == PAWNS_PER_COLOUR and not self.finished[c]:
                self.finished[c] = True
                self.placings.append(c)
                self._check_end()
            return
        if c != neutral and self.home[c] == PAWNS_PER_COLOUR and c not in self.home_order:
            self.home_order.append(c)
        if self.home[neutral] == PAWNS_PER_COLOUR:
            newly = [s for s in self.home_order if not self.finished[s]]
            if newly:
                if c in newly:
                    newly.remove(c)
                    newly.insert(0, c)
                for s in newly:
                    self.finished[s] = True
                    self.placings.append(s)
                self._check_end()

    def _check_end(self) -> None:
        placings = self.placings
        players = self.setup.players
        if self._end == "first-colour":
            self.over = True
            self.winner = self.setup.player_of(placings[0])
            return
        if self._end == "all-places":
            left = [s for s in self.setup.in_play if not self.finished[s]]
            if len(left) <= 1:
                placings.extend(left)
                self.over = True
        done: dict[str, int] = {}
        for s in placings:
            player = self.setup.player_of(s)
            done[player] = done.get(player, 0) + 1
            if done[player] == len(players[player]):
                if self._end == "both-colours":
                    self.over = True
                if self.over:
                    self.winner = player
                return

    def _open(self, s: int) -> None:
        """A new roll opportunity for seat ``s`` (rules.md §4 step 1)."""
        self.turn_seat = s
        self.tries = self.tries_max = 3 if self._three and self._stuck(s) else 1

    def _advance(self, c: int, n: int) -> None:
        """After ``c``'s roll of ``n``: who rolls next (rules.md §4 steps 3–4)."""
        self.events += 1
        self.prev = (c, n, self.tries_max)
        if self.over:
            self.turn_seat = -1
            return
        if not self.finished[c]:
            if n == 6:
                self._open(c)
                return
            if self.tries > 1:
                self.tries -= 1
                return
        finished = self.finished
        in_play = self.in_play
        k = len(in_play)
        s = c
        for _ in range(k):
            s = (s + 1) % k
            if in_play[s] and not finished[s]:
                self._open(s)
                return
        self.over = True  # nobody left to roll: only reachable from a hand-built position
        self.turn_seat = -1

    # --- public moves ------------------------------------------------------------------

    def push(
        self, die: int, move: Move | None = None, huff: int | str | None = None
    ) -> Move | None:
        """Record the next roll of the colour on turn and the move made with it.

        ``move`` is one of :meth:`legal_moves` (or ``None`` when the roll allows
        none); ``huff`` names the huffed pawn where the rules ask for one. Raises
        :class:`IllegalMove` with an explanation otherwise. Returns the move
        played, with its huff.
        """
        if self.over:
            raise IllegalMove(messages.after_end(self))
        event: dict[str, Any] = {"colour": self.turn, "die": die}
        if move is not None:
            event["move"] = [move.from_, move.to]
            if move.pawn_colour != self.turn:
                event["pawn_colour"] = move.pawn_colour
        if huff is not None:
            event["huff"] = huff
        c = self.turn_seat
        played = self.push_event(event)
        return None if played is None else self.move_object(played[0], c, played[1])

    def apply(self, die: int, move: Move | None = None, huff: int | str | None = None) -> Game:
        """A new game with the roll recorded (this one unchanged)."""
        g = self.copy()
        g.push(die, move, huff)
        return g

    def push_events(self, events: Iterable[object]) -> None:
        """Check and record a sequence of log events (the validator's loop).

        Raises :class:`IllegalMove` with ``.index`` set to the offending
        position in ``events``. Every event goes through :meth:`push_event`
        (the full checks, and the explanation of any defect) unless the inlined
        fast path below can *prove* it legal: a well-formed roll of the colour
        on turn that allows no move and records none, or — under rules without
        barriers, backward moves, compulsory capture or huffing — that moves
        one of the roller's own pawns by the roll onto a field it may take,
        past no filter of rules.md §3. The fast path only ever accepts; the
        differential tests hold it to :meth:`_legal`.
        """
        slow = self.push_event
        i = -1
        try:
            if self._huffing:
                for i, ev in enumerate(events):  # noqa: B007 - i is reported
                    slow(ev)
                return
            plain = not (self._variants or self._capture)
            entry_rule = self._entry
            clear_rule = self._clear
            jump = self._jump
            T = self.T
            last = T + 3
            seat_of = self.seat_of
            candidates = self._candidates
            apply = self._apply
            advance = self._advance
            after_move = self._after_move
            home = self.home
            yard = self.yard
            track = self.track
            pawns = self.pawns
            neutral = self.neutral
            for i, ev in enumerate(events):  # noqa: B007 - i is reported
                if type(ev) is not dict or self.over:
                    slow(ev)
                    continue
                c = self.turn_seat
                name = ev.get("colour")
                n = ev.get("die")
                if not (
                    type(name) is str
                    and seat_of.get(name) == c
                    and type(n) is int
                    and 0 < n < 7
                    and ev.get("huff") is None
                ):
                    slow(ev)
                    continue
                t = ev.get("t", self)
                if t is not self and not (
                    (type(t) is float or type(t) is int) and self.last_t <= t <= MAX_T
                ):
                    slow(ev)  # explain the bad time
                    continue
                mv = ev.get("move")
                if mv is None:
                    if candidates(c, n):
                        slow(ev)  # a move was possible: explain
                    else:
                        if t is not self:
                            self.last_t = t
                        advance(c, n)
                    continue
                m = None
                if plain and type(mv) is list and len(mv) == 2 and ev.get("pawn_colour") is None:
                    f, to = mv
                    if type(to) is not int:
                        pass
                    elif type(f) is not int:
                        if f == YARD_NAME and n == 6 and to == 0 and yard[c]:
                            o = track[self.start[c]]
                            if o != c:
                                m = (c, YARD, 0, o)
                    elif to == f + n and f >= 0 and f in pawns[c]:
                        pw = pawns[c]
                        absm = self._abs[c]
                        on_a = track[absm[0]] == c
                        if yard[c] and (
                            (entry_rule and n == 6 and not on_a)  # must enter instead
                            or (clear_rule and on_a and f != 0 and track[absm[n]] != c)
                        ):
                            pass  # a filter of §3 rules this move out
                        elif to < T:
                            o = track[absm[to]]
                            if o != c:
                                m = (c, f, to, o)
                        elif (
                            to <= last
                            and to not in pw
                            and (jump or not any((f < q < to and q >= T) for q in pw))
                        ):
                            m = (c, f, to, -1)
                if m is None:
                    slow(ev)
                    continue
                if t is not self:
                    self.last_t = t
                apply(c, m)
                if home[c] == PAWNS_PER_COLOUR or neutral >= 0:
                    after_move(c)
                advance(c, n)
        except IllegalMove as exc:
            exc.index = i
            raise

    def push_event(self, ev: object) -> tuple[RawMove, int | None] | None:
        """Check and record one log event. Returns ``(move, huff)`` or ``None`` for no move.

        Raises :class:`IllegalMove` explaining what is wrong. This is the
        validator's hot path: well-formed events take the short way, anything
        else is explained by :meth:`_event_defect`.
        """
        if type(ev) is not dict or self.over:
            raise IllegalMove(self._event_defect(ev))
        c = self.turn_seat
        name = ev.get("colour")
        n = ev.get("die")
        if type(name) is not str or self.seat_of.get(name) != c or type(n) is not int:
            raise IllegalMove(self._event_defect(ev))
        if not 0 < n < 7:
            raise IllegalMove(self._event_defect(ev))
        t = ev.get("t", self)
        if t is not self and not (
            (type(t) is float or type(t) is int) and self.last_t <= t <= MAX_T
        ):
            raise IllegalMove(messages.bad_time(name, t, self.last_t))
        mv = ev.get("move")
        h = ev.get("huff")
        huff = None
        if h is not None:
            if not self._huffing:
                raise IllegalMove(
                    f"the event records a huff ({_q(h)}), but these rules have no huffing "
                    '(compulsory_capture is not "huff")'
                )
            huff = self._parse_pos(h, f"{name}'s huff")
        legal = self._legal(c, n)
        if mv is None:
            if legal:
                raise IllegalMove(
                    f"{name} rolled {n} and made no move, but a move was possible "
                    f"({messages.move_list(self, legal, c)})"
                )
            if huff is not None:
                raise IllegalMove(
                    f"{name} rolled {n} and made no move, so there is nothing to huff for"
                )
            if t is not self:
                self.last_t = t
            self._advance(c, n)
            return None
        m = self._match(ev, mv, c, legal)
        if m is None:
            s, frm, to = self._parse_move(ev, mv, c)
            raise IllegalMove(messages.illegal_move(self, c, n, s, frm, to, legal))
        if self._huffing:
            played = self._push_huffed(c, n, m, huff, legal)
            if t is not self:
                self.last_t = t
            return played
        if t is not self:
            self.last_t = t
        self._apply(c, m)
        if self.home[c] == PAWNS_PER_COLOUR or self.neutral >= 0:
            self._after_move(c)
        self._advance(c, n)
        return m, None

    def _match(self, ev: dict[str, Any], mv: object, c: int, legal: list[RawMove]):
        """The legal move recorded as ``mv`` (with the event's pawn_colour), or ``None``."""
        if type(mv) is not list or len(mv) != 2:  # type: ignore[arg-type]
            return None
        f, to = mv  # type: ignore[misc]
        if type(to) is not int:
            return None
        frm = (f if f >= 0 else None) if type(f) is int else (YARD if f == YARD_NAME else None)
        pc = ev.get("pawn_colour")
        s = c if pc is None else (self.seat_of.get(pc) if type(pc) is str else None)
        for m in legal:
            if m[2] == to and m[1] == frm and m[0] == s:
                return m
        return None

    def _event_defect(self, ev: object) -> str:
        """Why an event is not even a roll of the colour on turn (shape, colour, die, turn)."""
        if type(ev) is not dict:
            return f'an event must be an object like {{"colour": "red", "die": 4}}, not {_q(ev)}'
        if self.over:
            return messages.after_end(self)
        name = ev.get("colour")
        c = self.seat_of.get(name, -1) if type(name) is str else -1
        if c < 0:
            if "colour" not in ev:
                return 'the event has no "colour"'
            return f"unknown colour {_q(name)} (this game's colours: {', '.join(self.names)})"
        n = ev.get("die")
        if type(n) is not int or not 1 <= n <= 6:
            if "die" not in ev:
                return f'{name}\'s event has no "die"'
            return f"{name} rolled {_q(n)}, but a die shows a whole number from 1 to 6"
        return messages.not_on_turn(self, c)

    def _push_huffed(
        self, c: int, n: int, m: RawMove, huff: int | None, legal: list[RawMove]
    ) -> tuple[RawMove, int | None]:
        """Record a legal move under the huff rule, checking the event's ``huff``."""
        if not self._huff_due(c, legal, m):
            if huff is not None:
                raise IllegalMove(messages.huff_not_due(self, c, n, m, huff))
            huff_pos = None
        else:
            targets = self._huff_targets(c, legal, m)
            if huff is None or huff not in targets:
                raise IllegalMove(messages.huff_wrong(self, c, n, m, huff, legal, targets))
            huff_pos = huff
        self._apply(c, m)
        if huff_pos is not None:
            self._send_home(c, huff_pos)
        self._after_move(c)
        self._advance(c, n)
        return m, huff_pos

    def _parse_pos(self, value: object, what: str) -> int:
        if value == YARD_NAME and type(value) is str:
            return YARD
        if type(value) is int and 0 <= value <= self.T + 3:
            return value
        raise IllegalMove(
            f"{what} is {_q(value)}, which is not a position (B for the yard, or 0–{self.T + 3})"
        )

    def _parse_move(self, ev: dict[str, Any], mv: object, c: int) -> tuple[int, int, int]:
        if type(mv) not in (list, tuple) or len(mv) != 2:  # type: ignore[arg-type]
            raise IllegalMove(
                f'a move is written [FROM, TO], e.g. [12, 16] or ["B", 0], not {_q(mv)}'
            )
        f, t = mv  # type: ignore[misc]
        who = f"{self.names[c]}'s move"
        frm = self._parse_pos(f, f"the start of {who}")
        to = self._parse_pos(t, f"the target of {who}")
        if to < 0:
            raise IllegalMove(
                "a move can't end in the yard (captured pawns go there by themselves)"
            )
        pc = ev.get("pawn_colour")
        if pc is None:
            return c, frm, to
        s = self.seat_of.get(pc, -1) if type(pc) is str else -1
        if s < 0:
            raise IllegalMove(
                f"unknown pawn_colour {_q(pc)} (this game's colours: {', '.join(self.names)})"
            )
        if s != c and s != self.neutral:
            raise IllegalMove(
                f"{self.names[c]} may only move its own pawns"
                + (f" or neutral {self.names[self.neutral]} pawns" if self.neutral >= 0 else "")
                + f", not {pc} ones"
            )
        return s, frm, to

    def __repr__(self) -> str:
        state = "over" if self.over else f"turn={self.turn!r}"
        return f"<Game {self.rules.preset} board {self.board.size} {state} {self.positions()}>"


def _check_die(die: object) -> None:
    if type(die) is not int or not 1 <= die <= 6:  # type: ignore[operator]
        raise IllegalMove(f"a die shows a whole number from 1 to 6, not {_q(die)}")
