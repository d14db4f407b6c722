"""Grand Prix: seating two or three players on opposite pairs, and when the GP is decided.

A Grand Prix (``tournament.md``, "Grand Prix") is a set number of games by the same
players, two colours each sitting opposite (board 4: two players; board 6: two or
three). Every colour's finishing place scores GP points (10/6/4/3/2/1) plus a bonus to
the first player(s) to finish both colours (GP: 2; GP+: 4/2/1). There are no
tie-breaks: while the top is tied extra games are added, and the games left are
cancelled once the winner is certain.

:func:`grand_prix_status` decides both from the current points and the games left,
exactly: a chaser can gain at most :func:`max_gain_per_game` on the leader in one game
(worked out over every possible finishing order), and the winner is certain when no
chaser can reach the leader's points even by gaining that much in every game left
(reaching a tie counts as reaching: it would mean extra games).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.algorithms.boards import BOARD_6, Colour, check_board
from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.colours import assign_colours
from tournaments.algorithms.errors import GrandPrixError
from tournaments.algorithms.standings import GP_BONUS, GP_PLACE_POINTS, GP_PLUS_BONUS

PlayerId = Hashable

#: The bonus schemes by format.
BONUS: Mapping[str, tuple[int, ...]] = {"GP": GP_BONUS, "GP+": GP_PLUS_BONUS}


def grand_prix_seating(
    players: Sequence[PlayerId],
    preferences: Mapping[PlayerId, Iterable[Colour] | None] | None = None,
    board_colours: Sequence[Colour] = BOARD_6,
) -> dict[PlayerId, tuple[Colour, ...]]:
    """Give two or three GP players (at-board order) an opposite pair each.

    Board 6: red+green, black+blue, yellow+white; board 4 (two players): red+yellow,
    black+green. Preferences follow the clash rule of
    :func:`.colours.assign_colours`. Raises :class:`GrandPrixError` for fewer than two
    players or more than the board seats.
    """
    board = check_board(board_colours)
    seated = tuple(players)
    capacity = len(board) // 2
    if not 2 <= len(seated) <= capacity:
        raise GrandPrixError("gp_seats", colours=len(board), most=capacity, count=len(seated))
    return assign_colours(seated, preferences, board, "opposite")


def game_points(
    order: Sequence[PlayerId],
    place_points: Sequence[int] = GP_PLACE_POINTS,
    bonus: Sequence[int] = GP_BONUS,
    colours_per_player: int = 2,
) -> dict[PlayerId, int]:
    """GP points of one complete game from its finishing order.

    ``order`` names the owner of the colour at each place (a player once per colour).
    The i-th player to have all ``colours_per_player`` colours home gets ``bonus[i]``.
    """
    points: dict[PlayerId, int] = dict.fromkeys(order, 0)
    home: dict[PlayerId, int] = dict.fromkeys(order, 0)
    completed = 0
    for place, player in enumerate(order):
        points[player] += place_points[place] if place < len(place_points) else 0
        home[player] += 1
        if home[player] == colours_per_player:
            if completed < len(bonus):
                points[player] += bonus[completed]
            completed += 1
    return points


@functools.lru_cache(maxsize=64)
def _max_gain(
    players: int, colours_per_player: int, place_points: tuple[int, ...], bonus: tuple[int, ...]
) -> int:
    slots = [p for p in range(players) for _ in range(colours_per_player)]
    orders = set(itertools.permutations(slots))  # every finishing order of the colours
    return max(_gain(order, place_points, bonus, colours_per_player) for order in orders)


def _gain(
    order: tuple[int, ...], place_points: tuple[int, ...], bonus: tuple[int, ...], colours: int
) -> int:
    """What player 0 (the chaser) gains on player 1 (the leader) in a game finished in
    ``order``."""
    points = game_points(order, place_points, bonus, colours)
    return points[0] - points[1]


def max_gain_per_game(
    players: int,
    *,
    place_points: Sequence[int] = GP_PLACE_POINTS,
    bonus: Sequence[int] = GP_BONUS,
) -> int:
    """The most points one player can gain on another in one game.

    Three players × two colours (GP): places 1 and 2 plus the bonus, 10 + 6 + 2 = 18,
    against places 5 and 6, 2 + 1 = 3: 15. Two players on board 4: 18 − (4 + 3) = 11.
    """
    if not is_whole(players) or not 2 <= players <= 3:
        raise GrandPrixError("gp_game_players", given=repr(players))
    return _max_gain(players, 2, tuple(place_points), tuple(bonus))


@dataclass(frozen=True)
class GrandPrixStatus:
    """Where a Grand Prix stands.

    - ``leaders`` — the players with the most points (more than one: the top is tied).
    - ``winner`` — the certain winner, or ``None``.
    - ``cancel_games`` — how many of the games left can be cancelled (all of them once
      the winner is certain, else 0).
    - ``extra_game_needed`` — no games are left and the top is tied: add a game.
    - ``chasers`` — the players who can still reach the leader's points.
    """

    leaders: tuple[PlayerId, ...]
    winner: PlayerId | None
    cancel_games: int
    extra_game_needed: bool
    chasers: tuple[PlayerId, ...]


def _check_table(points: Mapping[PlayerId, int], games_left: int, fmt: str) -> None:
    if fmt not in BONUS:
        raise GrandPrixError("gp_format_unknown", given=repr(fmt))
    if not is_whole(games_left, at_least=0):
        raise GrandPrixError("gp_games_left", given=repr(games_left))
    if not 2 <= len(points) <= 3:
        raise GrandPrixError("gp_table_players", count=len(points))
    for player, value in points.items():
        if not is_whole(value, at_least=0):
            raise GrandPrixError("gp_points", player=repr(player))


def grand_prix_status(
    points: Mapping[PlayerId, int],
    games_left: int,
    *,
    fmt: str = "GP",
    place_points: Sequence[int] = GP_PLACE_POINTS,
    bonus: Sequence[int] | None = None,
) -> GrandPrixStatus:
    """Decide from the GP table (``player → points``, every player playing every game
    left) whether the winner is certain and whether an extra game is needed.

    ``fmt`` ``"GP"`` or ``"GP+"`` picks the bonus (or give ``bonus``). A player is a
    chaser while ``their points + games_left × max_gain_per_game ≥ the leader's``.
    """
    _check_table(points, games_left, fmt)
    gain = max_gain_per_game(
        len(points),
        place_points=place_points,
        bonus=BONUS[fmt] if bonus is None else bonus,
    )
    leaders, chasers = _leaders_and_chasers(points, games_left * gain)
    return _status(leaders, chasers, games_left)


def _leaders_and_chasers(
    points: Mapping[PlayerId, int], reach: int
) -> tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]:
    """Who has the most points, and who can still reach them (gaining ``reach``)."""
    top = max(points.values())
    leaders = tuple(p for p, v in points.items() if v == top)
    chasers = tuple(p for p, v in points.items() if p not in leaders and v + reach >= top)
    return leaders, chasers


def _status(
    leaders: tuple[PlayerId, ...], chasers: tuple[PlayerId, ...], games_left: int
) -> GrandPrixStatus:
    """The winner is certain with one leader and nobody able to reach them; with no game
    left and the top tied, an extra game is needed."""
    certain = len(leaders) == 1 and not chasers
    return GrandPrixStatus(
        leaders=leaders,
        winner=leaders[0] if certain else None,
        cancel_games=games_left if certain else 0,
        extra_game_needed=games_left == 0 and len(leaders) > 1,
        chasers=chasers,
    )
