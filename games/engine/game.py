"""The turn flow: whose turn it is, the tries, finishing, the end of the game.

:class:`Game` is a :class:`~games.engine.position.Position` plus the turn (rules.md
§4–§7), like python-chess's ``Board`` on its ``BaseBoard``. Every path that records a
roll — :meth:`Game.push` (checked, for callers), the log reader
(:mod:`games.engine.events`, behind :meth:`Game.push_event` / :meth:`Game.push_events`)
and the simulation (:func:`games.engine.simulate.play`) — ends in the one move
primitive :meth:`Game.push_raw`: move the pawn, huff, finishing, next roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import events as _events
from . import messages
from ._text import describe
from .board import PAWNS_PER_COLOUR, YARD, YARD_NAME, Board, get_board, position_name
from .codes import coded
from .moves import IllegalMove, Move, RawMove
from .position import Position
from .rules import STUCK_TRIES, RuleSet
from .setup import Setup, SetupError, colours_in_play
from .variants import Variant, get_variant, variant_rules

__all__ = ["Game", "IllegalMove", "Outcome"]


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


class Game(Position):
    """A game in progress: the position plus whose turn it is and how many tries are left.

    ``push(die, move)`` records the next roll of the colour on turn (checked
    against the rules); ``apply`` does the same on a copy. ``legal_moves(die)``
    lists what the colour on turn may do with a roll. ``push_raw`` is the unchecked
    primitive underneath, for engine-internal move tuples.

    Public turn state (read it, don't write it): ``turn_seat`` (``-1`` once over),
    ``tries`` / ``tries_max`` (rolls left / rolls in this roll opportunity),
    ``in_play``, ``finished``, ``placings`` and ``home_order`` (seats), ``over``,
    ``winner`` (a player), ``events`` (rolls recorded), ``prev`` (seat, die and
    ``tries_max`` of the last roll, for messages) and ``last_t`` (the latest event time).
    """

    __slots__ = (
        "end",
        "ended_by",
        "events",
        "finished",
        "home_order",
        "in_play",
        "last_t",
        "over",
        "placings",
        "platform_variant",
        "prev",
        "tries",
        "tries_max",
        "turn_seat",
        "winner",
    )

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        n = setup.board.seats
        self.end = setup.rules.end
        self.in_play = [s in setup.in_play for s in range(n)]
        self.finished = [False] * n
        self.placings: list[int] = []
        self.home_order: list[int] = []
        self.over = False
        self.winner: str | None = None
        self.events = 0
        self.prev: tuple[int, int, int] | None = None
        self.turn_seat = -1
        self.tries = 0
        self.tries_max = 0
        self.last_t: float = 0  # the latest event time ("t") so far; times never go back
        self.platform_variant: Variant | None = None  # its end condition (games.engine.variants)
        self.ended_by: str | None = None  # the variant that ended the game, if one did
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
        variant: str | Variant | None = None,
    ) -> Game:
        """A new game; ``first`` defaults to the first colour in play. With ``variant``
        (``"quick"``, ``"first-capture"``) the variant's options are laid over ``rules``
        and the game ends by its condition (games.engine.variants)."""
        v = get_variant(variant)
        rules = variant_rules(rules, v)
        if first is None:
            first = colours_in_play(board, rules, colours, unused)[0]
        game = cls(
            Setup.create(
                board=board,
                rules=rules,
                colours=colours,
                players=players,
                unused=unused,
                first=first,
            )
        )
        game.platform_variant = v
        return game

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
        game.place(positions)
        if placings is None:
            placings = game._finished_colours()
        for colour in placings:
            game._mark_finished(colour)
        if game.placings:
            game._check_end()
        if game.finished[setup.first]:
            raise SetupError(f"{turn} has finished and can't be on turn")
        game.prev = None
        game._open(setup.first)
        if game.over:
            game.turn_seat = -1
        return game

    def _finished_colours(self) -> list[str]:
        """A hand-built position's default placings: every colour with all pawns home,
        clockwise — with a neutral colour only once the neutral pawns are home, too (until
        then they are only in the order they came home)."""
        done = [s for s in self.setup.in_play if self.home[s] == PAWNS_PER_COLOUR]
        if self.neutral < 0 or self.home[self.neutral] == PAWNS_PER_COLOUR:
            return [self.names[s] for s in done]
        self.home_order = done
        return []

    def _mark_finished(self, colour: str) -> None:
        """A hand-built position's colour listed as finished, placed next."""
        s = self.setup.seat(colour)
        if self.home[s] != PAWNS_PER_COLOUR:
            raise SetupError(f"{colour} is listed as finished but has pawns outside its house")
        self.finished[s] = True
        self.placings.append(s)
        if s not in self.home_order and self.neutral >= 0:
            self.home_order.append(s)

    def copy(self) -> Game:
        """An independent copy (the setup is shared; it is immutable)."""
        g = Game.__new__(Game)
        self.copy_position_into(g)
        g.end = self.end
        g.ended_by = self.ended_by
        g.platform_variant = self.platform_variant
        g.events = self.events
        g.in_play = self.in_play  # never changes
        g.last_t = self.last_t
        g.over = self.over
        g.prev = self.prev
        g.tries = self.tries
        g.tries_max = self.tries_max
        g.turn_seat = self.turn_seat
        g.winner = self.winner
        g.finished = self.finished[:]
        g.placings = self.placings[:]
        g.home_order = self.home_order[:]
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
        return self.stuck(s)

    def positions(self) -> dict[str, tuple[int | str, ...]]:
        """Every colour's pawn positions (sorted, ``"B"`` = yard); unused colours: ()."""
        return {
            self.names[s]: tuple(position_name(p) for p in sorted(self.pawns[s], reverse=True))
            for s in range(len(self.names))
        }

    def pawns_home(self) -> dict[str, int]:
        return {name: self.home[s] for s, name in enumerate(self.names)}

    def captures(self) -> dict[str, int]:
        return {name: self.capture_counts[s] for s, name in enumerate(self.names)}

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
        return [self.move_object(m, c) for m in self.legal(c, die)]

    def huff_options(self, die: int, move: Move | None) -> list[int | str]:
        """Positions (after ``move``) of the pawns that may be huffed for it; [] if no huff."""
        if self.over or move is None or not self.huffing:
            return []
        c = self.turn_seat
        legal = self.legal(c, die)
        raw = self._find(legal, move)
        if raw is None or not self.huff_due(c, legal, raw):
            return []
        return [position_name(p) for p in sorted(self.huff_targets(c, legal, raw))]

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

    # --- the move primitive ------------------------------------------------------------

    def push_raw(self, die: int, move: RawMove | None = None, huff: int | None = None) -> None:
        """Record the roll ``die`` of the colour on turn with the engine move ``move`` (one
        of :meth:`legal` for it, or ``None``) and the huffed pawn's position — unchecked.

        The one move primitive every path ends in: the pawn moves (capturing), the huffed
        pawn goes to its yard, finishing and the end (rules.md §5–§7), then who rolls
        next (§4 steps 3–4).
        """
        c = self.turn_seat
        if move is not None:
            self.move_pawn(c, move)
            if huff is not None:
                self.send_home(c, huff)
            if self.home[c] == PAWNS_PER_COLOUR or self.neutral >= 0:
                self.finish(c)
            if (
                self.platform_variant is not None
                and not self.over
                and self.platform_variant.decides(self.home[c], move)
            ):
                self.end_by_variant(c)  # the roller wins (even moving the neutral colour)
        self.events += 1
        self.prev = (c, die, self.tries_max)
        if self.over:
            self.turn_seat = -1
            return
        if not self.finished[c]:
            if die == 6:
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

    def finish(self, c: int) -> None:
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

    def end_by_variant(self, c: int) -> None:
        """Seat ``c`` has met the platform variant's end condition: it wins, the game is
        over (games.engine.variants)."""
        self.over = True
        self.ended_by = self.platform_variant.key if self.platform_variant else None
        if c not in self.placings:
            self.placings.append(c)
        self.winner = self.setup.player_of(c)

    def _check_end(self) -> None:
        placings = self.placings
        players = self.setup.players
        if self.end == "first-colour":
            self.over = True
            self.winner = self.setup.player_of(placings[0])
            return
        if self.end == "all-places":
            left = [s for s in self.setup.in_play if not self.finished[s]]
            if len(left) <= 1:
                placings.extend(left)
                self.over = True
        done: dict[str, int] = {}
        for s in placings:
            player = self.setup.player_of(s)
            done[player] = done.get(player, 0) + 1
            if done[player] == len(players[player]):
                if self.end == "both-colours":
                    self.over = True
                if self.over:
                    self.winner = player
                return

    def _open(self, s: int) -> None:
        """A new roll opportunity for seat ``s`` (rules.md §4 step 1)."""
        self.turn_seat = s
        # a pawn of s on the track means not stuck: skip the full test (the common case)
        if self.three and self.yard[s] + self.home[s] == PAWNS_PER_COLOUR and self.stuck(s):
            self.tries = self.tries_max = STUCK_TRIES
        else:
            self.tries = self.tries_max = 1

    # --- checked moves -----------------------------------------------------------------

    def push_checked(
        self, n: int, target: tuple[int, int, int] | None, huff: int | None
    ) -> tuple[RawMove | None, int | None]:
        """Check and record the roll ``n`` (1–6) of the colour on turn with the move
        ``target`` = (pawn seat, from, to) or ``None``, and the huffed pawn's position.

        Raises :class:`IllegalMove` (changing nothing) with an explanation if the rules
        do not allow it; returns the move tuple played and its huff.
        """
        c = self.turn_seat
        names = self.names
        legal = self.legal(c, n)
        if target is None:
            if legal:
                raise IllegalMove(
                    coded(
                        "no_move_made",
                        name=names[c],
                        die=n,
                        allowed=messages.move_list(names, legal, c),
                    )
                )
            if huff is not None:
                raise IllegalMove(
                    f"{names[c]} rolled {n} and made no move, so there is nothing to huff for"
                )
            self.push_raw(n)
            return None, None
        s, frm, to = target
        for m in legal:
            if m[2] == to and m[1] == frm and m[0] == s:
                break
        else:
            raise IllegalMove(messages.illegal_move(self, c, n, s, frm, to, legal))
        if self.huffing:
            if not self.huff_due(c, legal, m):
                if huff is not None:
                    raise IllegalMove(messages.huff_not_due(names, c, n, m, huff))
            else:
                targets = self.huff_targets(c, legal, m)
                if huff is None or huff not in targets:
                    raise IllegalMove(messages.huff_wrong(names, c, n, m, huff, legal, targets))
            self.push_raw(n, m, huff)
            return m, huff
        self.push_raw(n, m)
        return m, None

    def push(
        self, die: int, move: Move | None = None, huff: int | str | None = None
    ) -> Move | None:
        """Record the next roll of the colour on turn and the move made with it.

        ``move`` is one of :meth:`legal_moves` (or ``None`` when the roll allows
        none); ``huff`` names the huffed pawn where the rules ask for one. Raises
        :class:`IllegalMove` with an explanation otherwise (and changes nothing).
        Returns the move played, with its huff.
        """
        if self.over:
            raise IllegalMove(messages.after_end(self.winner))
        c = self.turn_seat
        if type(die) is not int or not 0 < die < 7:
            raise IllegalMove(coded("bad_die", name=self.names[c], n=describe(die)))
        h = None if huff is None else _events.parse_huff(self, c, huff)
        target = None
        if move is not None:
            pc = None if move.pawn_colour == self.names[c] else move.pawn_colour
            target = _events.parse_move(self, c, [move.from_, move.to], pc)
        played, h = self.push_checked(die, target, h)
        return None if played is None else self.move_object(played, c, h)

    def apply(self, die: int, move: Move | None = None, huff: int | str | None = None) -> Game:
        """A new game with the roll recorded (this one unchanged)."""
        g = self.copy()
        g.push(die, move, huff)
        return g

    def push_event(self, ev: object) -> tuple[RawMove, int | None] | None:
        """Check and record one log event (see :func:`games.engine.events.push_event`)."""
        return _events.push_event(self, ev)

    def push_events(self, events: Iterable[object]) -> None:
        """Check and record log events (see :func:`games.engine.events.push_events`)."""
        _events.push_events(self, events)

    def __repr__(self) -> str:
        state = "over" if self.over else f"turn={self.turn!r}"
        return f"<Game {self.rules.preset} board {self.board.size} {state} {self.positions()}>"


def _check_die(die: object) -> None:
    if type(die) is not int or not 1 <= die <= 6:  # type: ignore[operator]
        raise IllegalMove(f"a die shows a whole number from 1 to 6, not {describe(die)}")
