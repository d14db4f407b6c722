"""Allied colours and colour assignment (``rules.md`` §1, ``tournament.md``).

A board is a tuple of colours in clockwise seat order (:mod:`.boards`).

- **side by side** (2T, 2T+, 3T, 3T+): a player's two colours are neighbours. The
  **rearguard** is the colour whose next seat clockwise is its ally; the ally is the
  **vanguard** (board 4: red+black → red, green+red → green).
- **opposite** (GP): a player's two colours face each other (board 4: red+yellow,
  black+green; board 6: red+green, black+blue, yellow+white).
- **single** (open tournaments): one colour per player.

Pairs are returned in a canonical order: ``(rearguard, vanguard)`` for side-by-side
pairs, the colour nearer the board's first seat first for opposite pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Literal

from tournaments.algorithms.boards import BOARD_4, Colour, check_board
from tournaments.algorithms.errors import ColourError

PlayerId = Hashable
Layout = Literal["side-by-side", "opposite", "single"]
Policy = Literal["first-mentioned-keeps"]
Unit = tuple[Colour, ...]
"""What a player holds: a pair of allied colours, or one colour (``single``)."""

LAYOUTS: tuple[str, ...] = ("side-by-side", "opposite", "single")
POLICIES: tuple[str, ...] = ("first-mentioned-keeps",)


def side_by_side_pairs(
    board_colours: Sequence[Colour] = BOARD_4,
) -> tuple[tuple[Colour, Colour], ...]:
    """Every pair of neighbouring colours, as ``(rearguard, vanguard)``, clockwise.

    Board 4: (red, black), (black, yellow), (yellow, green), (green, red).
    """
    colours = check_board(board_colours)
    if len(colours) < 3:
        raise ColourError("side-by-side allied colours need a board of at least three colours")
    return tuple((colours[i], colours[(i + 1) % len(colours)]) for i in range(len(colours)))


def opposite_pairs(board_colours: Sequence[Colour] = BOARD_4) -> tuple[tuple[Colour, Colour], ...]:
    """The pairs of facing colours (GP). Board 4: (red, yellow), (black, green)."""
    colours = check_board(board_colours)
    if len(colours) % 2:
        raise ColourError(
            f"opposite allied colours need an even number of colours, the board has {len(colours)}"
        )
    half = len(colours) // 2
    return tuple((colours[i], colours[i + half]) for i in range(half))


def allied_units(board_colours: Sequence[Colour], layout: str) -> tuple[Unit, ...]:
    """What a player may hold under ``layout``: allied pairs, or single colours."""
    if layout == "side-by-side":
        return side_by_side_pairs(board_colours)
    if layout == "opposite":
        return opposite_pairs(board_colours)
    if layout == "single":
        return tuple((colour,) for colour in check_board(board_colours))
    raise ColourError(f"unknown colour layout {layout!r}; use one of {', '.join(LAYOUTS)}")


def _as_colours(value: object) -> tuple[Colour, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(value)
    raise ColourError(f"expected a colour or a pair of colours, got {value!r}")


def normalise(
    colours: str | Iterable[Colour], board_colours: Sequence[Colour], layout: str
) -> Unit:
    """``colours`` (a colour or a pair, any order) as the canonical unit of ``layout``.

    Raises :class:`ColourError` if it is not such a unit on this board.
    """
    board = check_board(board_colours)
    given = _as_colours(colours)
    for colour in given:
        if colour not in board:
            raise ColourError(f"{colour!r} is not a colour of this board ({', '.join(board)})")
    for unit in allied_units(board, layout):
        if len(unit) == len(given) and set(unit) == set(given):
            return unit
    what = {
        "side-by-side": "a pair of neighbouring colours",
        "opposite": "a pair of opposite colours",
        "single": "a single colour",
    }[layout]
    raise ColourError(f"{' + '.join(given)} is not {what} on this board")


def rearguard(pair: Iterable[Colour], board_colours: Sequence[Colour] = BOARD_4) -> Colour:
    """The colour of a side-by-side pair whose next seat clockwise is its ally.

    ``rearguard(("green", "red"))`` → ``"green"``; ``rearguard(("black", "red"))`` →
    ``"red"``. Opposite (GP) pairs have no rearguard: :class:`ColourError`.
    """
    return normalise(pair, board_colours, "side-by-side")[0]


def vanguard(pair: Iterable[Colour], board_colours: Sequence[Colour] = BOARD_4) -> Colour:
    """The ally of the rearguard: ``vanguard(("green", "red"))`` → ``"red"``."""
    return normalise(pair, board_colours, "side-by-side")[1]


def _seatable(units: Sequence[Unit], taken: frozenset[Colour], players: int) -> bool:
    """Can ``players`` more players each get a unit disjoint from ``taken`` and each other?"""
    if players == 0:
        return True
    for index, unit in enumerate(units):
        if taken.isdisjoint(unit) and _seatable(units[index + 1 :], taken | set(unit), players - 1):
            return True
    return False


def assign_colours(
    players: Sequence[PlayerId],
    preferences: Mapping[PlayerId, str | Iterable[Colour] | None] | None = None,
    board_colours: Sequence[Colour] = BOARD_4,
    layout: Layout | str = "side-by-side",
    policy: Policy | str = "first-mentioned-keeps",
) -> dict[PlayerId, Unit]:
    """Give each player at the board their colours; colours never clash.

    ``players`` are in at-board order. ``preferences`` maps a player to a preferred
    pair (``layout`` ``"side-by-side"`` or ``"opposite"``) or colour (``"single"``);
    players without a preference, and preferences of players not at the board, are
    fine (the latter are ignored).

    Policy ``"first-mentioned-keeps"`` *(platform rule)*: players are served in at-board
    order. A player keeps their preference if it is still free **and** the players
    after them can still be seated; otherwise they take the free unit that keeps the
    rest seatable, sharing the most colours with their preference, the first such
    unit clockwise from the board's first colour on a tie. The first mentioned player
    therefore always keeps their preference. Consequences: two players on board 4 side
    by side hold complementary pairs; three on board 6 side by side hold the partition
    fixed by the first player's pair.

    Returns ``player → unit`` in at-board order (units canonical, see module doc).
    Raises :class:`ColourError` for unknown colours, preferences that are not a unit
    of the layout, duplicate players, too many players for the board, unknown layouts
    or policies.
    """
    if policy not in POLICIES:
        raise ColourError(f"unknown colour policy {policy!r}; use one of {', '.join(POLICIES)}")
    board = check_board(board_colours)
    units = allied_units(board, layout)
    if isinstance(players, str | bytes):
        raise ColourError("players must be a sequence of ids, not a single string")
    seated = tuple(players)
    if not seated:
        raise ColourError("no players to assign colours to")
    if len(set(seated)) != len(seated):
        raise ColourError(f"a player is listed twice at the board: {seated!r}")
    if not _seatable(units, frozenset(), len(seated)):
        capacity = len(board) if layout == "single" else len(board) // 2
        raise ColourError(
            f"{len(seated)} players cannot share a board of {len(board)} colours "
            f"({layout}: at most {capacity} players)"
        )
    wanted: dict[PlayerId, Unit | None] = {}
    for player in seated:
        preference = (preferences or {}).get(player)
        try:
            wanted[player] = None if preference is None else normalise(preference, board, layout)
        except ColourError as error:
            raise ColourError(f"preference of player {player!r}: {error}") from None

    taken: frozenset[Colour] = frozenset()
    result: dict[PlayerId, Unit] = {}
    for index, player in enumerate(seated):
        remaining = len(seated) - index - 1
        options = [
            unit
            for unit in units
            if taken.isdisjoint(unit) and _seatable(units, taken | set(unit), remaining)
        ]
        preference = wanted[player]
        if preference is not None and preference in options:
            chosen = preference
        else:
            liked = set(preference or ())
            chosen = min(options, key=lambda unit: -len(liked.intersection(unit)))
        result[player] = chosen
        taken = taken | set(chosen)
    return result


def owner_of(colour: Colour, assignment: Mapping[PlayerId, Iterable[Colour]]) -> PlayerId:
    """The player holding ``colour`` in ``assignment`` (:class:`ColourError` if none)."""
    for player, colours in assignment.items():
        if colour in tuple(colours):
            return player
    raise ColourError(f"nobody holds {colour!r}")


def colours_in_play(
    assignment: Mapping[PlayerId, Iterable[Colour]], board_colours: Sequence[Colour]
) -> tuple[Colour, ...]:
    """The assigned colours in clockwise seat order (validating that none clash)."""
    board = check_board(board_colours)
    held: dict[Colour, PlayerId] = {}
    for player, colours in assignment.items():
        for colour in colours:
            if colour not in board:
                raise ColourError(f"{colour!r} is not a colour of this board")
            if colour in held:
                raise ColourError(f"{colour!r} is held by both {held[colour]!r} and {player!r}")
            held[colour] = player
    return tuple(colour for colour in board if colour in held)
