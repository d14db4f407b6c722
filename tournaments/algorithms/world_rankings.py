"""The 3T World Rankings (``tournament.md``, "Rankings"): triple-threat tournament results
→ a ranked table with each ranked player's counted tournaments, as plain Python.

The regulation, word for word from the spec: *the last 9 triple-threat tournaments; basic
points 7 for 1st, 4 for 2nd with at least one game won (2 with none), 2 for 3rd, times the
tournament's level (1–4); each game won adds 1 winner point. Ties: tournament points, then
world championships won, then majors, then tournaments won.*

How the words are read (see ``docs/ratings.md``):

- "The last 9" are the 9 most recent triple-threat tournaments held (by date; on the same
  date the later one in the input is the more recent), not each player's own last 9.
- A player's **tournament points** are the basic points times the level, summed over the
  counted tournaments; **winner points** are the games won there, one each, not times the
  level. The **ranking points** are their sum. Places below 3rd get no basic points.
- The tie-break counts (world championships, majors, tournaments won) are first places in
  the counted tournaments. Players still tied share the rank.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.errors import WorldRankingError

PlayerId = Hashable
TournamentId = Hashable

#: How many of the most recent triple-threat tournaments count.
WINDOW = 9
#: Allowed tournament levels (set by the organizer).
LEVELS = (1, 2, 3, 4)
#: Basic points by place; 2nd depends on whether the player won a game (see
#: :func:`basic_points`).
FIRST_POINTS = 7
SECOND_POINTS_WITH_WIN = 4
SECOND_POINTS_WITHOUT_WIN = 2
THIRD_POINTS = 2

#: Ranking columns in tie-break order, with their labels (for a "how ties are broken" note).
PRECEDENCE: tuple[tuple[str, str], ...] = (
    ("points", "ranking points"),
    ("tournament_points", "tournament points"),
    ("world_championships_won", "world championships won"),
    ("majors_won", "majors won"),
    ("tournaments_won", "tournaments won"),
)


@dataclass(frozen=True)
class Placing:
    """One player's result in one tournament: final ``place`` (1 = winner) and the number
    of games the player won in the tournament."""

    player: PlayerId
    place: int
    games_won: int = 0


@dataclass(frozen=True)
class Tournament:
    """A finished triple-threat tournament as the rankings need it."""

    tournament_id: TournamentId
    date: dt.date
    level: int
    placings: tuple[Placing, ...]
    world_championship: bool = False
    major: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "placings", tuple(self.placings))
        label = self.name or repr(self.tournament_id)
        if not isinstance(self.date, dt.date):
            raise WorldRankingError("wr_date", tournament=label, given=repr(self.date))
        if isinstance(self.level, bool) or self.level not in LEVELS:
            raise WorldRankingError("wr_level", tournament=label, given=repr(self.level))
        _check_placings(self.placings, label)


def _check_placings(placings: tuple[Placing, ...], label: str) -> None:
    """Each placing valid, each player once, and (with any placings) one winner."""
    seen: set[PlayerId] = set()
    for p in placings:
        _check_placing(p, label, seen)
        seen.add(p.player)
    if placings and sum(1 for p in placings if p.place == 1) != 1:
        raise WorldRankingError("wr_one_winner", tournament=label)


def _check_placing(p: object, label: str, seen: set[PlayerId]) -> None:
    """A placing of tournament ``label``: a new player, a place ≥ 1, games won ≥ 0."""
    if not isinstance(p, Placing):
        raise WorldRankingError("wr_not_placing", tournament=label, given=repr(p))
    where = {"tournament": label, "player": repr(p.player)}
    if p.player in seen:
        raise WorldRankingError("wr_player_twice", **where)
    if not is_whole(p.place, at_least=1):
        raise WorldRankingError("wr_place", given=repr(p.place), **where)
    if not is_whole(p.games_won, at_least=0):
        raise WorldRankingError("wr_games_won", given=repr(p.games_won), **where)


def basic_points(place: int, games_won: int) -> int:
    """Basic points of a final place: 7 for 1st, 4 for 2nd with at least one game won
    (2 with none), 2 for 3rd, 0 below."""
    if place == 1:
        return FIRST_POINTS
    if place == 2:
        return SECOND_POINTS_WITH_WIN if games_won >= 1 else SECOND_POINTS_WITHOUT_WIN
    if place == 3:
        return THIRD_POINTS
    return 0


@dataclass(frozen=True)
class CountedTournament:
    """One line of a player's ranking history: a counted tournament and its points."""

    tournament_id: TournamentId
    name: str
    date: dt.date
    level: int
    world_championship: bool
    major: bool
    place: int
    games_won: int
    basic_points: int
    tournament_points: int  # basic points × level
    winner_points: int  # one per game won

    @property
    def points(self) -> int:
        return self.tournament_points + self.winner_points


