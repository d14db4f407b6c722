"""Standings: results → a ranked table (``tournament.md``, "Standings", "Grand Prix").

Modelled on Tabbycat's standings: small **metrics** (each with a key, a label and a
direction), applied in a configurable **precedence**. The first metric orders everyone;
each later metric only orders entries still tied on all earlier ones. A metric that is
*group-dependent* (head-to-head) is computed inside each tied group only.

Input: entry ids and :class:`GameOutcome` records. Output: :class:`StandingsRow` s,
best first, with every metric value and the metric that separated each row from the
next one (for a "how ties are broken" note).

Metric keys (:data:`METRICS`): ``games_played``, ``wins``, ``losses``, ``won_lost``,
``win_percentage``, ``head_to_head``, ``counted_pawns_difference``,
``completed_colours``, ``game_time``, ``die_roll``, ``gp_points``, ``gp_plus_points``,
``placement_points``. Configurable metrics (:class:`PlacementPoints`,
:class:`GrandPrixPoints`) and custom :class:`Metric` subclasses can be placed in a
precedence directly instead of a key.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.errors import SeedingError, StandingsError
from tournaments.algorithms.seeding import check_roll_off, roll_sequences

EntryId = Hashable

#: Default league precedence *(platform rule, configurable per league)*.
LEAGUE_PRECEDENCE: tuple[str, ...] = (
    "won_lost",
    "head_to_head",
    "counted_pawns_difference",
    "completed_colours",
    "game_time",
    "die_roll",
)
#: Grand Prix: points only; a tie at the top is settled by extra games, not tie-breaks.
GP_PRECEDENCE: tuple[str, ...] = ("gp_points",)
GP_PLUS_PRECEDENCE: tuple[str, ...] = ("gp_plus_points",)
#: Open tournaments *(platform rule)*: placement points, then games won, then a die roll.
OPEN_PRECEDENCE: tuple[str, ...] = ("placement_points", "wins", "die_roll")
#: Shown in every row in addition to the precedence metrics.
DEFAULT_SHOW: tuple[str, ...] = ("games_played", "wins", "losses")

GP_PLACE_POINTS: tuple[int, ...] = (10, 6, 4, 3, 2, 1)
GP_BONUS: tuple[int, ...] = (2,)
GP_PLUS_BONUS: tuple[int, ...] = (4, 2, 1)


# --------------------------------------------------------------------------------------
# Input


def _frozen_mapping(value: Mapping[Any, Any] | None) -> Mapping[Any, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class GameOutcome:
    """The result of one game, as the standings need it.

    - ``players`` — the entries at the board, in at-board order (at least two).
    - ``winner`` — the winning entry, or ``None`` (no winner: e.g. an unfinished game).
    - ``player_placings`` — entries in finishing order; may be partial (2T: just the
      winner). If given with a winner, it starts with the winner.
    - ``colour_places`` — for GP points: the entry owning the colour at each finishing
      place (an entry appears once per colour it holds).
    - ``both_finished_order`` — entries in the order they finished both colours (GP
      bonus).
    - ``counted_pawns`` — ``entry → counted pawns`` (2T: pawns home of the best colour;
      2T+: of both colours); empty if not recorded, else for every player.
    - ``completed_colours`` — ``entry → colours finished`` (2T+); missing entries count 0.
    - ``game_time`` — the game's duration in seconds, ``None`` if unknown.
    - ``forfeit_loser`` — the entry that forfeited (the game was not played). A forfeit
      counts for wins (every other player at the board), losses (the forfeiter) and
      head-to-head; the pawn, colour and time metrics
      ignore it *(platform rule)*.

    Sequences are stored as tuples and mappings as read-only copies.
    """

    game_id: Hashable
    players: tuple[EntryId, ...]
    winner: EntryId | None = None
    player_placings: tuple[EntryId, ...] = ()
    colour_places: tuple[EntryId, ...] = ()
    both_finished_order: tuple[EntryId, ...] = ()
    counted_pawns: Mapping[EntryId, int] = field(default_factory=dict, hash=False)
    completed_colours: Mapping[EntryId, int] = field(default_factory=dict, hash=False)
    game_time: float | None = None
    forfeit_loser: EntryId | None = None

    def __post_init__(self) -> None:
        for name in ("players", "player_placings", "colour_places", "both_finished_order"):
            self._freeze_sequence(name)
        for name in ("counted_pawns", "completed_colours"):
            self._freeze_mapping(name)

    def _freeze_sequence(self, name: str) -> None:
        value = getattr(self, name)
        if type(value) is tuple:  # already frozen (the database's reading gives tuples)
            return
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise self._fault("game_field_sequence", field=name, given=repr(value))
        object.__setattr__(self, name, tuple(value))

    def _freeze_mapping(self, name: str) -> None:
        value = getattr(self, name)
        if value is not None and not isinstance(value, Mapping):
            raise self._fault("game_field_mapping", field=name, given=repr(value))
        object.__setattr__(self, name, _frozen_mapping(value))

    @property
    def forfeited(self) -> bool:
        return self.forfeit_loser is not None

    def validate(self, entries: frozenset[EntryId] | None = None) -> None:
        """Raise :class:`StandingsError` if the record is inconsistent."""
        if _plainly_valid(self, entries):  # most records: one quick look
            return
        self._check_players(entries)
        self._check_winner()
        self._check_members("player_placings", self.player_placings, unique=True)
        self._check_placings_start()
        self._check_members("colour_places", self.colour_places, unique=False)
        self._check_members("both_finished_order", self.both_finished_order, unique=True)
        self._check_counts("counted_pawns", self.counted_pawns)
        self._check_counts("completed_colours", self.completed_colours)
        self._check_pawns_complete()
        self._check_time()

    def _fault(self, code: str, **params: Any) -> StandingsError:
        return StandingsError(code, game=repr(self.game_id), **params)

    def _check_players(self, entries: frozenset[EntryId] | None) -> None:
        players = self.players
        if len(players) < 2:
            raise self._fault("game_two_players", players=repr(players))
        if len(set(players)) != len(players):
            raise self._fault("game_player_twice", players=repr(players))
        for player in players:
            if entries is not None and player not in entries:
                raise self._fault("game_not_entry", player=repr(player))

    def _check_winner(self) -> None:
        """The winner and the forfeiter played, and are not one player."""
        winner, loser = self.winner, self.forfeit_loser
        if winner is not None and winner not in self.players:
            raise self._fault("game_winner_stranger", player=repr(winner))
        if loser is None:
            return
        if loser not in self.players:
            raise self._fault("game_forfeit_stranger", player=repr(loser))
        if loser == winner:
            raise self._fault("game_winner_forfeited")

    def _check_placings_start(self) -> None:
        winner, placings = self.winner, self.player_placings
        if winner is not None and placings and placings[0] != winner:
            raise self._fault("game_placings_winner", first=repr(placings[0]), winner=repr(winner))

    def _check_members(self, name: str, values: Iterable[EntryId], unique: bool) -> None:
        """Everyone ``values`` names played (once, if ``unique``)."""
        seen: set[EntryId] = set()
        for value in values:
            if value not in self.players:
                raise self._fault("game_names_stranger", field=name, player=repr(value))
            if unique and value in seen:
                raise self._fault("game_names_twice", field=name, player=repr(value))
            seen.add(value)

    def _check_counts(self, name: str, mapping: Mapping[EntryId, int]) -> None:
        self._check_members(name, mapping, unique=True)
        for player, value in mapping.items():
            if not is_whole(value, at_least=0):
                raise self._fault(
                    "game_value_whole", field=name, player=repr(player), given=repr(value)
                )

    def _check_pawns_complete(self) -> None:
        """Counted pawns, when recorded, are recorded for every player."""
        pawns = self.counted_pawns
        if pawns and set(pawns) != set(self.players):
            missing = [p for p in self.players if p not in pawns]
            raise self._fault("game_pawns_missing", players=repr(missing))

    def _check_time(self) -> None:
        time = self.game_time
        if time is not None and not _is_seconds(time):
            raise self._fault("game_time", given=repr(time))


def _plainly_valid(game: GameOutcome, entries: frozenset[EntryId] | None) -> bool:
    """A quick look that passes only records every check of :meth:`GameOutcome.validate`
    passes (entry ids that are plain ints, whole counts that are plain ints): a league's
    12,000 games are checked in a few milliseconds. False does not mean invalid: the full
    checks then run and name the fault."""
    try:
        players = game.players
        seated = set(players)
        if len(players) < 2 or len(seated) != len(players):
            return False
        if entries is not None and not seated <= entries:
            return False
        winner, loser, placings = game.winner, game.forfeit_loser, game.player_placings
        if winner is not None and winner not in seated:
            return False
        if loser is not None and (loser not in seated or loser == winner):
            return False
        if winner is not None and placings and placings[0] != winner:
            return False
        for unique in (placings, game.both_finished_order):
            if len(set(unique)) != len(unique) or not seated.issuperset(unique):
                return False
        if not seated.issuperset(game.colour_places):
            return False
        pawns = game.counted_pawns
        if pawns and set(pawns) != seated:
            return False
        for counts in (pawns, game.completed_colours):
            if not seated.issuperset(counts):
                return False
            if any(type(v) is not int or v < 0 for v in counts.values()):
                return False
        time = game.game_time
        return time is None or _is_seconds(time)
    except TypeError:  # something unhashable: the full checks say what
        return False


def _is_seconds(time: object) -> bool:
    """A finite number of seconds ≥ 0 (not a bool)."""
    if isinstance(time, bool) or not isinstance(time, int | float):
        return False
    return math.isfinite(time) and time >= 0


@dataclass(frozen=True)
class StandingsContext:
    """Everything a metric may look at."""

    entries: tuple[EntryId, ...]
    outcomes: tuple[GameOutcome, ...]
    die_rolls: Mapping[EntryId, Any] = field(default_factory=dict, hash=False)
    roll_offs: tuple[Mapping[EntryId, tuple[int, ...]], ...] = ()
    #: head-to-head by pairs, summed over the games already (``head_to_head_pairs``):
    #: ``(a, b)`` with ``a < b`` → games ``a`` finished ahead of ``b`` less the reverse
    pair_scores: Mapping[tuple[EntryId, EntryId], int] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        index: dict[EntryId, list[GameOutcome]] = {}
        for game in self.outcomes:
            for player in game.players:
                index.setdefault(player, []).append(game)
        object.__setattr__(self, "_games", {e: tuple(gs) for e, gs in index.items()})
        object.__setattr__(self, "_order", {id(g): i for i, g in enumerate(self.outcomes)})

    def order_of(self, game: GameOutcome) -> int:
        """The game's position in the input (for a deterministic order)."""
        return self._order[id(game)]  # type: ignore[attr-defined]

    def games_of(self, entry: EntryId) -> tuple[GameOutcome, ...]:
        """The entry's games, in input order (indexed once: metrics ask per entry)."""
        return self._games.get(entry, ())  # type: ignore[attr-defined]

    def won_lost_of(self, entry: EntryId) -> WonLost:
        """The entry's wins and losses, counted once for every metric that asks."""
        counted = self.__dict__.get("_won_lost")
        if counted is None:
            counted = {e: _won_lost(e, games) for e, games in self._games.items()}  # type: ignore[attr-defined]
            object.__setattr__(self, "_won_lost", counted)
        return counted.get(entry, NO_GAMES)


