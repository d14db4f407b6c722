"""Open tournaments: table draws each round, placing unfinished games, the final table.

Open four-player tournaments (``tournament.md``, "Open tournaments"): every round the
players are drawn to tables of 3–4, colours are redrawn, placement points are scored
per game, and after the preliminary rounds the best four play a final table.

**The draw** is a cost-minimising assignment in the spirit of Tabbycat's draw
generators, in two steps:

1. *Tables.* The players are split into tables (sizes from :func:`table_sizes`)
   minimising Σ over the pairs sitting together of ``4 ** earlier_meetings − 1``: a
   new pair costs nothing, a second meeting 3, a third 15, so repeats come last and
   third meetings after second ones. A seeded random start improved by swapping
   players between tables until no swap helps, repeated from several starts.
2. *Seats and colours.* At each table the at-board positions (the order the players
   are named in, which is the seat order of :class:`Table`) and the colours are each
   given by an exact assignment over all permutations: every player takes the
   position, and the colour, they have had least often so far (sum of earlier uses
   minimised). Colours at a table are always distinct.

Ties between equally good draws are broken by the seeded random generator, so the
draw is random where the history does not decide, and reproducible from its seed.
:func:`lottery_round` is the pure lottery used as a baseline, and
:func:`draw_quality` measures a tournament's draws: repeat pairings per player and
the spread of colours and positions per player.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.algorithms.boards import BOARD_4, Colour, check_board
from tournaments.algorithms.checks import is_whole, repeated
from tournaments.algorithms.errors import DrawError, StandingsError
from tournaments.algorithms.standings import (
    OPEN_PRECEDENCE,
    GameOutcome,
    PlacementPoints,
    StandingsRow,
    TieBreakRoll,
    compute_standings,
    order_by_rolls,
)

PlayerId = Hashable

#: Common placement schemes: German club practice 5/3/1/0, and 5/3/2/1.
PLACEMENT_SCHEMES: Mapping[str, tuple[int, ...]] = {
    "5-3-1-0": (5, 3, 1, 0),
    "5-3-2-1": (5, 3, 2, 1),
}


# --------------------------------------------------------------------------------------
# Tables


@dataclass(frozen=True)
class Seat:
    """One player at a table and the colour they play."""

    player: PlayerId
    colour: Colour


@dataclass(frozen=True)
class Table:
    """A table of one round; ``seats`` in at-board order (position 0 is named first)."""

    number: int
    seats: tuple[Seat, ...]

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(seat.player for seat in self.seats)

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(seat.colour for seat in self.seats)


@dataclass(frozen=True)
class RoundDraw:
    """The tables of one round (numbered from 1)."""

    number: int
    tables: tuple[Table, ...]

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(p for table in self.tables for p in table.players)

    def table_of(self, player: PlayerId) -> Table:
        for table in self.tables:
            if player in table.players:
                return table
        raise DrawError("draw_player_missing", player=repr(player), round=self.number)


def table_sizes(count: int, min_size: int = 3, max_size: int = 4) -> tuple[int, ...]:
    """How ``count`` players split into tables of ``min_size``–``max_size``.

    *(platform rule)* As few tables as possible (so as many full tables as possible),
    larger tables first: 12 → 4, 4, 4; 13 → 4, 3, 3, 3; 7 → 4, 3. Raises
    :class:`DrawError` when no split exists (with 3–4: 1, 2 and 5 players).
    """
    _check_table_range(count, min_size, max_size)
    for tables in range(-(-count // max_size), count // min_size + 1):
        # the fewest tables that can hold everybody
        if sizes := _even_split(count, tables, min_size, max_size):
            return sizes
    raise DrawError(
        "table_sizes_impossible",
        count=count,
        low=min_size,
        high=max_size,
        possible=", ".join(str(n) for n in _possible_counts(min_size, max_size)),
    )


def _check_table_range(count: int, min_size: int, max_size: int) -> None:
    for name, value in (("count", count), ("min_size", min_size), ("max_size", max_size)):
        if not is_whole(value):
            raise DrawError("draw_whole_number", option=name, given=repr(value))
    if min_size < 2 or max_size < min_size:
        raise DrawError("table_size_range", low=min_size, high=max_size)
    if count < 1:
        raise DrawError("open_no_players", count=count)


def _even_split(count: int, tables: int, min_size: int, max_size: int) -> tuple[int, ...]:
    """``count`` players at ``tables`` tables as evenly as possible, larger tables first;
    empty when that breaks the size range."""
    base, extra = divmod(count, tables)
    if base < min_size or base + (extra > 0) > max_size:
        return ()
    return tuple([base + 1] * extra + [base] * (tables - extra))


def _possible_counts(min_size: int, max_size: int) -> list[int]:
    found: list[int] = []
    n = 1
    while len(found) < 6:
        if any(min_size * t <= n <= max_size * t for t in range(1, n + 1)):
            found.append(n)
        n += 1
    return found


# --------------------------------------------------------------------------------------
# History


@dataclass(frozen=True)
class DrawHistory:
    """What earlier rounds did: meetings per pair, positions and colours per player."""

    meetings: Mapping[frozenset[PlayerId], int]
    positions: Mapping[PlayerId, Counter[int]]
    colours: Mapping[PlayerId, Counter[Colour]]
    rounds: int

    @classmethod
    def of(cls, rounds: Iterable[RoundDraw]) -> DrawHistory:
        meetings: Counter[frozenset[PlayerId]] = Counter()
        positions: dict[PlayerId, Counter[int]] = {}
        colours: dict[PlayerId, Counter[Colour]] = {}
        count = 0
        for draw in rounds:
            count += 1
            for table in draw.tables:
                for a, b in itertools.combinations(table.players, 2):
                    meetings[frozenset((a, b))] += 1
                for position, seat in enumerate(table.seats):
                    positions.setdefault(seat.player, Counter())[position] += 1
                    colours.setdefault(seat.player, Counter())[seat.colour] += 1
        return cls(meetings, positions, colours, count)

    def met(self, a: PlayerId, b: PlayerId) -> int:
        return self.meetings.get(frozenset((a, b)), 0)


def _check_players(players: Iterable[PlayerId]) -> tuple[PlayerId, ...]:
    if isinstance(players, str | bytes):
        raise DrawError("players_one_string")
    group = tuple(players)
    for player in repeated(group):
        raise DrawError("player_twice", player=repr(player))
    return group


# --------------------------------------------------------------------------------------
# The draw


def _pair_cost(history: DrawHistory, a: PlayerId, b: PlayerId) -> int:
    return 4 ** history.met(a, b) - 1


def _table_cost(history: DrawHistory, members: Sequence[PlayerId]) -> int:
    return sum(_pair_cost(history, a, b) for a, b in itertools.combinations(members, 2))


def _improve(tables: list[list[PlayerId]], history: DrawHistory, rng: random.Random) -> int:
    """Swap players between tables while a swap lowers the cost; return the cost."""
    improved = True
    while improved:
        improved = False
        order = _seats(tables)
        rng.shuffle(order)
        for (t1, i1), (t2, i2) in itertools.combinations(order, 2):
            if t1 != t2 and _swap_gain(history, tables[t1], i1, tables[t2], i2) > 0:
                tables[t1][i1], tables[t2][i2] = tables[t2][i2], tables[t1][i1]
                improved = True
    return sum(_table_cost(history, table) for table in tables)


def _seats(tables: list[list[PlayerId]]) -> list[tuple[int, int]]:
    """Every seat as (table index, index at the table)."""
    return [(t, i) for t, table in enumerate(tables) for i in range(len(table))]


def _swap_gain(
    history: DrawHistory, one: list[PlayerId], i: int, other: list[PlayerId], j: int
) -> int:
    """How much swapping ``one[i]`` and ``other[j]`` lowers the cost of the two tables."""
    a, b = one[i], other[j]
    rest1 = one[:i] + one[i + 1 :]
    rest2 = other[:j] + other[j + 1 :]
    before = _cost_with(history, a, rest1) + _cost_with(history, b, rest2)
    after = _cost_with(history, b, rest1) + _cost_with(history, a, rest2)
    return before - after


def _cost_with(history: DrawHistory, player: PlayerId, others: list[PlayerId]) -> int:
    return sum(_pair_cost(history, player, p) for p in others)


def _best_permutation(
    items: Sequence[object], cost: dict[tuple[int, int], int], slots: Sequence[object]
) -> tuple[object, ...]:
    """Assign ``len(items)`` distinct ``slots``: the cheapest, first in the given order."""
    choices = itertools.permutations(range(len(slots)), len(items))
    best = min(choices, key=lambda choice: sum(cost[i, s] for i, s in enumerate(choice)))
    return tuple(slots[s] for s in best)


def _seat_table(
    number: int,
    members: Sequence[PlayerId],
    history: DrawHistory,
    board: tuple[Colour, ...],
    rng: random.Random,
    keep_order: bool = False,
) -> Table:
    members = list(members)
    if keep_order:
        order: tuple[object, ...] = tuple(range(len(members)))
    else:
        rng.shuffle(members)  # equal costs: the lottery decides
        order = _positions(members, history)
    colours = list(board)
    rng.shuffle(colours)
    colour_cost = {
        (i, c): history.colours.get(p, Counter())[colour]
        for i, p in enumerate(members)
        for c, colour in enumerate(colours)
    }
    chosen = _best_permutation(members, colour_cost, colours)
    by_position = sorted(zip(order, members, chosen, strict=True), key=lambda row: row[0])
    return Table(number, tuple(Seat(p, str(c)) for _, p, c in by_position))


def _positions(members: list[PlayerId], history: DrawHistory) -> tuple[object, ...]:
    """Each member's at-board position: the positions they held least so far."""
    positions = list(range(len(members)))
    position_cost = {
        (i, s): history.positions.get(p, Counter())[s]
        for i, p in enumerate(members)
        for s in positions
    }
    return _best_permutation(members, position_cost, positions)


