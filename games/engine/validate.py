"""Validating and replaying game logs: the first illegal event, the outcome, every step.

* :func:`validate` — the result object of game-log.md; never raises.
* :func:`replay` — one :class:`Step` per event, for the replay viewer;
  :func:`replay_log` — the same with the setup and start position, reading the log once;
  :func:`replay_turns` — each event's roll, move and capture without the board (tallies).
* :func:`outcome` — the final :class:`~games.engine.game.Outcome` of a valid log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from .game import Game, IllegalMove, Outcome
from .log import InvalidLog, read_log, read_log_parsed
from .moves import Move
from .setup import Setup


def validate(log: object) -> dict[str, Any]:
    """Replay a log (dict, JSON str or bytes) and report as game-log.md says. Never raises.

    Valid: ``{"valid": True, "complete", "events", "placings", ["winner"],
    "pawns_home", "captures"}``. Invalid: ``{"valid": False, ["event"], "error"}``
    with ``event`` the 0-based index of the first offending event (absent when
    the log is malformed as a whole).
    """
    try:
        return _play(log).result()
    except InvalidLog as exc:
        return exc.result()


def validate_parsed(log: object) -> tuple[Any, dict[str, Any]]:
    """:func:`validate`, also returning the parsed log (``None`` if the text could not be
    read as a JSON object) — so a caller that stores the log parses it once. Never raises."""
    try:
        parsed, setup, events = read_log_parsed(log)
    except InvalidLog as exc:
        return None, exc.result()
    try:
        return parsed, _play_events(setup, events).result()
    except InvalidLog as exc:
        return parsed, exc.result()


def outcome(log: object) -> Outcome:
    """The final state of a valid log: placings, winner, pawns home, captures, positions.

    Raises :class:`InvalidLog` (a ``ValueError``) if the log is not valid.
    """
    return _play(log).outcome()


def final_game(log: object) -> Game:
    """The :class:`Game` at the end of a valid log (to continue it, or inspect it)."""
    return _play(log)


def _play(log: object) -> Game:
    return _play_events(*read_log(log))


def _play_events(setup: Setup, events: list[Any]) -> Game:
    game = Game(setup)
    try:
        game.push_events(events)
    except IllegalMove as exc:
        raise InvalidLog(exc.args[0], exc.index) from None
    _raise_defect(events)
    return game


def _raise_defect(events: list[Any]) -> None:
    """The cut-off event of :class:`~games.engine.log.Events` (a value that is not JSON)."""
    defect = getattr(events, "defect", None)
    if defect is not None:
        raise InvalidLog(defect[1], defect[0])


@dataclass(frozen=True)
class Step:
    """The game after one event of a log (for the replay viewer and results code)."""

    index: int
    """0-based index of the event"""
    event: Any
    """the event as written in the log"""
    colour: str
    die: int
    move: Move | None
    """the move made (with ``captures`` and ``huff``), or ``None``"""
    turn: str | None
    """colour to roll next; ``None`` once the game is over"""
    tries_left: int
    """rolls left in the next colour's roll opportunity (0 once over)"""
    positions: dict[str, tuple[int | str, ...]]
    """every colour's pawn positions after the event (``"B"`` = yard)"""
    placings: tuple[str, ...]
    over: bool
    attempt: tuple[int, int] = (1, 1)
    """(try, of): this roll was try ``try`` of the ``of`` tries the colour had in this roll
    opportunity (``of`` is 3 for a stuck colour under ``three_tries``, else 1)"""
    captured: tuple[str, int | str] | None = None
    """the pawn this event sent to its yard by a capture: (its colour, the position it stood
    on, relative to that colour); ``None`` without a capture (a huff is ``move.huff``)"""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "colour": self.colour,
            "die": self.die,
            "move": None if self.move is None else self.move.to_dict(),
            "turn": self.turn,
            "tries_left": self.tries_left,
            "positions": {c: list(p) for c, p in self.positions.items()},
            "placings": list(self.placings),
            "over": self.over,
            "attempt": list(self.attempt),
            "captured": None if self.captured is None else list(self.captured),
        }


def replay(log: object) -> Iterator[Step]:
    """Yield a :class:`Step` after each event of the log.

    A malformed log raises :class:`InvalidLog` before the first step; an illegal
    event raises it (with ``.event`` set) after the steps before it were yielded.
    """
    setup, events = read_log(log)
    return _steps(setup, events)


def replay_log(log: object) -> tuple[Setup, Game, Iterator[Step]]:
    """Read a log once: its :class:`~games.engine.setup.Setup`, the game before the first
    event (a separate copy) and the iterator of its steps (as :func:`replay`).

    Raises :class:`InvalidLog` at once for a malformed log; an illegal event raises it
    from the iterator, after the steps before it.
    """
    setup, events = read_log(log)
    return setup, Game(setup), _steps(setup, events)


class Turn(NamedTuple):
    """One event of a log as :func:`replay_turns` gives it: who rolled, what, the move made
    (``None`` without one) and the pawn it captured — a :class:`Step` without the board."""

    colour: str
    die: int
    move: Move | None
    captured: tuple[str, int | str] | None


def replay_turns(log: object) -> tuple[Setup, Iterator[Turn]]:
    """A log (a dict, or JSON as str/bytes) read once: its setup and one :class:`Turn` per
    event — the replay without each step's board (positions and placings), for tallies
    over a whole log at a fraction of :func:`replay`'s cost. Raises :class:`InvalidLog` as
    :func:`replay_log`."""
    setup, events = read_log(log)
    return setup, (
        Turn(game.names[seat], event["die"], move, captured)
        for game, _i, event, seat, _attempt, move, captured in _played(setup, events)
    )


def _played(setup: Setup, events: list[Any]) -> Iterator[tuple]:
    """The events pushed one by one: (the game after it, its index, the event, the seat
    that rolled, the roll's attempt, the move made, the pawn captured)."""
    game = Game(setup)
    for i, event in enumerate(events):
        c = game.turn_seat
        attempt = game.attempt
        try:
            played = game.push_event(event)
        except IllegalMove as exc:
            raise InvalidLog(exc.args[0], i) from None
        move = captured = None
        if played is not None:
            move = game.move_object(played[0], c, played[1])
            captured = game.captured_pawn(played[0])
        yield game, i, event, c, attempt, move, captured
    _raise_defect(events)


def _steps(setup: Setup, events: list[Any]) -> Iterator[Step]:
    for game, i, event, c, attempt, move, captured in _played(setup, events):
        yield Step(
            index=i,
            event=event,
            colour=game.names[c],
            die=event["die"],
            move=move,
            turn=game.turn,
            tries_left=game.tries_left,
            positions=game.positions(),
            placings=tuple(game.placing_colours()),
            over=game.over,
            attempt=attempt,
            captured=captured,
        )