# --------------------------------------------------------------------------------------
# Metrics


class WonLost(NamedTuple):
    """A won–lost record; ``str()`` gives "3–1"."""

    wins: int
    losses: int

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def percentage(self) -> float:
        """Wins per decided game, 0.0 without decided games."""
        return self.wins / self.decided if self.decided else 0.0

    def __str__(self) -> str:
        return f"{self.wins}–{self.losses}"


@dataclass(frozen=True)
class Metric:
    """A standings metric.

    Subclasses implement :meth:`evaluate` (``entry → value`` for the given entries; the
    value ``None`` means *unknown*: a metric with an unknown value for any member of a
    tied group does not separate that group). ``higher_is_better`` gives the direction;
    :meth:`rank_key` turns a value into something where larger is better.
    ``group_dependent`` metrics are evaluated per tied group (head-to-head);
    ``reapply`` re-applies such a metric to a smaller group it produced before moving on.
    """

    key: str = ""
    label: str = ""
    higher_is_better: bool = True
    group_dependent: ClassVar[bool] = False
    reapply: ClassVar[bool] = False

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        raise NotImplementedError

    def rank_key(self, value: Any) -> Any:
        return value if self.higher_is_better else -value


NO_GAMES = WonLost(0, 0)


def _won_lost(entry: EntryId, games: Iterable[GameOutcome]) -> WonLost:
    """The entry's record in ``games`` (its own)."""
    wins = losses = 0
    for game in games:
        if _won(game, entry):
            wins += 1
        if _lost(game, entry):
            losses += 1
    return WonLost(wins, losses)


