"""Boards, seats and coordinates (rules.md §1).

A pawn's position is always written *relative to its own colour*:

* ``"B"`` — in the yard (internally ``YARD == -1``);
* ``0 … T-1`` — on the track, ``p`` fields past its own start field A;
* ``T … T+3`` — the goal fields a, b, c, d of its house.

Seats are numbered clockwise from 0; seat ``s`` starts on absolute track field
``spacing · s``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

YARD = -1
"""Internal code of the yard position (written ``"B"`` in logs)."""

YARD_NAME = "B"
HOUSE_LETTERS = "abcd"
HOUSE_FIELDS = len(HOUSE_LETTERS)
"""Goal fields per colour (a b c d): relative positions ``T … T + HOUSE_FIELDS - 1``."""
PAWNS_PER_COLOUR = 4


@dataclass(frozen=True)
class Board:
    """One of the two boards: its seats, default colour names and track geometry."""

    size: int
    colours: tuple[str, ...]
    track_length: int
    spacing: int

    @property
    def seats(self) -> int:
        return len(self.colours)

    @property
    def last_field(self) -> int:
        """Highest relative position (goal field d)."""
        return self.track_length + HOUSE_FIELDS - 1

    def start_field(self, seat: int) -> int:
        """Absolute track field of the start field A of ``seat``."""
        return self.spacing * seat

    def absolute(self, seat: int, pos: int) -> int:
        """Absolute track field of the relative track position ``pos`` (0 … T-1)."""
        if not 0 <= pos < self.track_length:
            raise ValueError(f"{pos!r} is not a track position on board {self.size}")
        return (self.spacing * seat + pos) % self.track_length

    def relative(self, seat: int, field: int) -> int:
        """Relative position, for ``seat``, of the absolute track field ``field``."""
        if not 0 <= field < self.track_length:
            raise ValueError(f"{field!r} is not a track field on board {self.size}")
        return (field - self.spacing * seat) % self.track_length


BOARDS: dict[int, Board] = {
    4: Board(4, ("red", "black", "yellow", "green"), 40, 10),
    6: Board(6, ("red", "black", "yellow", "green", "blue", "white"), 48, 8),
}
DEFAULT_COLOURS: dict[int, tuple[str, ...]] = {size: b.colours for size, b in BOARDS.items()}
"""Board size → default colour names in clockwise seat order (used by the platform too)."""


def seat_colours(board: int, colours: Iterable[str] | None = None) -> list[str]:
    """A log's colours in seat order: its ``colours`` header, else the board's defaults."""
    return list(colours or DEFAULT_COLOURS[board])


def get_board(size: int | Board) -> Board:
    """The :class:`Board` of that size (4 or 6)."""
    if isinstance(size, Board):
        return size
    if isinstance(size, bool) or size not in BOARDS:
        raise ValueError(f"board must be 4 or 6, not {size!r}")
    return BOARDS[size]


# --- positions -----------------------------------------------------------------


def parse_position(value: object, board: Board) -> int:
    """Internal code of a position written in a log (``"B"`` or an int); ``ValueError`` if bad."""
    if value == YARD_NAME and isinstance(value, str):
        return YARD
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= board.last_field:
        return value
    raise ValueError(f"{value!r} is not a position on this board (B or 0–{board.last_field})")


def position_name(pos: int) -> int | str:
    """The log's spelling of an internal position: ``"B"`` for the yard, else the number."""
    return YARD_NAME if pos < 0 else pos


def track_field(board: int | Board, seat: int, pos: int | str) -> int | None:
    """Absolute track field of a relative position, or ``None`` in the yard or the house.

    Meant for drawing: the replay viewer places track pawns by absolute field and
    yard/house pawns next to their seat.
    """
    b = get_board(board)
    p = parse_position(pos, b)
    if p < 0 or p >= b.track_length:
        return None
    return b.absolute(seat, p)


def count_points(
    positions: Iterable[int | str] | Mapping[str, Iterable[int | str]], board: int | Board = 4
) -> int | dict[str, int]:
    """Count points (tournament.md): A = 10, each further field +1, house 75, yard 0.

    ``positions`` is one colour's pawn positions (returns an int) or a mapping
    colour → positions (returns a dict colour → points).
    """
    b = get_board(board)
    if isinstance(positions, Mapping):
        return {c: _count(ps, b) for c, ps in positions.items()}
    return _count(positions, b)


def _count(positions: Iterable[int | str], b: Board) -> int:
    total = 0
    for value in positions:
        p = parse_position(value, b)
        if p < 0:
            continue
        total += 75 if p >= b.track_length else 10 + p
    return total


# --- allied colours ------------------------------------------------------------


def _pair_seats(colours: Sequence[str], pair: Iterable[str]) -> tuple[int, int]:
    names = list(pair)
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"an allied pair is two different colours, not {names!r}")
    try:
        a, b = (list(colours).index(n) for n in names)
    except ValueError:
        raise ValueError(f"{names!r} are not both among the colours {list(colours)!r}") from None
    return a, b


def rearguard(colours: Sequence[str], pair: Iterable[str]) -> str:
    """The rearguard of two side-by-side allied colours (rules.md §1).

    ``colours`` is the board's colours in clockwise seat order; the rearguard is
    the colour whose next seat clockwise is its ally (board 4: green + red → green).
    Raises ``ValueError`` if the two colours do not sit side by side.
    """
    a, b = _pair_seats(colours, pair)
    n = len(colours)
    if (a + 1) % n == b:
        return colours[a]
    if (b + 1) % n == a:
        return colours[b]
    raise ValueError(f"{colours[a]} and {colours[b]} do not sit side by side")


def vanguard(colours: Sequence[str], pair: Iterable[str]) -> str:
    """The vanguard of two side-by-side allied colours: the rearguard's ally."""
    names = list(pair)
    rear = rearguard(colours, names)
    return names[1] if names[0] == rear else names[0]
