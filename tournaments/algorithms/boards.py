"""Default boards: colours in clockwise seat order (``rules.md`` §1)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms.errors import ColourError

Colour = str
BoardColours = tuple[Colour, ...]

#: The engine's boards are the one source of the colour names (engine ← tournaments).
DEFAULT_BOARDS: dict[int, BoardColours] = dict(DEFAULT_COLOURS)
BOARD_4: BoardColours = DEFAULT_BOARDS[4]
BOARD_6: BoardColours = DEFAULT_BOARDS[6]


def default_colours(board: int) -> BoardColours:
    """The default colours of board ``4`` or ``6``, clockwise."""
    try:
        return DEFAULT_BOARDS[board]
    except KeyError:
        raise ColourError("board_unknown", board=repr(board)) from None


def check_board(board_colours: Sequence[Colour]) -> BoardColours:
    """Validate a board's colour tuple (at least two distinct, non-empty strings)."""
    colours = tuple(board_colours)
    if isinstance(board_colours, str):
        raise ColourError("board_one_string")
    if len(colours) < 2:
        raise ColourError("board_too_few", count=len(colours))
    for colour in colours:
        if not isinstance(colour, str) or not colour:
            raise ColourError("board_colour_empty", colour=repr(colour))
    if len(set(colours)) != len(colours):
        raise ColourError("board_colours_twice", colours=repr(colours))
    return colours