def _won(game: GameOutcome, entry: EntryId) -> bool:
    """The winner won; a forfeit *(platform rule)* is won by every player at the board who
    did not forfeit (a 3T forfeit has no single winner, and the game was not played)."""
    if game.forfeit_loser is not None and game.winner is None:
        return entry != game.forfeit_loser
    return game.winner == entry


def _lost(game: GameOutcome, entry: EntryId) -> bool:
    """A game with a winner the entry did not win, or the entry's own forfeit."""
    if game.forfeit_loser is not None:
        return entry == game.forfeit_loser
    return game.winner is not None and game.winner != entry


@dataclass(frozen=True)
class GamesPlayed(Metric):
    key: str = "games_played"
    label: str = "Games"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {e: len(ctx.games_of(e)) for e in group}


@dataclass(frozen=True)
class Wins(Metric):
    key: str = "wins"
    label: str = "Won"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {e: ctx.won_lost_of(e).wins for e in group}


@dataclass(frozen=True)
class Losses(Metric):
    """Games with a winner that the entry played and did not win. Fewer is better."""

    key: str = "losses"
    label: str = "Lost"
    higher_is_better: bool = False

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {e: ctx.won_lost_of(e).losses for e in group}


@dataclass(frozen=True)
class WonLostRecord(Metric):
    """The won–lost record (a :class:`WonLost`), ranked by win percentage, then wins.

    With equal numbers of games (a DRR) this is simply the number of wins.
    """

    key: str = "won_lost"
    label: str = "W–L"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {e: ctx.won_lost_of(e) for e in group}

    def rank_key(self, value: Any) -> Any:
        record = WonLost(*value)
        pct = Fraction(record.wins, record.decided) if record.decided else Fraction(0)
        return (pct, record.wins, -record.losses)


@dataclass(frozen=True)
class WinPercentage(Metric):
    """Wins per decided game (0.0 without any)."""

    key: str = "win_percentage"
    label: str = "Win %"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        records = WonLostRecord().evaluate(ctx, group)
        return {e: records[e].percentage for e in group}

    def rank_key(self, value: Any) -> Any:
        return Fraction(value)


def _beats(game: GameOutcome, a: EntryId, b: EntryId) -> bool:
    """Did ``a`` finish ahead of ``b`` in ``game``? (winner first, then placings;
    a placed player is ahead of an unplaced one). In a forfeit only the player who
    forfeited is behind: the others did not play each other."""
    if game.forfeit_loser is not None:
        return b == game.forfeit_loser and a != b
    if game.winner is not None and game.winner in (a, b):
        return game.winner == a
    return _placed_ahead(game.player_placings, a, b)


