"""The :class:`Move` value object, the engine-internal move tuple and :class:`IllegalMove`.

Inside the engine a move is a plain tuple ``(pawn_seat, from, to, captured_seat)``
with ``YARD == -1`` for the yard and ``-1`` for "captures nothing" — cheap to make
by the hundred thousand. :class:`Move` is the readable form handed to callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import YARD_NAME

RawMove = tuple[int, int, int, int]
"""Engine-internal move: (pawn seat, from, to, captured seat or -1)."""


class IllegalMove(ValueError):
    """An event the rules do not allow; the message says why in a player's words."""

    index: int | None = None
    """position of the event in the sequence given to ``Game.push_events``"""


def show_position(pos: int | str) -> str:
    return YARD_NAME if pos == YARD_NAME or (isinstance(pos, int) and pos < 0) else str(pos)


@dataclass(frozen=True, slots=True)
class Move:
    """One move: who moved which pawn from where to where, and what it did.

    Positions are relative to ``pawn_colour`` (``"B"`` = yard). ``captures`` is the
    colour of the pawn sent back to its yard, ``huff`` the position (relative to
    ``colour``, after the move) of a pawn of the mover huffed for a skipped
    capture — set on moves that were played, ``None`` on candidates from
    ``legal_moves``.
    """

    colour: str
    pawn_colour: str
    from_: int | str
    to: int
    captures: str | None = None
    huff: int | str | None = None

    @property
    def is_entry(self) -> bool:
        return self.from_ == YARD_NAME

    @property
    def is_backward(self) -> bool:
        return isinstance(self.from_, int) and self.to < self.from_

    @property
    def is_neutral(self) -> bool:
        """Whether the roller moved a pawn of the neutral colour."""
        return self.pawn_colour != self.colour

    def as_list(self) -> list[int | str]:
        """The ``[FROM, TO]`` pair written in a log."""
        return [self.from_, self.to]

    def event(self, die: int) -> dict[str, Any]:
        """The log event recording this move made with ``die``."""
        ev: dict[str, Any] = {"colour": self.colour, "die": die, "move": self.as_list()}
        if self.pawn_colour != self.colour:
            ev["pawn_colour"] = self.pawn_colour
        if self.huff is not None:
            ev["huff"] = self.huff
        return ev

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "pawn_colour": self.pawn_colour,
            "from": self.from_,
            "to": self.to,
            "captures": self.captures,
            "huff": self.huff,
        }

    def __str__(self) -> str:
        text = f"{show_position(self.from_)}→{self.to}"
        if self.pawn_colour != self.colour:
            text = f"{self.pawn_colour} {text}"
        return text