def draw_round(
    players: Iterable[PlayerId],
    history: Iterable[RoundDraw] = (),
    *,
    seed: int | str,
    board_colours: Sequence[Colour] = BOARD_4,
    min_size: int = 3,
    max_size: int = 4,
    restarts: int = 8,
) -> RoundDraw:
    """Draw the next round's tables, positions and colours (see the module doc).

    ``history`` are the earlier rounds (any players may have joined or left since).
    The same ``seed``, players and history give the same draw. Raises
    :class:`DrawError` for an impossible number of players, tables larger than the
    board, or duplicate players.
    """
    group = _check_players(players)
    board = check_board(board_colours)
    if max_size > len(board):
        raise DrawError("tables_too_large", size=max_size, colours=len(board))
    if not is_whole(restarts, at_least=1):
        raise DrawError("draw_restarts", given=repr(restarts))
    sizes = table_sizes(len(group), min_size, max_size)
    past = DrawHistory.of(history)
    rng = random.Random(f"open-draw:{seed}:{past.rounds + 1}")
    best = _best_tables(group, sizes, past, rng, restarts)
    return RoundDraw(
        past.rounds + 1,
        tuple(_seat_table(n, members, past, board, rng) for n, members in enumerate(best, 1)),
    )


def _best_tables(
    group: Sequence[PlayerId],
    sizes: Sequence[int],
    past: DrawHistory,
    rng: random.Random,
    restarts: int,
) -> list[list[PlayerId]]:
    """The cheapest of ``restarts`` improved random splits (the first without any
    repeated meeting ends the search)."""
    best: list[list[PlayerId]] = []
    best_cost = 0
    for _ in range(restarts):
        shuffled = list(group)
        rng.shuffle(shuffled)
        tables = _split(shuffled, sizes)
        cost = _improve(tables, past, rng)
        if not best or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    return best