def _placed_ahead(placings: tuple[EntryId, ...], a: EntryId, b: EntryId) -> bool:
    """``a`` is placed, and ``b`` is not or is placed lower."""
    if a not in placings:
        return False
    return b not in placings or placings.index(a) < placings.index(b)


@dataclass(frozen=True)
class HeadToHead(Metric):
    """Head-to-head among the tied players only (like Tabbycat's who-beat-whom).

    For every game in which two or more members of the tied group played, each pair of
    members scores +1 for the one who finished ahead (the winner; else the better
    placing) and −1 for the other. The value is the sum. Re-applied *(platform rule)*:
    when it splits a group and a smaller group is still tied, head-to-head is computed
    again among that smaller group before the next metric.
    """

    key: str = "head_to_head"
    label: str = "H2H"
    group_dependent: ClassVar[bool] = True
    reapply: ClassVar[bool] = True

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        score = dict.fromkeys(group, 0)
        if ctx.pair_scores is not None:  # the same sums, added up per pair beforehand
            for a, b in itertools.combinations(sorted(group), 2):
                net = ctx.pair_scores.get((a, b), 0)
                score[a] += net
                score[b] -= net
            return score
        for game in _games_among(ctx, group):
            present = [p for p in game.players if p in score]
            for a, b in itertools.combinations(present, 2):
                winner, loser = _ahead(game, a, b)
                if winner is not None:
                    score[winner] += 1
                    score[loser] -= 1
        return score


def head_to_head_pairs(game: GameOutcome) -> dict[tuple[EntryId, EntryId], int]:
    """What one game adds to head-to-head, per pair of its players ``(a, b)``, ``a < b``:
    +1 if ``a`` finished ahead of ``b``, −1 if behind (pairs neither is ahead in are left
    out). :class:`HeadToHead` among any group is the sum, over the pairs inside it, of
    these summed over the games — so sums kept per pair give it without the games."""
    pairs = {}
    for a, b in itertools.combinations(sorted(set(game.players)), 2):
        ahead, _ = _ahead(game, a, b)
        if ahead is not None:
            pairs[(a, b)] = 1 if ahead == a else -1
    return pairs


def _games_among(ctx: StandingsContext, group: Sequence[EntryId]) -> list[GameOutcome]:
    """The games any member of ``group`` played, each once, in input order."""
    games: dict[int, GameOutcome] = {}
    for member in group:
        for game in ctx.games_of(member):
            games.setdefault(id(game), game)
    return sorted(games.values(), key=ctx.order_of)


def _ahead(game: GameOutcome, a: EntryId, b: EntryId) -> tuple[EntryId | None, EntryId | None]:
    """``(ahead, behind)`` of ``a`` and ``b`` in ``game``; ``(None, None)`` if neither is."""
    if _beats(game, a, b):
        return a, b
    if _beats(game, b, a):
        return b, a
    return None, None


@dataclass(frozen=True)
class CountedPawnsDifference(Metric):
    """Σ over games of (own counted pawns − each opponent's), summed over opponents.

    With two players that is own − opponent's; with three it is 2·own − the two others.
    Games without counted pawns, and forfeits, add nothing.
    """

    key: str = "counted_pawns_difference"
    label: str = "Pawns ±"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        totals = dict.fromkeys(group, 0)
        for game in ctx.outcomes:
            if game.forfeited:
                continue
            for e in game.players:
                if e in totals:
                    totals[e] += _pawn_difference(game.counted_pawns, game.players, e)
        return totals


def _pawn_difference(pawns: Mapping[EntryId, int], players: Sequence[EntryId], e: EntryId) -> int:
    """Σ over ``e``'s opponents of (``e``'s counted pawns − theirs); 0 if not recorded."""
    if e not in pawns:
        return 0
    return sum(pawns[e] - pawns[o] for o in players if o != e)


@dataclass(frozen=True)
class CompletedColours(Metric):
    """Colours finished, summed over games (2T+); forfeits add nothing."""

    key: str = "completed_colours"
    label: str = "Colours"

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {
            e: sum(g.completed_colours.get(e, 0) for g in ctx.games_of(e) if not g.forfeited)
            for e in group
        }


MAX_GAME_SECONDS = 10_000_000
"""The longest game time that is a real one: game-log.md bounds an event's ``"t"`` at
10,000,000 seconds (about 115 days)."""


@dataclass(frozen=True)
class GameTime(Metric):
    """Total time of the entry's games in seconds; less is better.

    *(platform rule)* Forfeits are left out. If any other game of the entry has no
    recorded time — or one longer than :data:`MAX_GAME_SECONDS`, which no real game
    lasts (a log stored before the bound) — the total is unknown (``None``), and game
    time then separates no tied group containing that entry: the tie goes on to the
    next metric.
    """

    key: str = "game_time"
    label: str = "Time"
    higher_is_better: bool = False

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        return {
            e: total_time([g.game_time for g in ctx.games_of(e) if not g.forfeited]) for e in group
        }


def total_time(times: list[float | None]) -> float | None:
    """The sum of the times, or None when one of them is unknown: a time beyond
    :data:`MAX_GAME_SECONDS` is no real game's (game-log.md bounds "t"), so it counts as
    unknown, and a sum of real times never nears an overflow."""
    known = [float(t) for t in times if t is not None and t <= MAX_GAME_SECONDS]
    # fsum: exact, so the total does not depend on the order of the games
    return None if len(known) < len(times) else math.fsum(known)


