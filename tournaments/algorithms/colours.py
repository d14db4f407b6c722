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

``rearguard(board_colours, pair)`` and ``vanguard(board_colours, pair)`` are the
engine's (:mod:`games.engine.board`), re-exported here: one name, one meaning.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Literal

from games.engine.board import rearguard, vanguard
from tournaments.algorithms.boards import BOARD_4, Colour, check_board
from tournaments.algorithms.errors import ColourError

PlayerId = Hashable
Layout = Literal["side-by-side", "opposite", "single"]
Policy = Literal["first-mentioned-keeps"]
Unit = tuple[Colour, ...]
"""What a player holds: a pair of allied colours, or one colour (``single``)."""

__all__ = [
    "LAYOUTS",
    "POLICIES",
    "allied_units",
    "assign_colours",
    "assigned_colours",
    "kept_preferences",
    "normalise",
    "opposite_pairs",
    "owner_of",
    "rearguard",
    "side_by_side_pairs",
    "vanguard",
]

LAYOUTS: tuple[str, ...] = ("side-by-side", "opposite", "single")
POLICIES: tuple[str, ...] = ("first-mentioned-keeps",)
#: layout → the error code of colours that are not one of its units
NOT_A_UNIT = {
    "side-by-side": "colours_not_neighbours",
    "opposite": "colours_not_opposite",
    "single": "colours_not_single",
}


def side_by_side_pairs(
    board_colours: Sequence[Colour] = BOARD_4,
) -> tuple[tuple[Colour, Colour], ...]:
    """Every pair of neighbouring colours, as ``(rearguard, vanguard)``, clockwise.

    Board 4: (red, black), (black, yellow), (yellow, green), (green, red).
    """
    colours = check_board(board_colours)
    if len(colours) < 3:
        raise ColourError("side_by_side_three")
    return tuple((colours[i], colours[(i + 1) % len(colours)]) for i in range(len(colours)))


def opposite_pairs(board_colours: Sequence[Colour] = BOARD_4) -> tuple[tuple[Colour, Colour], ...]:
    """The pairs of facing colours (GP). Board 4: (red, yellow), (black, green)."""
    colours = check_board(board_colours)
    if len(colours) % 2:
        raise ColourError("opposite_even", count=len(colours))
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
    raise ColourError("layout_unknown", given=repr(layout), known=", ".join(LAYOUTS))