@dataclass(frozen=True)
class RankingRow:
    """One player's line of the world ranking.

    ``separated_by`` names the first column (of :data:`PRECEDENCE`) that ranks this row
    above the next one, ``None`` if tied with it (shared rank) or for the last row.
    ``history`` lists the player's counted tournaments, most recent first.
    """

    rank: int
    player: PlayerId
    points: int
    tournament_points: int
    winner_points: int
    world_championships_won: int
    majors_won: int
    tournaments_won: int
    tournaments_played: int
    seconds: int
    thirds: int
    games_won: int
    history: tuple[CountedTournament, ...]
    separated_by: str | None = None

    def key(self) -> tuple[int, ...]:
        return tuple(getattr(self, column) for column, _ in PRECEDENCE)


@dataclass(frozen=True)
class WorldRanking:
    """The ranking table, best first, and the tournaments it counts (most recent first)."""

    tournaments: tuple[Tournament, ...]
    rows: tuple[RankingRow, ...]

    def row(self, player: PlayerId) -> RankingRow:
        for r in self.rows:
            if r.player == player:
                return r
        raise WorldRankingError("wr_player_unranked", player=repr(player))


def _check_tournaments(tournaments: Iterable[Tournament]) -> list[Tournament]:
    """Tournaments, each once."""
    items = list(tournaments)
    ids: set[TournamentId] = set()
    for t in items:
        if not isinstance(t, Tournament):
            raise WorldRankingError("wr_not_tournament", given=repr(t))
        if t.tournament_id in ids:
            raise WorldRankingError("wr_tournament_twice", tournament=repr(t.tournament_id))
        ids.add(t.tournament_id)
    return items


def counted_tournaments(
    tournaments: Iterable[Tournament], window: int = WINDOW, as_of: dt.date | None = None
) -> tuple[Tournament, ...]:
    """The ``window`` most recent tournaments (held on or before ``as_of`` if given), most
    recent first. Same date: the later in the input counts as the more recent."""
    if not is_whole(window, at_least=1):
        raise WorldRankingError("wr_window", given=repr(window))
    return _most_recent(_check_tournaments(tournaments), window, as_of)


def _most_recent(
    items: list[Tournament], window: int, as_of: dt.date | None
) -> tuple[Tournament, ...]:
    held = [(t.date, i, t) for i, t in enumerate(items) if as_of is None or t.date <= as_of]
    held.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return tuple(t for _, _, t in held[:window])


def world_ranking(
    tournaments: Iterable[Tournament],
    window: int = WINDOW,
    as_of: dt.date | None = None,
) -> WorldRanking:
    """The 3T World Ranking from triple-threat tournament results.

    Every player with a placing in a counted tournament gets a row (also with 0 points).
    Order: ranking points, then tournament points, then world championships won, then
    majors won, then tournaments won (all higher first); players equal on all of them
    share the rank (1, 2, 2, 4) and are listed by ``str(player)``.
    """
    counted = counted_tournaments(tournaments, window, as_of)
    history: dict[PlayerId, list[CountedTournament]] = {}
    for t in counted:  # most recent first, so each history is too
        for p in t.placings:
            history.setdefault(p.player, []).append(_counted(t, p))
    rows = [_row(player, lines) for player, lines in history.items()]
    rows.sort(key=lambda r: (tuple(-v for v in r.key()), str(r.player)))
    return WorldRanking(counted, _ranked(rows))