def _roll_key(value: Any) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


@dataclass(frozen=True)
class DieRoll(Metric):
    """A recorded die roll among the tied entries, higher is better (group-dependent).

    For a tied group the rolls come from the **latest roll-off that every member of
    the group took part in** (``roll_offs`` input: e.g. the seeding of the latest DRR,
    then any dedicated tie-break rolls, oldest first). Each member's value is every
    roll they made in it, re-rolls included, compared roll by roll: exactly the order
    that roll-off decided. Without such a roll-off the ``die_rolls`` input is used (an
    int or a sequence of rolls per entry). A member without a roll is unknown
    (``None``): the roll then separates nothing and the group stays tied.
    """

    key: str = "die_roll"
    label: str = "Roll"
    group_dependent: ClassVar[bool] = True

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        sequences = _latest_with_all(ctx.roll_offs, group)
        if sequences is not None:
            return {e: sequences[e] for e in group}
        return {e: ctx.die_rolls.get(e) for e in group}

    def rank_key(self, value: Any) -> Any:
        return _roll_key(value)


@dataclass(frozen=True)
class TieBreakRoll:
    """A roll-off recorded by an organizer to break a tie: who rolled what, when.

    ``rounds`` are the roll rounds (``player → roll``; first by every player, then
    re-rolls of ties by the tied players, as in :func:`.seeding.roll_off`);
    ``recorded_at`` is when it was rolled (shown, not interpreted).
    """

    rounds: tuple[Mapping[EntryId, int], ...]
    recorded_at: Any = None

    def __post_init__(self) -> None:
        if isinstance(self.rounds, Mapping):
            raise StandingsError("tie_roll_not_list")
        if not self.rounds:
            raise StandingsError("tie_roll_empty")
        object.__setattr__(self, "rounds", tuple(_frozen_mapping(r) for r in self.rounds))


def roll_off_sequences(
    roll_off: TieBreakRoll | Iterable[Mapping[EntryId, int]],
) -> dict[EntryId, tuple[int, ...]]:
    """Validate a recorded roll-off (complete, by the rules of a roll-off) and give each
    player's rolls in order, re-rolls included. :class:`StandingsError` if invalid.

    No rounds at all (a seeding of one player) gives no rolls."""
    rounds = roll_off.rounds if isinstance(roll_off, TieBreakRoll) else tuple(roll_off)
    if not rounds:
        return {}
    try:
        order = check_roll_off(rounds)
    except SeedingError as error:
        raise StandingsError("die_roll", why=error) from None
    return roll_sequences(order)


def order_by_rolls(
    players: Iterable[EntryId],
    roll_offs: Sequence[TieBreakRoll | Iterable[Mapping[EntryId, int]]],
) -> tuple[tuple[EntryId, ...], ...]:
    """Order tied ``players`` by the latest roll-off they all took part in.

    Returns blocks best first: the players the dice separated each in their own block,
    the others (equal rolls, or no roll-off containing all of them) sharing one block
    in the given order. ``roll_offs`` oldest first.
    """
    group = tuple(players)
    sequences = [roll_off_sequences(r) for r in roll_offs]
    chosen = _latest_with_all(sequences, group)
    if chosen is None:
        return (group,) if group else ()
    return tuple(tuple(part) for part in _best_first(group, {p: chosen[p] for p in group}))


def _best_first(group: Sequence[EntryId], keys: Mapping[EntryId, Any]) -> list[list[EntryId]]:
    """``group`` split by ``keys``, the highest key first (each part in the group's order)."""
    return [
        [e for e in group if keys[e] == key] for key in sorted(set(keys.values()), reverse=True)
    ]


def _latest_with_all(
    sequences: Sequence[Mapping[EntryId, tuple[int, ...]]], group: Sequence[EntryId]
) -> Mapping[EntryId, tuple[int, ...]] | None:
    """The latest roll-off every member of ``group`` took part in, or None."""
    return next((s for s in reversed(sequences) if all(p in s for p in group)), None)


def _score_places(
    points: dict[EntryId, int], order: Sequence[EntryId], scale: Sequence[int]
) -> None:
    """Add ``scale[i]`` to the points of the ``i``-th of ``order`` (those in ``points``;
    places beyond the scale score nothing)."""
    for place, entry in enumerate(order[: len(scale)]):
        if entry in points:
            points[entry] += scale[place]


@dataclass(frozen=True)
class GrandPrixPoints(Metric):
    """Grand Prix points: ``place_points`` per colour place (10/6/4/3/2/1), plus
    ``bonus[i]`` to the (i+1)-th player to finish both colours (GP: 2 to the first;
    GP+: 4/2/1 to the first/second/third, see :data:`GP_PLUS`)."""

    key: str = "gp_points"
    label: str = "GP points"
    place_points: tuple[int, ...] = GP_PLACE_POINTS
    bonus: tuple[int, ...] = GP_BONUS

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        points = dict.fromkeys(group, 0)
        for game in ctx.outcomes:
            _score_places(points, game.colour_places, self.place_points)
            _score_places(points, game.both_finished_order, self.bonus)
        return points


