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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._text import describe
from .board import (
    HOUSE_LETTERS,
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


class SetupError(ValueError):
    """A game that can't be set up (unknown colour, player holding the neutral colour, …)."""


class IllegalMove(ValueError):
    """An event the rules do not allow; the message says why in a player's words."""


# --- the fixed part ------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Board, rules and seating of one game (the log's header)."""

    board: Board
    rules: RuleSet
    colours: tuple[str, ...]
    unused: frozenset[int]
    neutral: int | None
    players: dict[str, tuple[int, ...]]
    """player name → seats, for every player (colours without one are their own player)"""
    first: int
    named_players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """the log's ``players`` as given"""

    @classmethod
    def create(
        cls,
        *,
        board: int | Board = 4,
        rules: RuleSet | str | Mapping[str, Any] = "league",
        colours: Sequence[str] | None = None,
        players: Mapping[str, Sequence[str]] | None = None,
        unused: Iterable[str] | None = None,
        first: str | None = None,
    ) -> Setup:
        """Check and build a setup. Raises :class:`SetupError` / ``RulesError`` (ValueErrors)."""
        b = get_board(board)
        ruleset = RuleSet.from_spec(rules)
        names = _colour_names(b, colours)
        seat_of = {name: i for i, name in enumerate(names)}

        def seat(name: object, what: str) -> int:
            if isinstance(name, str) and name in seat_of:
                return seat_of[name]
            raise SetupError(f"{what}: unknown colour {_q(name)} (colours: {', '.join(names)})")

        if unused is None:
            unused = ()
        if isinstance(unused, str) or not isinstance(unused, Iterable):
            raise SetupError(f"unused must be a list of colours, not {_q(unused)}")
        unused_seats = frozenset(seat(u, "unused") for u in unused)
        if unused_seats and ruleset.preset == "online":
            raise SetupError(
                "the online rules never leave a colour unused (a computer plays it), "
                f"but the log lists {', '.join(names[s] for s in sorted(unused_seats))} as unused"
            )

        neutral = None
        if ruleset.neutral is not None:
            neutral = seat(ruleset.neutral, "neutral")
            if neutral in unused_seats:
                raise SetupError(f"the neutral colour {ruleset.neutral} can't also be unused")

        in_play = [s for s in range(b.seats) if s not in unused_seats and s != neutral]
        if len(in_play) < 2:
            raise SetupError(
                f"a game needs at least two colours in play, this one has {len(in_play)}"
            )

        if players is None:
            players = {}
        if not isinstance(players, Mapping):
            raise SetupError(f"players must be an object player → colours, not {_q(players)}")
        holder: dict[int, str] = {}
        named: dict[str, tuple[str, ...]] = {}
        for player, held in players.items():
            if not isinstance(player, str) or not player:
                raise SetupError(f"a player's name must be a non-empty string, not {_q(player)}")
            if isinstance(held, str) or not isinstance(held, Sequence) or not held:
                raise SetupError(
                    f"player {player} must hold a list of one or more colours, not {_q(held)}"
                )
            for name in held:
                s = seat(name, f"player {player}")
                if s == neutral:
                    raise SetupError(
                        f"player {player} holds {name}, but {name} is the neutral colour, "
                        "which has no player"
                    )
                if s in unused_seats:
                    raise SetupError(f"player {player} holds {name}, which is unused")
                if s in holder and holder[s] != player:
                    raise SetupError(f"{name} is held by both {holder[s]} and {player}")
                holder[s] = player
            named[player] = tuple(dict.fromkeys(held))
        all_players: dict[str, list[int]] = {p: [] for p in named}
        for s in in_play:
            if s in holder:
                all_players[holder[s]].append(s)
            elif names[s] in named:
                raise SetupError(
                    f"the player named {names[s]} clashes with the colour {names[s]}, "
                    "which has no player and so is its own player"
                )
            else:
                all_players[names[s]] = [s]

        if first is None:
            raise SetupError("the log does not say which colour moves first")
        f = seat(first, "first")
        if f in unused_seats:
            raise SetupError(f"first colour {first} is unused")
        if f == neutral:
            raise SetupError(f"first colour {first} is the neutral colour, which takes no turns")

        return cls(
            board=b,
            rules=ruleset,
            colours=names,
            unused=unused_seats,
            neutral=neutral,
            players={p: tuple(seats) for p, seats in all_players.items()},
            first=f,
            named_players=named,
        )

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats that take turns (not unused, not neutral), clockwise."""
        return tuple(
            s for s in range(self.board.seats) if s not in self.unused and s != self.neutral
        )

    @property
    def used(self) -> tuple[int, ...]:
        """Seats with pawns on the board (in play or neutral)."""
        return tuple(s for s in range(self.board.seats) if s not in self.unused)

    def seat(self, colour: str) -> int:
        try:
            return self.colours.index(colour)
        except ValueError:
            raise SetupError(f"unknown colour {_q(colour)}") from None

    def player_of(self, seat: int) -> str | None:
        for player, seats in self.players.items():
            if seat in seats:
                return player
        return None


def colours_in_play(
    board: int | Board,
    rules: RuleSet | str | Mapping[str, Any],
    colours: Sequence[str] | None = None,
    unused: Iterable[str] | None = None,
) -> list[str]:
    """Names of the colours that take turns (not unused, not neutral), clockwise."""
    names = _colour_names(get_board(board), colours)
    skip = set(unused or ()) | {RuleSet.from_spec(rules).neutral}
    return [c for c in names if c not in skip] or list(names)


def _colour_names(b: Board, colours: Sequence[str] | None) -> tuple[str, ...]:
    if colours is None:
        return b.colours
    if isinstance(colours, str) or not isinstance(colours, Sequence):
        raise SetupError(f"colours must be a list of {b.seats} names, not {_q(colours)}")
    names = tuple(colours)
    if len(names) != b.seats:
        raise SetupError(f"board {b.size} has {b.seats} colours, but colours lists {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name:
            raise SetupError(f"a colour name must be a non-empty string, not {_q(name)}")
    if len(set(names)) != len(names):
        raise SetupError(f"colour names must differ: {list(names)!r}")
    return names


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
        "events",
        "finished",
        "home",
        "home_order",
        "in_play",
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
        g = self.copy()
        g._apply(self.turn_seat, raw)
        return [position_name(p) for p in sorted(g._huff_targets(self.turn_seat, legal, raw))]

    def _find(self, legal: list[RawMove], move: Move) -> RawMove | None:
        """The legal move tuple matching a :class:`Move` (or ``None``)."""
        s = self.seat_of.get(move.pawn_colour, -1)
        frm = YARD if move.from_ == YARD_NAME else move.from_
        for m in legal:
            if m[0] == s and m[1] == frm and m[2] == move.to:
                return m
        return None

    def _candidates(self, c: int, n: int) -> list[RawMove]:
        """Moves before the filters of rules.md §3 (entry, forward, backward)."""
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
            yard_done = False
            seen: list[int] = []
            for p in pw:
                if p < 0:
                    if n != 6 or yard_done:
                        continue
                    yard_done = True
                    a = absm[0]
                    o = track[a]
                    if o < 0:
                        out.append((s, -1, 0, -1))
                    elif o != s and tcount[a] == 1:
                        out.append((s, -1, 0, o))
                    continue
                if barriers:
                    if p in seen:
                        continue
                    seen.append(p)
                t = p + n
                if p < T:
                    if t < T:
                        a = absm[t]
                        if not barriers:
                            o = track[a]
                            if o < 0:
                                out.append((s, p, t, -1))
                            elif o != s:
                                out.append((s, p, t, o))
                        elif self._clear_path(absm, p + 1, t):
                            o = track[a]
                            if o < 0 or (o == s and tcount[a] == 1):
                                out.append((s, p, t, -1))
                            elif o != s and tcount[a] == 1:
                                out.append((s, p, t, o))
                    elif (
                        t <= last
                        and t not in pw
                        and (jump or not any(h in pw for h in range(T, t)))
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
                elif (
                    t <= last
                    and t not in pw
                    and (jump or not any(h in pw for h in range(p + 1, t)))
                ):
                    out.append((s, p, t, -1))
        return out

    def _clear_path(self, absm: list[int], lo: int, hi: int) -> bool:
        """No barrier on relative track fields lo … hi-1."""
        tcount = self.tcount
        return all(tcount[absm[q]] < 2 for q in range(lo, hi))

    def _legal(self, c: int, n: int) -> list[RawMove]:
        """Legal moves of seat ``c`` with roll ``n``: candidates, then the filters of §3."""
        moves = self._candidates(c, n)
        if not moves:
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
        T = self.T
        last = T + 3
        jump = self._jump
        for s in self.movers[c]:
            pw = self.pawns[s]
            for p in pw:
                if p < 0:
                    continue
                if p < T:
                    return False
                if p < last:
                    if jump:
                        if any(q not in pw for q in range(p + 1, last + 1)):
                            return False
                    elif p + 1 not in pw:
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
        """Positions (after ``m`` was applied) of ``c``'s pawns that could have captured."""
        capable = {x[1] for x in legal if x[0] == c and x[3] >= 0}
        pw = self.pawns[c]
        out = {f for f in capable if (self.yard[c] if f < 0 else f in pw)}
        if m[0] == c and m[1] in capable:
            out.add(m[2])
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
            self.winner = self._player(placings[0])
            return
        if self._end == "all-places":
            left = [s for s in self.setup.in_play if not self.finished[s]]
            if len(left) <= 1:
                placings.extend(left)
                self.over = True
        done: dict[str, int] = {}
        for s in placings:
            player = self._player(s)
            done[player] = done.get(player, 0) + 1
            if done[player] == len(players[player]):
                if self._end == "both-colours":
                    self.over = True
                if self.over:
                    self.winner = player
                return

    def _player(self, seat: int) -> str:
        for player, seats in self.setup.players.items():
            if seat in seats:
                return player
        raise AssertionError(f"seat {seat} has no player")  # pragma: no cover

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
            self.tries -= 1
            if self.tries > 0:
                return
        k = len(self.names)
        finished = self.finished
        in_play = self.in_play
        s = c
        for _ in range(k):
            s = (s + 1) % k
            if in_play[s] and not finished[s]:
                break
        self._open(s)

    def _roll(self, c: int, n: int, m: RawMove | None, huff: int | None = None) -> None:
        """Record an already-checked roll: the move, the huff, finishing, the next turn."""
        if m is not None:
            self._apply(c, m)
            if huff is not None:
                self._send_home(c, huff)
            self._after_move(c)
        self._advance(c, n)

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
            raise IllegalMove(self._after_end_message())
        event: dict[str, Any] = {"colour": self.turn, "die": die}
        if move is not None:
            event["move"] = [move.from_, move.to]
            if move.pawn_colour != move.colour:
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

    def push_event(self, ev: object) -> tuple[RawMove, int | None] | None:
        """Check and record one log event. Returns ``(move, huff)`` or ``None`` for no move.

        Raises :class:`IllegalMove` explaining what is wrong.
        """
        if type(ev) is not dict:
            raise IllegalMove(
                f'an event must be an object like {{"colour": "red", "die": 4}}, not {_q(ev)}'
            )
        if self.over:
            raise IllegalMove(self._after_end_message())
        name = ev.get("colour")
        c = self.seat_of.get(name, -1) if type(name) is str else -1
        if c < 0:
            if "colour" not in ev:
                raise IllegalMove('the event has no "colour"')
            raise IllegalMove(
                f"unknown colour {_q(name)} (this game's colours: {', '.join(self.names)})"
            )
        n = ev.get("die")
        if type(n) is not int or not 1 <= n <= 6:
            if "die" not in ev:
                raise IllegalMove(f'{name}\'s event has no "die"')
            raise IllegalMove(f"{name} rolled {_q(n)}, but a die shows a whole number from 1 to 6")
        if c != self.turn_seat:
            raise IllegalMove(self._not_on_turn_message(c))
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
                    f"({self._list(legal, c)})"
                )
            if huff is not None:
                raise IllegalMove(
                    f"{name} rolled {n} and made no move, so there is nothing to huff for"
                )
            self._advance(c, n)
            return None
        s, frm, to = self._parse_move(ev, mv, c)
        for m in legal:
            if m[2] == to and m[1] == frm and m[0] == s:
                break
        else:
            raise IllegalMove(self._illegal_message(c, n, s, frm, to, legal))
        if self._huffing:
            return self._push_huffed(c, n, m, huff, legal)
        self._apply(c, m)
        self._after_move(c)
        self._advance(c, n)
        return m, None

    def _push_huffed(
        self, c: int, n: int, m: RawMove, huff: int | None, legal: list[RawMove]
    ) -> tuple[RawMove, int | None]:
        name = self.names[c]
        if not self._huff_due(c, legal, m):
            if huff is not None:
                why = (
                    "the move captured"
                    if m[3] >= 0
                    else f"no pawn of {name} could have captured with this roll"
                )
                raise IllegalMove(
                    f"{name} rolled {n} and moved {self._show(m, c)} with a huff of "
                    f"{position_name(huff)}, but {why}, so nobody is huffed"
                )
            self._roll(c, n, m)
            return m, None
        before = self.copy()
        self._apply(c, m)
        targets = self._huff_targets(c, legal, m)
        if huff is None or huff not in targets:
            capture = ", ".join(self._show(x, c) for x in legal if x[0] == c and x[3] >= 0)
            shown = " or ".join(str(position_name(p)) for p in sorted(targets))
            self._restore(before)
            if huff is None:
                raise IllegalMove(
                    f"{name} rolled {n} and moved {self._show(m, c)} without capturing, although "
                    f"it could have captured ({capture}); the huff is missing: the pawn that "
                    f"could have captured goes back to the yard (huff {shown})"
                )
            raise IllegalMove(
                f"{name} rolled {n} and moved {self._show(m, c)} with a huff of "
                f"{position_name(huff)}, but no pawn there could have captured ({capture}); "
                f"the huff must name {shown}"
            )
        if huff >= 0:
            self._send_home(c, huff)
        self._after_move(c)
        self._advance(c, n)
        return m, huff

    def _restore(self, other: Game) -> None:
        for name in Game.__slots__:
            setattr(self, name, getattr(other, name))

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

    # --- messages --------------------------------------------------------------------

    def _show(self, m: RawMove, c: int) -> str:
        text = f"{position_name(m[1])}→{m[2]}"
        return text if m[0] == c else f"{self.names[m[0]]} {text}"

    def _list(self, moves: list[RawMove], c: int) -> str:
        ordered = sorted(moves, key=lambda m: (m[0] != c, m[0], m[1], m[2]))
        return ", ".join(self._show(m, c) for m in ordered)

    def _after_end_message(self) -> str:
        won = f"; {self.winner} won" if self.winner else ""
        return f"the game was already over{won}, so no more rolls may follow"

    def _not_on_turn_message(self, c: int) -> str:
        name = self.names[c]
        turn = self.names[self.turn_seat]
        if c == self.neutral:
            return f"{name} is the neutral colour and never takes a turn; it is {turn}'s turn"
        if not self.in_play[c]:
            return f"{name} is not used in this game; it is {turn}'s turn"
        if self.finished[c]:
            return f"{name} has finished and takes no more turns; it is {turn}'s turn"
        if self.prev is not None:
            ps, pd, pmax = self.prev
            if ps == c:
                if pmax == 3 and pd != 6:
                    return f"{name} had already used its three tries for a 6; it is {turn}'s turn"
                return f"{name} rolled {pd}, which ended its turn; it is {turn}'s turn"
            if ps == self.turn_seat:
                if pd == 6:
                    return f"{turn} rolled a 6 and rolls again, not {name}"
                return (
                    f"{turn} could not move and still has {self.tries} of its three tries "
                    f"for a 6, so {turn} rolls again, not {name}"
                )
        return f"it is {turn}'s turn, not {name}'s"

    def _illegal_message(
        self, c: int, n: int, s: int, frm: int, to: int, legal: list[RawMove]
    ) -> str:
        name = self.names[c]
        pawn = f" with a {self.names[s]} pawn" if s != c else ""
        head = f"{name} rolled {n} and moved {position_name(frm)}→{to}{pawn}"
        reason = self._why(c, n, s, frm, to)
        if not legal:
            return (
                f"{head}, but {reason}; {name} had no legal move with that roll, "
                "so the roll is recorded without a move"
            )
        return f"{head}, but {reason} (allowed: {self._list(legal, c)})"

    def _why(self, c: int, n: int, s: int, frm: int, to: int) -> str:
        """Why moving seat ``s``'s pawn ``frm → to`` is not legal for ``c`` rolling ``n``."""
        T = self.T
        pname = self.names[s]
        pw = self.pawns[s]
        absm = self._abs[s]
        if frm < 0:
            if not self.yard[s]:
                return f"{pname} has no pawn in the yard"
            if to != 0:
                return "a pawn leaving the yard goes onto field A (B→0)"
            if n != 6:
                return "a pawn leaves the yard only with a 6"
            o = self.track[absm[0]]
            if o == s:
                return f"{pname}'s own pawn stands on field A"
            if o >= 0 and self.tcount[absm[0]] >= 2:
                return f"{self.names[o]}'s barrier blocks field A"
            return self._filtered(c, n, s, frm, to)
        if frm not in pw:
            return f"{pname} has no pawn on {self._field(frm)}"
        if to == frm + n:
            if frm < T:
                for q in range(frm + 1, min(to, T)):
                    if self.tcount[absm[q]] >= 2:
                        owner = self.names[self.track[absm[q]]]
                        return f"the barrier of {owner} on field {q} blocks the way"
            if to < T:
                a = absm[to]
                o = self.track[a]
                if o == s:
                    if not self._barriers:
                        return f"{pname}'s own pawn stands on field {to}"
                    if self.tcount[a] >= 2:
                        return f"two {pname} pawns already stand on field {to}"
                elif o >= 0 and self.tcount[a] >= 2:
                    return f"{self.names[o]}'s barrier on field {to} can't be captured or landed on"
            else:
                if to in pw:
                    return f"{pname}'s own pawn stands on {self._field(to)} ({to})"
                if not self._jump:
                    for h in range(max(frm + 1, T), to):
                        if h in pw:
                            return (
                                "pawns may not jump over pawns in the house "
                                f"({pname}'s pawn on {self._field(h)} ({h}))"
                            )
            return self._filtered(c, n, s, frm, to)
        if to == frm - n:
            if not self._back:
                return "pawns move forwards only"
            if frm >= T:
                return "pawns in the house never move backwards"
            if to < 1:
                return "a backward move may not reach or pass its own field A"
            a = absm[to]
            o = self.track[a]
            if o < 0 or o == s:
                return f"a backward move must capture, and field {to} holds no pawn to capture"
            if self.tcount[a] >= 2:
                return f"{self.names[o]}'s barrier on field {to} can't be captured"
            for q in range(to + 1, frm):
                if self.tcount[absm[q]] >= 2:
                    return f"the barrier on field {q} blocks the way"
            return self._filtered(c, n, s, frm, to)
        if frm + n > T + 3:
            return f"a roll of {n} would take the pawn on {frm} past the end of the house"
        if to < frm and not self._back:
            return f"pawns move forwards only: a roll of {n} takes {frm} to {frm + n}"
        return f"a roll of {n} moves a pawn {_fields(n)} ({frm}→{frm + n}), not {_fields(to - frm)}"

    def _filtered(self, c: int, n: int, s: int, frm: int, to: int) -> str:
        """Which filter of rules.md §3 ruled out a move that is possible on the board."""
        name = self.names[c]
        moves = self._candidates(c, n)
        if self._entry and n == 6 and any(m[1] < 0 and m[0] == c for m in moves):
            return f"with a 6, {name} must bring a pawn out of the yard onto field A (B→0)"
        if self._clear and self.yard[c] and self.track[self.start[c]] == c:
            sel = [m for m in moves if m[1] == 0 and m[0] == c]
            if sel and not (s == c and frm == 0):
                return f"while {name} has pawns in the yard its pawn on field A must move off first"
            if sel:
                moves = sel
        if self._capture and any(m[3] >= 0 for m in moves):
            return "a capture was possible, and capturing is compulsory"
        return "the rules do not allow that move"  # pragma: no cover - defensive

    def _field(self, pos: int) -> str:
        if pos < 0:
            return "the yard"
        if pos >= self.T:
            return f"house field {HOUSE_LETTERS[pos - self.T]}"
        if pos == 0:
            return "field A (0)"
        return f"field {pos}"

    def __repr__(self) -> str:
        state = "over" if self.over else f"turn={self.turn!r}"
        return f"<Game {self.rules.preset} board {self.board.size} {state} {self.positions()}>"


def _fields(k: int) -> str:
    return "1 field" if abs(k) == 1 else f"{abs(k)} fields"


def _check_die(die: object) -> None:
    if type(die) is not int or not 1 <= die <= 6:  # type: ignore[operator]
        raise IllegalMove(f"a die shows a whole number from 1 to 6, not {_q(die)}")