def _counted(t: Tournament, p: Placing) -> CountedTournament:
    """One counted tournament in a player's history, with its points."""
    basic = basic_points(p.place, p.games_won)
    return CountedTournament(
        tournament_id=t.tournament_id,
        name=t.name,
        date=t.date,
        level=t.level,
        world_championship=t.world_championship,
        major=t.major,
        place=p.place,
        games_won=p.games_won,
        basic_points=basic,
        tournament_points=basic * t.level,
        winner_points=p.games_won,
    )


def _row(player: PlayerId, lines: list[CountedTournament]) -> RankingRow:
    """A player's row (not ranked yet) from their counted tournaments."""
    won = [c for c in lines if c.place == 1]
    places = Counter(c.place for c in lines)
    return RankingRow(
        rank=0,
        player=player,
        points=_total(lines, "points"),
        tournament_points=_total(lines, "tournament_points"),
        winner_points=_total(lines, "winner_points"),
        world_championships_won=_flagged(won, "world_championship"),
        majors_won=_flagged(won, "major"),
        tournaments_won=places[1],
        tournaments_played=len(lines),
        seconds=places[2],
        thirds=places[3],
        games_won=_total(lines, "games_won"),
        history=tuple(lines),
    )


def _total(lines: list[CountedTournament], column: str) -> int:
    """The sum of one column over counted tournaments."""
    return sum(getattr(line, column) for line in lines)


def _flagged(lines: list[CountedTournament], flag: str) -> int:
    """How many of the counted tournaments have ``flag`` set (a world championship, a major)."""
    return sum(1 for line in lines if getattr(line, flag))


def _ranked(rows: list[RankingRow]) -> tuple[RankingRow, ...]:
    """Sorted rows with their ranks (equal keys share one) and the column that
    separates each from the next."""
    ranked: list[RankingRow] = []
    for i, row in enumerate(rows):
        rank = ranked[-1].rank if i and row.key() == rows[i - 1].key() else i + 1
        following = rows[i + 1].key() if i + 1 < len(rows) else None
        ranked.append(replace(row, rank=rank, separated_by=_separating_column(row, following)))
    return tuple(ranked)


def _separating_column(row: RankingRow, following: tuple | None) -> str | None:
    """The first :data:`PRECEDENCE` column in which ``row`` differs from the next row."""
    if following is None:
        return None
    pairs = zip(PRECEDENCE, row.key(), following, strict=True)
    return next((column for (column, _), a, b in pairs if a != b), None)


def tie_break_label(column: str | None) -> str:
    """The label of a :data:`PRECEDENCE` column (``""`` for ``None``)."""
    if column is None:
        return ""
    for key, label in PRECEDENCE:
        if key == column:
            return label
    raise WorldRankingError("wr_column_unknown", given=repr(column))


def _check_no_stray(wins: Mapping[PlayerId, int], order: Sequence[PlayerId]) -> None:
    stray = [p for p in wins if p not in order]
    if stray:
        raise WorldRankingError("wr_stray_wins", players=repr(stray))


def placings_from_order(
    order: Sequence[PlayerId], games_won: dict[PlayerId, int] | None = None
) -> tuple[Placing, ...]:
    """Placings from a final order (winner first) and games won per player."""
    wins = games_won or {}
    _check_no_stray(wins, order)
    return tuple(Placing(p, i, wins.get(p, 0)) for i, p in enumerate(order, start=1))


__all__ = [
    "LEVELS",
    "PRECEDENCE",
    "WINDOW",
    "CountedTournament",
    "Placing",
    "RankingRow",
    "Tournament",
    "WorldRanking",
    "WorldRankingError",
    "basic_points",
    "counted_tournaments",
    "placings_from_order",
    "tie_break_label",
    "world_ranking",
]