@dataclass(frozen=True)
class PlacementPoints(Metric):
    """Open tournaments: ``scheme[i]`` points for finishing (i+1)-th in a game
    (default 5/3/1/0; e.g. ``PlacementPoints(scheme=(5, 3, 2, 1))``). Unplaced
    players, and places beyond the scheme, score 0."""

    key: str = "placement_points"
    label: str = "Points"
    scheme: tuple[int, ...] = (5, 3, 1, 0)

    def evaluate(self, ctx: StandingsContext, group: Sequence[EntryId]) -> dict[EntryId, Any]:
        points = dict.fromkeys(group, 0)
        for game in ctx.outcomes:
            _score_places(points, game.player_placings, self.scheme)
        return points


GP_PLUS = GrandPrixPoints(key="gp_plus_points", label="GP+ points", bonus=GP_PLUS_BONUS)

#: The built-in metrics by key.
METRICS: Mapping[str, Metric] = MappingProxyType(
    {
        metric.key: metric
        for metric in (
            GamesPlayed(),
            Wins(),
            Losses(),
            WonLostRecord(),
            WinPercentage(),
            HeadToHead(),
            CountedPawnsDifference(),
            CompletedColours(),
            GameTime(),
            DieRoll(),
            GrandPrixPoints(),
            GP_PLUS,
            PlacementPoints(),
        )
    }
)


def _metric(item: str | Metric) -> Metric:
    """A metric, or the built-in metric of a key."""
    if isinstance(item, Metric):
        return item
    if isinstance(item, str) and item in METRICS:
        return METRICS[item]
    raise StandingsError("metric_unknown", given=repr(item), known=", ".join(METRICS))


def resolve_metrics(precedence: Iterable[str | Metric]) -> tuple[Metric, ...]:
    """Metric keys (or :class:`Metric` instances) → metrics, validated.

    Raises :class:`StandingsError` for an unknown key or a metric listed twice.
    """
    if isinstance(precedence, str):
        raise StandingsError("precedence_one_string")
    metrics: list[Metric] = []
    for item in precedence:
        metrics.append(_new_metric(_metric(item), metrics))
    return tuple(metrics)


def _new_metric(metric: Metric, before: list[Metric]) -> Metric:
    """``metric``, which has a key no metric ``before`` it has."""
    if not metric.key:
        raise StandingsError("metric_no_key", metric=repr(metric))
    if any(m.key == metric.key for m in before):
        raise StandingsError("metric_twice", metric=repr(metric.key))
    return metric


# --------------------------------------------------------------------------------------
# Ranking


@dataclass(frozen=True)
class StandingsRow:
    """One row of the table.

    - ``rank`` — 1-based; entries tied on every metric share it (1, 2, 2, 4).
    - ``values`` — ``metric key → value`` for the precedence and the shown metrics.
      Group-dependent metrics (``head_to_head``) hold the value from the last tied
      group the entry was compared in, ``None`` if it was never tied there.
    - ``separated_by`` — the key of the metric that ranks this row above the next row;
      ``None`` for the last row and for a row tied with the next one.
    - ``tied`` — whether the entry shares its rank.
    """

    entry: EntryId
    rank: int
    values: Mapping[str, Any] = field(hash=False)
    separated_by: str | None
    tied: bool


def compute_standings(
    entries: Iterable[EntryId],
    outcomes: Iterable[GameOutcome],
    precedence: Iterable[str | Metric] = LEAGUE_PRECEDENCE,
    *,
    die_rolls: Mapping[EntryId, Any] | None = None,
    roll_offs: Sequence[TieBreakRoll | Iterable[Mapping[EntryId, int]]] = (),
    show: Iterable[str | Metric] = DEFAULT_SHOW,
) -> tuple[StandingsRow, ...]:
    """Rank ``entries`` from ``outcomes`` by the ``precedence`` of metrics.

    ``roll_offs`` (oldest first: e.g. the latest DRR's seeding rolls, then dedicated
    :class:`TieBreakRoll` s) and ``die_rolls`` feed the ``die_roll`` metric
    (:class:`DieRoll`). ``show`` adds metrics whose values
    appear in the rows without affecting the order.

    The order is deterministic: tied entries keep the order of ``entries``.
    Raises :class:`StandingsError` for invalid outcomes (see
    :meth:`GameOutcome.validate`), duplicate entries or game ids, and unknown or
    duplicate metrics in the precedence.
    """
    ids = _check_entries(entries)
    games = _check_outcomes(outcomes, frozenset(ids))
    _check_die_rolls(die_rolls or {})
    metrics = resolve_metrics(precedence)
    shown = _shown_too(show, metrics)
    ctx = StandingsContext(
        entries=ids,
        outcomes=games,
        die_rolls=dict(die_rolls or {}),
        roll_offs=_roll_off_sequences(roll_offs),
    )
    ranker = _Ranker(ctx, metrics, shown)
    blocks, between = ranker.rank(list(ids), 0) if ids else ([], [])
    return _rows(blocks, between, ranker.values)


#: the metrics :func:`rank_standings` takes as given values (sums over an entry's own
#: games) or computes in each tied group (head-to-head from ``games_among``, die rolls)
SUMMED_METRICS = frozenset(
    {
        "games_played",
        "wins",
        "losses",
        "won_lost",
        "win_percentage",
        "counted_pawns_difference",
        "completed_colours",
        "game_time",
    }
)
GROUP_METRICS = frozenset({"head_to_head", "die_roll"})