def _as_colours(value: object) -> tuple[Colour, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(value)
    raise ColourError("colour_or_pair", given=repr(value))


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
            raise ColourError("colour_not_on_board", colour=repr(colour), board=", ".join(board))
    unit = next((u for u in allied_units(board, layout) if _same_colours(u, given)), None)
    if unit is None:
        raise ColourError(NOT_A_UNIT[layout], colours=" + ".join(given))
    return unit


def _same_colours(unit: Unit, given: tuple[Colour, ...]) -> bool:
    return len(unit) == len(given) and set(unit) == set(given)


def _seatable(units: Sequence[Unit], taken: frozenset[Colour], players: int) -> bool:
    """Can ``players`` more players each get a unit disjoint from ``taken`` and each other?"""
    if players == 0:
        return True
    for index, unit in enumerate(units):
        if taken.isdisjoint(unit) and _seatable(units[index + 1 :], taken | set(unit), players - 1):
            return True
    return False


def _compatible(kept: Sequence[Unit], units: Sequence[Unit], others: int) -> bool:
    """Can the players in ``kept`` all hold their units while ``others`` more are seated?"""
    taken: set[Colour] = set()
    for unit in kept:
        if not taken.isdisjoint(unit):
            return False
        taken |= set(unit)
    return _seatable(units, frozenset(taken), others)


def kept_preferences(
    seated: Sequence[PlayerId],
    wanted: Mapping[PlayerId, Unit | None],
    units: Sequence[Unit],
) -> frozenset[PlayerId]:
    """Who keeps their preferred unit under ``"first-mentioned-keeps"``.

    Players with a preference are taken in at-board order; each keeps it if it can be
    held together with the preferences kept before them while everybody is seated.
    So a preference is lost only to an earlier player's kept preference (a real clash)
    or because with it the board could not seat everybody; never to a player without a
    preference, and never to a player who was moved themselves.
    """
    kept: list[PlayerId] = []
    for player in seated:
        preference = wanted.get(player)
        if preference is None:
            continue
        trial = [*kept, player]
        if _compatible([wanted[p] for p in trial], units, len(seated) - len(trial)):  # type: ignore[misc]
            kept.append(player)
    return frozenset(kept)


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

    Policy ``"first-mentioned-keeps"`` *(platform rule)*, in three steps:

    1. **Who keeps** (:func:`kept_preferences`): in at-board order, a player keeps
       their preference unless an earlier player *keeps* a unit sharing a colour with
       it, or keeping it would leave the board unable to seat everybody. Players
       without a preference never take a unit away from anybody.
    2. **Moved players** (their preference clashed), in at-board order, take "the
       remaining pair": of the units still free that no keeper holds and that leave
       the rest seatable, the one sharing the most colours with their preference; on
       a tie the first in the board's clockwise order from its first colour.
    3. **Players without a preference**, in at-board order, take the first such unit
       clockwise.

    So the first mentioned player with a preference always keeps it, and a clash
    moves only the player who clashed: later players whose preference is still free
    keep theirs (no ripple). Two players on board 4 side by side hold complementary
    pairs; three on board 6 side by side hold the partition fixed by the first
    preference kept.

    Returns ``player → unit`` in at-board order (units canonical, see module doc).
    Raises :class:`ColourError` for unknown colours, preferences that are not a unit
    of the layout, duplicate players, too many players for the board, unknown layouts
    or policies.
    """
    if policy not in POLICIES:
        raise ColourError("policy_unknown", given=repr(policy), known=", ".join(POLICIES))
    board = check_board(board_colours)
    units = allied_units(board, layout)
    seated = _seated(players)
    if not _seatable(units, frozenset(), len(seated)):
        raise _too_many(len(seated), board, layout)
    return _first_mentioned_keeps(
        seated, _wanted_units(seated, preferences or {}, board, layout), units
    )


def _first_mentioned_keeps(
    seated: tuple[PlayerId, ...], wanted: Mapping[PlayerId, Unit | None], units: Sequence[Unit]
) -> dict[PlayerId, Unit]:
    """The policy's three steps: the keepers hold their units, then the moved players and
    those without a preference take remaining ones (see :func:`assign_colours`)."""
    keepers = kept_preferences(seated, wanted, units)
    result: dict[PlayerId, Unit] = {p: wanted[p] for p in seated if p in keepers}  # type: ignore[misc]
    for player in _choosing_order(seated, keepers, wanted):
        result[player] = _remaining_unit(units, result, len(seated), wanted[player])
    return {player: result[player] for player in seated}


def _choosing_order(
    seated: Sequence[PlayerId], keepers: frozenset[PlayerId], wanted: Mapping[PlayerId, Unit | None]
) -> list[PlayerId]:
    """Who takes a remaining unit, in turn: the moved players (their preference
    clashed), then the players without a preference, each in at-board order."""
    moved = [p for p in seated if p not in keepers and wanted[p] is not None]
    return [*moved, *(p for p in seated if wanted[p] is None)]


def _too_many(count: int, board: tuple[Colour, ...], layout: str) -> ColourError:
    """``count`` players do not fit the board: a player holds one colour, or a pair."""
    capacity = len(board) if layout == "single" else len(board) // 2
    return ColourError(
        "board_too_small", count=count, colours=len(board), layout=layout, most=capacity
    )


def _seated(players: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """The players at the board: a sequence of at least one, nobody twice."""
    if isinstance(players, str | bytes):
        raise ColourError("players_one_string")
    seated = tuple(players)
    if not seated:
        raise ColourError("colours_nobody")
    if len(set(seated)) != len(seated):
        raise ColourError("player_twice_at_board", players=repr(seated))
    return seated


def _wanted_units(
    seated: Sequence[PlayerId],
    preferences: Mapping[PlayerId, str | Iterable[Colour] | None],
    board: Sequence[Colour],
    layout: str,
) -> dict[PlayerId, Unit | None]:
    """Each seated player's preference as a unit of ``layout`` (None: no preference)."""
    wanted: dict[PlayerId, Unit | None] = {}
    for player in seated:
        preference = preferences.get(player)
        try:
            wanted[player] = None if preference is None else normalise(preference, board, layout)
        except ColourError as error:
            raise ColourError("preference_of", player=repr(player), why=error) from None
    return wanted


def _remaining_unit(
    units: Sequence[Unit], given: Mapping[PlayerId, Unit], seated: int, liked: Unit | None
) -> Unit:
    """Of the units still free that leave the rest seatable, the one sharing the most
    colours with ``liked`` (on a tie the first in the board's order)."""
    taken = frozenset(c for unit in given.values() for c in unit)
    options = _free_units(units, taken, seated - len(given) - 1)
    wish = set(liked or ())
    return min(options, key=lambda unit: -len(wish.intersection(unit)))


def _free_units(units: Sequence[Unit], taken: frozenset[Colour], others: int) -> list[Unit]:
    """The units clear of ``taken`` that still leave ``others`` more players seatable."""
    return [u for u in units if taken.isdisjoint(u) and _seatable(units, taken | set(u), others)]


def owner_of(colour: Colour, assignment: Mapping[PlayerId, Iterable[Colour]]) -> PlayerId:
    """The player holding ``colour`` in ``assignment`` (:class:`ColourError` if none)."""
    for player, colours in assignment.items():
        if colour in tuple(colours):
            return player
    raise ColourError("colour_unheld", colour=repr(colour))


def assigned_colours(
    assignment: Mapping[PlayerId, Iterable[Colour]], board_colours: Sequence[Colour]
) -> tuple[Colour, ...]:
    """The colours somebody holds in ``assignment``, in clockwise seat order.

    Validates that every colour is on the board and none is held twice. (Not the
    engine's ``colours_in_play``, which names the colours that take turns in a game
    under a rule set.)
    """
    board = check_board(board_colours)
    held: dict[Colour, PlayerId] = {}
    for player, colours in assignment.items():
        for colour in colours:
            _check_free(colour, player, board, held)
            held[colour] = player
    return tuple(colour for colour in board if colour in held)


def _check_free(
    colour: Colour, player: PlayerId, board: tuple[Colour, ...], held: Mapping[Colour, PlayerId]
) -> None:
    """``colour`` is on the board and nobody before ``player`` holds it."""
    if colour not in board:
        raise ColourError("colour_not_here", colour=repr(colour))
    if colour in held:
        raise ColourError(
            "colour_held_twice", colour=repr(colour), one=repr(held[colour]), other=repr(player)
        )
