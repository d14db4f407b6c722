"""Reading log events into a game: the validator's loop and the checks of one event.

:func:`push_events` is the validator's hot loop (with a fast path that only ever
accepts); :func:`push_event` checks one event in full and explains any defect. Both
read the log's spelling (``{"colour", "die", "move": [FROM, TO], "pawn_colour",
"huff", "t"}``, positions ``"B"`` or ``0…T+3``) and record what they accept through the
game's one move primitive, ``Game.push_raw`` (via ``Game.push_checked``) — like
python-chess's PGN reader, which parses a move and pushes it on the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import messages
from ._text import describe
from .board import PAWNS_PER_COLOUR, YARD, YARD_NAME
from .codes import coded
from .moves import IllegalMove, RawMove

if TYPE_CHECKING:
    from .game import Game

MAX_T = messages.MAX_T
"""The largest event time ``"t"``: a number from 0 to 10,000,000 seconds (game-log.md)."""


def push_events(game: Game, events: Iterable[object]) -> None:  # noqa: C901 (hot loop: the validator's fast path, per event (docs/engine.md); inlined)
    """Check and record a sequence of log events (the validator's loop).

    Raises :class:`IllegalMove` with ``.index`` set to the offending position in
    ``events``. Every event goes through :func:`push_event` (the full checks, and the
    explanation of any defect) unless the inlined fast path below can *prove* it
    legal: a well-formed roll of the colour on turn (with a valid ``"t"``, if any)
    that allows no move (every pawn in the yard and no 6, or no candidate move) and
    records none, or — under rules without barriers, backward moves, compulsory
    capture or huffing — that moves one of the roller's own pawns by the roll onto a
    field it may take, past no filter of rules.md §3. The fast path only ever
    accepts, and records through ``game.push_raw`` like every other path; the
    differential tests hold it to ``Position.legal``.
    """
    if game.huffing:
        _push_each(game, events)
        return
    slow = push_event
    i = -1
    try:
        plain = not (game.variants or game.capture)
        entry_rule = game.entry
        clear_rule = game.clear
        jump = game.jump
        T = game.T
        last = game.last
        names = game.names
        candidates = game.candidates
        push_raw = game.push_raw
        yard = game.yard
        track = game.track
        pawns = game.pawns
        abs_of = game.abs_of
        start = game.start
        solo = game.neutral < 0  # a colour moves only its own pawns
        for i, ev in enumerate(events):  # noqa: B007 - i is reported
            if type(ev) is not dict or game.over:
                slow(game, ev)
                continue
            c = game.turn_seat
            name = ev.get("colour")
            n = ev.get("die")
            if not (type(name) is str and name == names[c] and type(n) is int and 0 < n < 7):
                slow(game, ev)
                continue
            k = len(ev)
            if k == 2:  # just colour and die
                mv = pc = None
                t = ev  # the event itself: no "t"
            elif k == 3 and "move" in ev:  # colour, die and move
                mv = ev["move"]
                pc = None
                t = ev
            else:
                if ev.get("huff") is not None:
                    slow(game, ev)
                    continue
                if "t" in ev:
                    t = ev["t"]
                    if not ((type(t) is float or type(t) is int) and game.last_t <= t <= MAX_T):
                        slow(game, ev)  # explain the bad time
                        continue
                else:
                    t = ev
                mv = ev.get("move")
                pc = ev.get("pawn_colour")
            if mv is None:
                if (n == 6 or yard[c] != PAWNS_PER_COLOUR or not solo) and candidates(c, n):
                    slow(game, ev)  # a move was possible: explain
                    continue
                m = None
            else:
                m = None
                if plain and type(mv) is list and len(mv) == 2 and pc is None:
                    f, to = mv
                    if type(to) is not int:
                        pass
                    elif type(f) is not int:
                        if f == YARD_NAME and n == 6 and to == 0 and yard[c]:
                            o = track[start[c]]
                            if o != c:
                                m = (c, YARD, 0, o)
                    elif to == f + n and f >= 0 and f in pawns[c]:  # -1 is not the yard
                        pw = pawns[c]
                        absm = abs_of[c]
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
                    slow(game, ev)
                    continue
            if t is not ev:
                game.last_t = t
            push_raw(n, m)
    except IllegalMove as exc:
        exc.index = i
        raise


def _push_each(game: Game, events: Iterable[object]) -> None:
    """:func:`push_events` without its fast path (rules with huffing): every event checked
    in full."""
    i = -1
    try:
        for i, ev in enumerate(events):  # noqa: B007 - i is reported
            push_event(game, ev)
    except IllegalMove as exc:
        exc.index = i
        raise


def push_event(game: Game, ev: object) -> tuple[RawMove, int | None] | None:
    """Check and record one log event. Returns ``(move, huff)`` or ``None`` for no move.

    Raises :class:`IllegalMove` explaining what is wrong (and changes nothing). The
    order of the checks (docs/engine.md, decision 8): shape → colour known → die →
    colour on turn → ``t`` → huff allowed/shape → move shape → legality → huff.
    """
    if type(ev) is not dict or game.over:
        raise IllegalMove(event_defect(game, ev))
    c = game.turn_seat
    name = ev.get("colour")
    n = ev.get("die")
    if type(name) is not str or game.seat_of.get(name) != c or type(n) is not int:
        raise IllegalMove(event_defect(game, ev))
    if not 0 < n < 7:
        raise IllegalMove(event_defect(game, ev))
    t = ev.get("t", ev)  # the event itself: no "t"
    if t is not ev and not ((type(t) is float or type(t) is int) and game.last_t <= t <= MAX_T):
        raise IllegalMove(messages.bad_time(name, t, game.last_t))
    h = ev.get("huff")
    huff = None if h is None else parse_huff(game, c, h)
    mv = ev.get("move")
    target = None if mv is None else parse_move(game, c, mv, ev.get("pawn_colour"))
    played, huff = game.push_checked(n, target, huff)
    if t is not ev:
        game.last_t = t
    return None if played is None else (played, huff)


def event_defect(game: Game, ev: object) -> str:
    """Why an event is not even a roll of the colour on turn (shape, colour, die, turn)."""
    if type(ev) is not dict:
        return f'an event must be an object like {{"colour": "red", "die": 4}}, not {describe(ev)}'
    if game.over:
        return messages.after_end(game.winner)
    name = ev.get("colour")
    names = game.names
    c = game.seat_of.get(name, -1) if type(name) is str else -1
    if c < 0:
        return _no_colour(ev, names)
    n = ev.get("die")
    if type(n) is not int or not 1 <= n <= 6:
        return _no_die(ev, name)
    return messages.not_on_turn(
        names,
        c,
        game.turn_seat,
        neutral=game.neutral,
        in_play=game.in_play[c],
        finished=game.finished[c],
        prev=game.prev,
        tries=game.tries,
    )


def _no_colour(ev: dict, names: tuple[str, ...]) -> str:
    """An event whose ``"colour"`` is missing or not one of the game's."""
    if "colour" not in ev:
        return 'the event has no "colour"'
    name = ev.get("colour")
    return f"unknown colour {describe(name)} (this game's colours: {', '.join(names)})"


def _no_die(ev: dict, name: str) -> str:
    """An event whose ``"die"`` is missing or not 1–6."""
    if "die" not in ev:
        return f'{name}\'s event has no "die"'
    return coded("bad_die", name=name, n=describe(ev.get("die")))


def parse_pos(game: Game, value: object, code: str, c: int) -> int:
    """The engine's code of a position written in a log: ``"B"`` → ``YARD``, ``0…T+3``;
    else the coded error ``code`` (``bad_start``, ``bad_target``, ``bad_huff``) of seat
    ``c``."""
    if value == YARD_NAME and type(value) is str:
        return YARD
    if type(value) is int and 0 <= value <= game.last:
        return value
    raise IllegalMove(coded(code, name=game.names[c], what=describe(value), last=game.last))


def parse_huff(game: Game, c: int, h: object) -> int:
    """The position a ``"huff"`` names, for seat ``c`` (the rules must have huffing)."""
    if not game.huffing:
        raise IllegalMove(
            f"the event records a huff ({describe(h)}), but these rules have no huffing "
            '(compulsory_capture is not "huff")'
        )
    return parse_pos(game, h, "bad_huff", c)


def parse_move(game: Game, c: int, mv: Any, pc: object) -> tuple[int, int, int]:
    """(pawn seat, from, to) of a move ``[FROM, TO]`` of seat ``c``, with the event's
    ``pawn_colour`` ``pc`` (``None``: ``c``'s own pawn)."""
    if type(mv) is not list or len(mv) != 2:
        raise IllegalMove(coded("move_syntax", what=describe(mv)))
    f, t = mv
    names = game.names
    frm = parse_pos(game, f, "bad_start", c)
    to = parse_pos(game, t, "bad_target", c)
    if to < 0:
        raise IllegalMove(coded("move_to_yard"))
    if pc is None:
        return c, frm, to
    s = game.seat_of.get(pc, -1) if type(pc) is str else -1
    if s < 0:
        raise IllegalMove(
            f"unknown pawn_colour {describe(pc)} (this game's colours: {', '.join(names)})"
        )
    if s != c and s != game.neutral:
        neutral = f" or neutral {names[game.neutral]} pawns" if game.neutral >= 0 else ""
        raise IllegalMove(f"{names[c]} may only move its own pawns{neutral}, not {pc} ones")
    return s, frm, to