def rank_standings(
    entries: Iterable[EntryId],
    values: Mapping[str, Mapping[EntryId, Any]],
    precedence: Iterable[str | Metric] = LEAGUE_PRECEDENCE,
    *,
    games_among: Callable[[list[list[EntryId]]], Iterable[GameOutcome]],
    pair_scores: Mapping[tuple[EntryId, EntryId], int] | None = None,
    die_rolls: Mapping[EntryId, Any] | None = None,
    roll_offs: Sequence[TieBreakRoll | Iterable[Mapping[EntryId, int]]] = (),
    show: Iterable[str | Metric] = DEFAULT_SHOW,
) -> tuple[StandingsRow, ...]:
    """The table :func:`compute_standings` gives, from each entry's values of the metrics
    that are sums over its own games (``values``: ``key → entry → value``, every entry,
    e.g. summed by the database over games already checked) instead of the games
    themselves. Only head-to-head reads games: with ``head_to_head`` in the precedence,
    ``games_among(classes)`` is asked once for the games in which two or more entries of
    one class played — the classes are the entries still tied on every metric before
    head-to-head that can separate them, a superset of every group head-to-head will
    compare — and each game it gives is checked here. With ``pair_scores`` (head-to-head
    summed per pair over games already checked, :func:`head_to_head_pairs`) no game is
    read at all.

    Only the keys of :data:`SUMMED_METRICS` and :data:`GROUP_METRICS` may be ranked or
    shown this way (:class:`StandingsError` ``metric_not_summed`` otherwise)."""
    ids = _check_entries(entries)
    _check_die_rolls(die_rolls or {})
    metrics = resolve_metrics(precedence)
    shown = _shown_too(show, metrics)
    for metric in (*metrics, *shown):
        if metric != METRICS.get(metric.key) or metric.key not in SUMMED_METRICS | GROUP_METRICS:
            raise StandingsError("metric_not_summed", metric=repr(metric.key))
    games: tuple[GameOutcome, ...] = ()
    if pair_scores is None and any(isinstance(m, HeadToHead) for m in metrics):
        classes = _tied_before_head_to_head(ids, metrics, values)
        games = _check_outcomes(games_among(classes), frozenset(ids))
    ctx = StandingsContext(
        entries=ids,
        outcomes=games,
        die_rolls=dict(die_rolls or {}),
        roll_offs=_roll_off_sequences(roll_offs),
        pair_scores=pair_scores,
    )
    ranker = _Ranker(ctx, metrics, shown, given=values)
    blocks, between = ranker.rank(list(ids), 0) if ids else ([], [])
    return _rows(blocks, between, ranker.values)


def _tied_before_head_to_head(
    ids: tuple[EntryId, ...],
    metrics: tuple[Metric, ...],
    values: Mapping[str, Mapping[EntryId, Any]],
) -> list[list[EntryId]]:
    """The entries grouped by their rank keys of the metrics before head-to-head, up to
    the first with an unknown value (which separates no group it is unknown in), classes
    of two or more: every group the ranking ever compares by head-to-head lies inside
    one of them (each metric only splits the groups the metrics before it left)."""
    keys: dict[EntryId, tuple] = {e: () for e in ids}
    for metric in metrics:
        if metric.group_dependent:  # head-to-head here; a die roll only splits further
            if isinstance(metric, HeadToHead):
                break
            continue
        column = values[metric.key]
        if any(column[e] is None for e in ids):
            break
        keys = {e: (*keys[e], metric.rank_key(column[e])) for e in ids}
    classes: dict[tuple, list[EntryId]] = {}
    for entry in ids:
        classes.setdefault(keys[entry], []).append(entry)
    return [members for members in classes.values() if len(members) > 1]


def _shown_too(show: Iterable[str | Metric], metrics: tuple[Metric, ...]) -> tuple[Metric, ...]:
    """The metrics shown in the rows besides those of the precedence."""
    keys = {m.key for m in metrics}
    return tuple(m for m in resolve_metrics(show) if m.key not in keys)


def _roll_off_sequences(
    roll_offs: Sequence[TieBreakRoll | Iterable[Mapping[EntryId, int]]],
) -> tuple[Mapping[EntryId, tuple[int, ...]], ...]:
    """Each roll-off (a list of them, oldest first) as every player's rolls in order."""
    if isinstance(roll_offs, Mapping | TieBreakRoll):
        raise StandingsError("roll_offs_list")
    return tuple(roll_off_sequences(r) for r in roll_offs)


def _check_entries(entries: Iterable[EntryId]) -> tuple[EntryId, ...]:
    if isinstance(entries, str | bytes):
        raise StandingsError("entries_one_string")
    ids = tuple(entries)
    if len(set(ids)) != len(ids):
        raise StandingsError("entry_twice", entries=repr(ids))
    return ids