def _split(players: list[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """``players`` cut into consecutive tables of ``sizes``."""
    starts = itertools.accumulate(sizes, initial=0)
    return [players[start : start + size] for start, size in zip(starts, sizes, strict=False)]


def lottery_round(
    players: Iterable[PlayerId],
    number: int,
    *,
    rng: random.Random,
    board_colours: Sequence[Colour] = BOARD_4,
    min_size: int = 3,
    max_size: int = 4,
) -> RoundDraw:
    """A pure lottery (the baseline): shuffled tables, positions and colours."""
    group = list(_check_players(players))
    board = list(check_board(board_colours))
    sizes = table_sizes(len(group), min_size, max_size)
    rng.shuffle(group)
    tables, start = [], 0
    for index, size in enumerate(sizes, start=1):
        colours = rng.sample(board, size)
        members = group[start : start + size]
        tables.append(
            Table(index, tuple(Seat(p, c) for p, c in zip(members, colours, strict=True)))
        )
        start += size
    return RoundDraw(number, tuple(tables))


def check_round(
    draw: RoundDraw,
    players: Iterable[PlayerId],
    board_colours: Sequence[Colour] = BOARD_4,
    min_size: int = 3,
    max_size: int = 4,
) -> None:
    """Raise :class:`DrawError` unless every player sits exactly once, every table has
    ``min_size``–``max_size`` players and no colour is played twice at a table."""
    group = _check_players(players)
    board = check_board(board_colours)
    _check_everyone_once(draw, group)
    for table in draw.tables:
        _check_table(draw.number, table, board, min_size, max_size)


def _check_everyone_once(draw: RoundDraw, group: tuple[PlayerId, ...]) -> None:
    drawn = Counter(draw.players)
    for player in group:
        if drawn[player] != 1:
            raise DrawError(
                "drawn_times", round=draw.number, player=repr(player), times=drawn[player]
            )
    extra = set(drawn) - set(group)
    if extra:
        raise DrawError(
            "drawn_not_playing", round=draw.number, players=str(sorted(map(repr, extra)))
        )


def _check_table(
    number: int, table: Table, board: tuple[Colour, ...], min_size: int, max_size: int
) -> None:
    """A drawn table: its size in range, each colour of the board at most once."""
    where = {"round": number, "table": table.number}
    if not min_size <= len(table.seats) <= max_size:
        raise DrawError(
            "drawn_table_size", count=len(table.seats), low=min_size, high=max_size, **where
        )
    if len(set(table.colours)) != len(table.colours):
        raise DrawError("drawn_colour_twice", **where)
    if not set(table.colours) <= set(board):
        raise DrawError("drawn_colour_unknown", **where)


@dataclass(frozen=True)
class DrawQuality:
    """How well a tournament's draws spread the players (averages over the players).

    - ``repeat_pairings`` — per player, Σ over opponents of (meetings − 1) for those
      met more than once; 0 when nobody met anybody twice.
    - ``colour_spread`` — per player, most-played minus least-played colour of the
      board (0 = perfectly even; with 5 rounds on board 4 at best 1).
    - ``position_spread`` — the same for the at-board positions 0 … ``max_size − 1``.
    - ``worst_repeats`` — the largest number of meetings of any one pair.
    """

    repeat_pairings: float
    colour_spread: float
    position_spread: float
    worst_repeats: int


def draw_quality(
    rounds: Sequence[RoundDraw],
    board_colours: Sequence[Colour] = BOARD_4,
    max_size: int = 4,
) -> DrawQuality:
    """Measure ``rounds`` (see :class:`DrawQuality`)."""
    board = check_board(board_colours)
    history = DrawHistory.of(rounds)
    players = sorted({p for draw in rounds for p in draw.players}, key=repr)
    if not players:
        raise DrawError("draw_no_rounds")
    repeats = _repeats(history, players)
    colour_spread = [_spread(history.colours[p], board) for p in players]
    position_spread = [_spread(history.positions[p], range(max_size)) for p in players]
    return DrawQuality(
        repeat_pairings=sum(repeats.values()) / len(players),
        colour_spread=sum(colour_spread) / len(players),
        position_spread=sum(position_spread) / len(players),
        worst_repeats=max(history.meetings.values(), default=0),
    )


def _repeats(history: DrawHistory, players: list[PlayerId]) -> dict[PlayerId, int]:
    """Per player, Σ over opponents of (meetings − 1) for those met more than once."""
    repeats = dict.fromkeys(players, 0)
    for pair, met in history.meetings.items():
        for player in pair:
            repeats[player] += max(0, met - 1)
    return repeats


def _spread(counts: Counter, keys: Iterable) -> int:
    """Most minus least counted of ``keys`` (a colour or position never held counts 0)."""
    values = [counts[key] for key in keys]
    return max(values) - min(values)


# --------------------------------------------------------------------------------------
# Placement points, unfinished games, the final table


def check_placement_scheme(scheme: Iterable[int]) -> tuple[int, ...]:
    """Validate placement points per place (e.g. 5/3/1/0, 5/3/2/1).

    Whole numbers ≥ 0, at least two places, never more points for a worse place.
    """
    if isinstance(scheme, str | bytes):
        raise DrawError("placement_list")
    points = tuple(scheme)
    if len(points) < 2:
        raise DrawError("placement_two", given=repr(list(points)))
    for value in points:
        if not is_whole(value, at_least=0):
            raise DrawError("placement_whole", given=repr(value))
    _check_never_more_for_worse(points)
    return points


def _check_never_more_for_worse(points: tuple[int, ...]) -> None:
    for place, (better, worse) in enumerate(itertools.pairwise(points), start=1):
        if worse > better:
            raise DrawError(
                "placement_order", worse_place=place + 1, worse=worse, place=place, better=better
            )


@dataclass(frozen=True)
class UnfinishedPlacing:
    """The placings of a game stopped by the time limit.

    ``placings`` are best first; ``open_ties`` lists groups of players still tied on
    count points with no (or no decisive) recorded die roll: the organizer must
    record one before the result can count.
    """

    placings: tuple[PlayerId, ...]
    open_ties: tuple[tuple[PlayerId, ...], ...]

    @property
    def complete(self) -> bool:
        return not self.open_ties


def place_unfinished_game(
    players: Sequence[PlayerId],
    count_points: Mapping[PlayerId, int],
    finished: Sequence[PlayerId] = (),
    tie_rolls: Sequence[TieBreakRoll | Iterable[Mapping[PlayerId, int]]] = (),
) -> UnfinishedPlacing:
    """Place a time-limited game (``tournament.md``: count points).

    Players who finished before the time limit (``finished``, in order) come first;
    the others by count points, higher first; players still tied go to a die roll the
    organizer records (``tie_rolls``: roll-offs, each by at least the tied players; the
    latest one by all of them decides, re-rolls included). Without one the tie is
    reported in ``open_ties`` (tied players keep the at-board order meanwhile).
    """
    seated = _check_players(players)
    done = _check_finished(seated, tuple(finished))
    rest = [p for p in seated if p not in done]
    blocks = _by_count_points(rest, count_points, tie_rolls)
    placings = (*done, *itertools.chain.from_iterable(blocks))
    return UnfinishedPlacing(placings, tuple(block for block in blocks if len(block) > 1))


def _by_count_points(
    rest: list[PlayerId],
    count_points: Mapping[PlayerId, int],
    tie_rolls: Sequence[TieBreakRoll | Iterable[Mapping[PlayerId, int]]],
) -> list[tuple[PlayerId, ...]]:
    """The players who did not finish as blocks, best first: by count points, then by
    the recorded die roll (a block of more than one is still tied)."""
    _check_count_points(rest, count_points)
    blocks: list[tuple[PlayerId, ...]] = []
    for value in sorted({count_points[p] for p in rest}, reverse=True):
        blocks.extend(_order_tied([p for p in rest if count_points[p] == value], tie_rolls))
    return blocks


def _check_count_points(rest: list[PlayerId], count_points: Mapping[PlayerId, int]) -> None:
    for player in rest:
        value = count_points.get(player)
        if not is_whole(value, at_least=0):
            raise DrawError("count_points_whole", player=repr(player), given=repr(value))


def _check_finished(seated: tuple[PlayerId, ...], done: tuple[PlayerId, ...]):
    """The players who finished, each once, all at this table."""
    for player in done:
        if player not in seated:
            raise DrawError("finished_not_here", player=repr(player))
    if len(set(done)) != len(done):
        raise DrawError("finished_twice", players=repr(list(done)))
    return done


def _order_tied(
    tied: list[PlayerId], tie_rolls: Sequence[TieBreakRoll | Iterable[Mapping[PlayerId, int]]]
) -> tuple[tuple[PlayerId, ...], ...]:
    """Players on equal count points as blocks, best first: by the recorded die roll
    (a block of more than one is still tied)."""
    if len(tied) == 1:
        return (tuple(tied),)
    try:
        return order_by_rolls(tied, tie_rolls)
    except StandingsError as error:
        raise DrawError(error.code, **error.params) from None


def open_precedence(scheme: Iterable[int] = (5, 3, 1, 0)) -> list[object]:
    """The open-tournament standings precedence with the given placement points:
    placement points → games won → die roll *(platform rule)*."""
    points = check_placement_scheme(scheme)
    return [PlacementPoints(scheme=points), *OPEN_PRECEDENCE[1:]]


def preliminary_ranking(
    players: Iterable[PlayerId],
    games: Iterable[GameOutcome],
    scheme: Iterable[int] = (5, 3, 1, 0),
    roll_offs: Sequence[TieBreakRoll | Iterable[Mapping[PlayerId, int]]] = (),
) -> tuple[StandingsRow, ...]:
    """The table after the preliminary rounds (placement points, wins, die roll)."""
    return compute_standings(
        list(players),
        games,
        open_precedence(scheme),  # type: ignore[arg-type]
        roll_offs=roll_offs,
    )


def final_table(rows: Sequence[StandingsRow], size: int = 4) -> tuple[PlayerId, ...]:
    """The best ``size`` of the preliminary ranking, best first (the at-board order).

    Raises :class:`DrawError` if the last final-table place is shared with a player
    below the cut (tied on every metric): a die roll must be recorded first.
    """
    if not is_whole(size, at_least=2):
        raise DrawError("final_table_two", given=repr(size))
    if len(rows) < size:
        raise DrawError("final_table_short", size=size, count=len(rows))
    _check_cut(rows, size)
    return tuple(r.entry for r in rows[:size])


def _check_cut(rows: Sequence[StandingsRow], size: int) -> None:
    """The first player below the cut is not tied with the last one above it."""
    if len(rows) > size and rows[size].rank <= size:
        rank = rows[size].rank
        tied = ", ".join(repr(r.entry) for r in rows if r.rank == rank)
        raise DrawError("final_table_cut_tie", players=tied)


def final_ranking(
    rows: Sequence[StandingsRow], final_placings: Sequence[PlayerId], size: int = 4
) -> tuple[PlayerId, ...]:
    """The tournament's final order *(platform rule)*: places 1–``size`` by the final
    table's placings, the others in their preliminary order."""
    finalists = final_table(rows, size)
    placed = tuple(final_placings)
    if set(placed) != set(finalists) or len(set(placed)) != len(placed):
        raise DrawError("final_table_placings", finalists=repr(list(finalists)))
    return (*placed, *(r.entry for r in rows[size:]))


def seat_final_table(
    finalists: Sequence[PlayerId],
    history: Iterable[RoundDraw] = (),
    *,
    seed: int | str,
    board_colours: Sequence[Colour] = BOARD_4,
) -> RoundDraw:
    """The final table as a round of its own: the finalists in ranking order (best
    first, *platform rule*), colours drawn like every round (least played so far,
    equal choices by the seeded lot)."""
    group = _check_players(finalists)
    board = check_board(board_colours)
    if not 2 <= len(group) <= len(board):
        raise DrawError("final_table_seats", colours=len(board), count=len(group))
    past = DrawHistory.of(history)
    rng = random.Random(f"open-final:{seed}:{past.rounds + 1}")
    return RoundDraw(past.rounds + 1, (_seat_table(1, group, past, board, rng, keep_order=True),))