def _check_outcomes(
    outcomes: Iterable[GameOutcome], entries: frozenset[EntryId]
) -> tuple[GameOutcome, ...]:
    """The games, each a valid :class:`GameOutcome` of these entries, each game once."""
    games = tuple(outcomes)
    seen: set[Hashable] = set()
    for game in games:
        if not isinstance(game, GameOutcome):
            raise StandingsError("not_game_outcome", given=repr(game))
        if game.game_id in seen:
            raise StandingsError("game_twice", game=repr(game.game_id))
        seen.add(game.game_id)
        game.validate(entries)
    return games


def _is_die_roll(roll: Any) -> bool:
    """A roll 1–6, or a non-empty list of them (re-rolls)."""
    if isinstance(roll, bool):
        return False
    rolls = (roll,) if isinstance(roll, int) else roll
    if not isinstance(rolls, Sequence) or not rolls:
        return False
    return all(is_whole(r, at_least=1, at_most=6) for r in rolls)


def _check_die_rolls(die_rolls: Mapping[EntryId, Any]) -> None:
    for entry, roll in die_rolls.items():
        if not _is_die_roll(roll):
            raise StandingsError("die_roll_range", entry=repr(entry), given=repr(roll))


class _Ranker:
    """Ranks groups of entries by the precedence: the first metric orders everyone, each
    later one only the entries still tied on all before it (``values``: every metric's
    value per entry, a group-dependent metric's from the last group it was computed in)."""

    def __init__(
        self,
        ctx: StandingsContext,
        metrics: tuple[Metric, ...],
        shown,
        given: Mapping[str, Mapping[EntryId, Any]] | None = None,
    ):
        self.ctx = ctx
        self.metrics = metrics
        self.values: dict[str, dict[EntryId, Any]] = {
            m.key: dict.fromkeys(ctx.entries)
            if m.group_dependent
            else dict(given[m.key])
            if given is not None
            else m.evaluate(ctx, ctx.entries)
            for m in (*metrics, *shown)
        }

    def rank(self, group: list[EntryId], level: int) -> tuple[list[list[EntryId]], list[str]]:
        """Blocks (tied entries), best first, and the metric key between blocks."""
        if len(group) == 1 or level == len(self.metrics):
            return [group], []
        metric = self.metrics[level]
        keys = self._rank_keys(metric, group)
        parts = _best_first(group, keys) if keys is not None else [group]
        if len(parts) == 1:  # unknown for someone, or no difference: the next metric
            return self.rank(group, level + 1)
        return self._rank_parts(parts, metric, level if metric.reapply else level + 1)

    def _rank_parts(
        self, parts: list[list[EntryId]], metric: Metric, level: int
    ) -> tuple[list[list[EntryId]], list[str]]:
        """The parts ``metric`` separated, best first, each ranked on from ``level``;
        ``metric`` stands between one part and the next."""
        blocks: list[list[EntryId]] = []
        between: list[str] = []
        for index, part in enumerate(parts):
            part_blocks, part_between = self.rank(part, level)
            if index:
                between.append(metric.key)
            blocks.extend(part_blocks)
            between.extend(part_between)
        return blocks, between

    def _rank_keys(self, metric: Metric, group: list[EntryId]) -> dict[EntryId, Any] | None:
        """``entry → rank key`` of ``metric`` in ``group``; None when a value is unknown."""
        if metric.group_dependent:
            self.values[metric.key].update(metric.evaluate(self.ctx, group))
        group_values = {e: self.values[metric.key][e] for e in group}
        if any(v is None for v in group_values.values()):
            return None
        return {e: metric.rank_key(group_values[e]) for e in group}


def _rows(
    blocks: list[list[EntryId]], between: list[str], values: dict[str, dict[EntryId, Any]]
) -> tuple[StandingsRow, ...]:
    """The table's rows: tied entries share a rank; the last row of a block names the
    metric that separates it from the next block."""
    rows: list[StandingsRow] = []
    for index, block in enumerate(blocks):
        separated = between[index] if index < len(between) else None
        rows.extend(_block_rows(block, len(rows) + 1, separated, values))
    return tuple(rows)


def _block_rows(
    block: list[EntryId], rank: int, separated: str | None, values: dict[str, dict[EntryId, Any]]
) -> list[StandingsRow]:
    """The rows of entries tied on every metric: one rank; the last row says what
    separates the block from the next."""
    last = len(block) - 1
    return [
        StandingsRow(
            entry=entry,
            rank=rank,
            values=MappingProxyType({key: values[key][entry] for key in values}),
            separated_by=separated if offset == last else None,
            tied=len(block) > 1,
        )
        for offset, entry in enumerate(block)
    ]


def top_is_tied(rows: Sequence[StandingsRow]) -> bool:
    """Whether first place is shared (Grand Prix: play extra games)."""
    return len(rows) > 1 and rows[1].rank == 1


def leader_is_certain(
    points: Mapping[EntryId, int], games_left: int, max_points_per_game: int
) -> bool:
    """Grand Prix: can nobody reach the leader's points any more?

    True if the leader is ahead of everyone by more than ``games_left ×
    max_points_per_game`` (a tie would mean extra games, so catching up to a tie
    counts as reachable). Then the games left can be cancelled.
    """
    if games_left < 0 or max_points_per_game < 0:
        raise StandingsError("games_left_negative")
    if len(points) < 2:
        return True
    ranked = sorted(points.values(), reverse=True)
    return ranked[0] - ranked[1] > games_left * max_points_per_game
