"""A player's page: their leagues, games and log statistics (their rating on it is the
ratings app's: ``ratings.selectors.ratings.player_rating_view``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import F, FilteredRelation, Prefetch, Q, Window
from django.db.models.functions import RowNumber

from games.engine.board import DEFAULT_COLOURS
from games.models import GameAnalysis
from tournaments.models import Entry, Fixture, League, Player, Result, Seat
from tournaments.selectors.analyses import (
    AnalysedRecord,
    DiceView,
    dice_view,
    seat_summary,
    with_analysis_summary,
)
from tournaments.selectors.rankings import final_places
from tournaments.selectors.visibility import visible_leagues

#: a player's page lists this many games per league and opponents (the
#: schedule filtered by the player and the API have the rest): bounded, whatever the history
GAMES_SHOWN = 10
OPPONENTS_SHOWN = 20
LEAGUES_PER_PAGE = 10


@dataclass
class PlayerGame:
    fixture: Fixture
    seat: Seat
    result: Result | None
    won: bool | None
    place: int | None
    luck_adjusted: float | None = None
    """the game's result with the luck taken out (the move analysis), when analysed"""


@dataclass
class PlayerLeague:
    league: League
    entry: Entry
    games: list[PlayerGame] = field(default_factory=list)

    #: (wins, losses, counted games) of every game in the league, counted in the database
    counts: tuple[int, int, int] = (0, 0, 0)

    @property
    def wins(self) -> int:
        return self.counts[0]

    @property
    def counted_games(self) -> int:
        return self.counts[2]

    @property
    def recent_games(self) -> list[PlayerGame]:
        """The last :data:`GAMES_SHOWN` games (the page's table; the schedule has all)."""
        return self.games[-GAMES_SHOWN:]

    @property
    def losses(self) -> int:
        return self.counts[1]

    @property
    def more_games(self) -> bool:
        """Whether the league has more games than the page shows."""
        return self.games_total > len(self.games)

    #: every game of the player in the league (counted or not)
    games_total: int = 0


@dataclass
class PlayerStats:
    logged_games: int = 0
    rolls: int = 0
    sixes: int = 0
    captures: int = 0
    captured: int = 0
    huffed: int = 0
    faces: list[int] = field(default_factory=lambda: [0] * 6)

    @property
    def rolls_per_game(self) -> float | None:
        return self.rolls / self.logged_games if self.logged_games else None

    @property
    def six_rate(self) -> float | None:
        return self.sixes / self.rolls if self.rolls else None


@dataclass
class Record:
    """Counted games against one opponent (or at one seat): ``ahead`` = this player
    finished above the other, ``won`` = this player won the game."""

    games: int = 0
    won: int = 0
    ahead: int = 0
    behind: int = 0
    other_won: int = 0


@dataclass
class Honour:
    league: League
    place: int


@dataclass
class PlayerPage:
    player: Player
    leagues: list[PlayerLeague]
    colours: list[tuple[tuple[str, ...], int]]
    stats: PlayerStats
    honours: list[Honour] = field(default_factory=list)
    opponents: list[tuple[Player, Record]] = field(default_factory=list)
    seats: list[tuple[int, Record]] = field(default_factory=list)
    started: Record = field(default_factory=Record)
    #: league id → the move analyses of the player's counted games there
    analysed: dict[int, AnalysedRecord] = field(default_factory=dict)

    @property
    def dice(self) -> DiceView | None:
        """The dice of the colours the player held in counted games with a log."""
        if not self.stats.logged_games:
            return None
        return dice_view(self.stats.faces, self.stats.logged_games)

    @property
    def top_opponents(self) -> list[tuple[Player, Record]]:
        return self.opponents[:OPPONENTS_SHOWN]

    @property
    def titles(self) -> int:
        return sum(1 for h in self.honours if h.place == 1)

    @property
    def medals(self) -> dict[int, int]:
        return {n: sum(1 for h in self.honours if h.place == n) for n in (1, 2, 3)}


def player_get(slug: str) -> Player:
    return Player.objects.select_related("rating").get(slug=slug)


def player_page(player: Player, user) -> PlayerPage:
    """A player's leagues (those ``user`` may see), games with counted results, the colours
    they held and statistics from the logs of those games.

    Model instances (seats, fixtures, results, their players) are built only for the games
    the page shows (the last :data:`GAMES_SHOWN` of each league, a window in SQL); the
    records, the colours and the statistics come from aggregates and one row of plain
    values per counted game (issue 31: a 700-game player's page built 3,000 objects)."""
    leagues = visible_leagues(user)
    entries = list(
        Entry.objects.filter(player=player, league__in=leagues, state=Entry.State.ACCEPTED)
        .select_related("league")
        .order_by("-league__created_at")
    )
    by_entry = {e.pk: PlayerLeague(e.league, e) for e in entries}
    mine = Seat.objects.filter(entry__in=entries)
    # one row of plain values per game of the player (its counted result, if any, joined),
    # numbered back from the last game of each league (the window picks the games shown)
    facts = (
        mine.annotate(
            counted=FilteredRelation(
                "fixture__results",
                condition=Q(fixture__results__state=Result.State.CONFIRMED),
            ),
            back=Window(
                RowNumber(),
                partition_by=[F("entry_id")],
                order_by=[
                    F("fixture__cycle__number").desc(),
                    F("fixture__round").desc(),
                    F("fixture__number").desc(),
                ],
            ),
        )
        .values_list(
            "pk",
            "back",
            "counted__id",
            "entry_id",
            "position",
            "colours",
            "fixture_id",
            "fixture__starting_colour",
            "counted__winner_id",
            "counted__placings",
            "counted__game_log__board",
            "counted__game_log__seat_faces",
            "counted__game_log__seat_stats",
        )
        .order_by()
    )
    colours: Counter[tuple[str, ...]] = Counter()
    played: dict[int, tuple[int, int | None, list, list]] = {}  # fixture → mine, winner, …
    at_seat: dict[int, Record] = {}
    started = Record()
    stats = PlayerStats()
    tallies: dict[int, list[int]] = {}  # entry → [wins, losses, games]
    shown_pks = []
    for pk, back, result_id, entry_id, position, seat_colours, fixture_id, *rest in facts:
        colours[tuple(seat_colours)] += 1
        by_entry[entry_id].games_total += 1
        if back <= GAMES_SHOWN:
            shown_pks.append(pk)
        if result_id is None:
            continue
        starting, winner, placings, *log = rest
        won = _won(entry_id, winner, placings)
        played[fixture_id] = (entry_id, winner, placings, seat_colours)
        tally = tallies.setdefault(entry_id, [0, 0, 0])
        tally[0] += won is True
        tally[1] += won is False
        tally[2] += 1
        _count(at_seat.setdefault(position, Record()), won)
        if starting in seat_colours:
            _count(started, won)
        _add_log_stats(stats, seat_colours, *log)
    shown = list(
        Seat.objects.filter(pk__in=shown_pks)
        .select_related("fixture__cycle", "fixture__series")
        .prefetch_related(
            Prefetch("fixture__seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "fixture__results",
                queryset=with_analysis_summary(
                    Result.objects.filter(state=Result.State.CONFIRMED)
                    .select_related("winner__player", "game_log")
                    .defer("game_log__content")
                ),
                to_attr="confirmed_results",
            ),
        )
        .order_by("fixture__league", "fixture__cycle__number", "fixture__round", "fixture__number")
    )
    for seat in shown:
        result = seat.fixture.confirmed_results[0] if seat.fixture.confirmed_results else None
        won = place = luck_adjusted = None
        if result is not None:
            won = _won(seat.entry_id, result.winner_id, result.placings)
            if result.placings and seat.entry_id in result.placings:
                place = result.placings.index(seat.entry_id) + 1
            summary = seat_summary(result, by_entry[seat.entry_id].league.board, seat.colours)
            if summary:
                luck_adjusted = (summary.get("luck") or {}).get("luck_adjusted")
        by_entry[seat.entry_id].games.append(
            PlayerGame(seat.fixture, seat, result, won, place, luck_adjusted)
        )
    for entry_id, (wins, losses, games) in tallies.items():
        by_entry[entry_id].counts = (wins, losses, games)
    return PlayerPage(
        player=player,
        leagues=list(by_entry.values()),
        colours=colours.most_common(),
        stats=stats,
        honours=_honours(player, [e.league for e in entries]),
        opponents=_opponents(played),
        seats=sorted(at_seat.items()),
        started=started,
        analysed=_analysed(played, by_entry),
    )


def _won(entry_id: int, winner_id: int | None, placings: list | None) -> bool | None:
    """Whether the seat of ``entry_id`` won (None: neither a winner nor its place known)."""
    if winner_id:
        return winner_id == entry_id
    if placings and entry_id in placings:
        return placings[0] == entry_id
    return None


def _opponents(played: dict[int, tuple]) -> list[tuple[Player, Record]]:
    """The records against every opponent of the counted games ``played`` (fixture → this
    player's entry, the winner, the placings, the colours): the other seats and their
    players' names as plain values."""
    records: dict[int, tuple[Player, Record]] = {}
    others = (
        Seat.objects.filter(fixture_id__in=list(played))
        .values_list(
            "fixture_id",
            "entry_id",
            "entry__player_id",
            "entry__player__name",
            "entry__player__slug",
        )
        .order_by()
    )
    result = Result(placings=[])
    for fixture_id, entry_id, player_id, name, slug in others:
        me, winner, placings, _ = played[fixture_id]
        if entry_id == me:
            continue
        result.winner_id, result.placings = winner, placings
        _, record = records.setdefault(
            player_id, (Player(pk=player_id, name=name, slug=slug), Record())
        )
        _count_against(record, result, me, entry_id)
    return sorted(records.values(), key=lambda item: (-item[1].games, item[0].name))


def _analysed(played: dict[int, tuple], by_entry: dict[int, PlayerLeague]):
    """League id → the move analyses of the player's counted games there (only analysed
    results are read: their summaries, never the analyses' data)."""
    analysed: dict[int, AnalysedRecord] = {}
    rows = (
        with_analysis_summary(
            Result.objects.filter(
                state=Result.State.CONFIRMED,
                fixture_id__in=list(played),
                game_log__analyses__status=GameAnalysis.Status.DONE,
            ).distinct()
        )
        if played
        else []
    )
    for result in rows:
        entry_id, _, _, colours = played[result.fixture_id]
        league = by_entry[entry_id].league
        summary = seat_summary(result, league.board, colours)
        if summary:
            analysed.setdefault(league.pk, AnalysedRecord()).add(summary)
    return analysed


def _count(record: Record, won: bool | None) -> None:
    record.games += 1
    if won:
        record.won += 1


def _count_against(record: Record, result: Result, mine: int, theirs: int) -> None:
    record.games += 1
    if result.winner_id == mine:
        record.won += 1
    elif result.winner_id == theirs:
        record.other_won += 1
    placings = list(result.placings or [])
    if mine in placings and theirs in placings:
        if placings.index(mine) < placings.index(theirs):
            record.ahead += 1
        else:
            record.behind += 1


def _honours(player: Player, leagues: list[League]) -> list[Honour]:
    """Places 1–3 in the player's finished leagues (titles and medals)."""
    finished = [lg for lg in leagues if lg.status == League.Status.FINISHED]
    honours = []
    for places in final_places(finished).values():
        for p in places:
            if p.player_id == player.pk and p.place <= 3:
                honours.append(Honour(p.league, p.place))
    return sorted(honours, key=lambda h: (h.place, -h.league.created_at.timestamp()))


@dataclass
class SharedGame:
    fixture: Fixture
    result: Result
    mine: Seat
    theirs: Seat
    my_place: int | None
    their_place: int | None


@dataclass
class HeadToHead:
    player: Player
    other: Player
    record: Record
    games: list[SharedGame]


def head_to_head(player: Player, other: Player, user) -> HeadToHead:
    """Every counted game both players sat at (in leagues ``user`` may see), oldest
    first, with the record of ``player`` against ``other``."""
    leagues = visible_leagues(user)
    fixtures = (
        Fixture.objects.filter(league__in=leagues, seats__entry__player=player)
        .filter(seats__entry__player=other)
        .select_related("league")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.filter(state=Result.State.CONFIRMED).select_related(
                    "winner__player"
                ),
                to_attr="confirmed_results",
            ),
        )
        .order_by("league__created_at", "league_id", "cycle__number", "round", "number")
        .distinct()
    )
    record, games = Record(), []
    for fixture in fixtures:
        if not fixture.confirmed_results:
            continue
        result = fixture.confirmed_results[0]
        seats = {s.entry.player_id: s for s in fixture.seats.all()}
        mine, theirs = seats[player.pk], seats[other.pk]
        _count_against(record, result, mine.entry_id, theirs.entry_id)
        placings = list(result.placings or [])
        games.append(
            SharedGame(
                fixture,
                result,
                mine,
                theirs,
                placings.index(mine.entry_id) + 1 if mine.entry_id in placings else None,
                placings.index(theirs.entry_id) + 1 if theirs.entry_id in placings else None,
            )
        )
    return HeadToHead(player, other, record, games)


def _add_log_stats(stats: PlayerStats, colours, board, seat_faces, seat_stats) -> None:
    """Add the per-seat statistics stored with a log (``seat_faces``, ``seat_stats``) of the
    colours the player held; no log's text is read."""
    if board is None or not seat_stats:  # no log, or one the engine no longer read
        return
    order = list(DEFAULT_COLOURS.get(board, ()))
    stats.logged_games += 1
    for colour in colours:
        if colour not in order:
            continue
        key = str(order.index(colour))
        faces = (seat_faces or {}).get(key)
        row = seat_stats.get(key)
        if not faces or not row:
            continue
        stats.rolls += sum(faces)
        stats.sixes += faces[5]
        stats.captures += row["captures"]
        stats.captured += row["captured"]
        stats.huffed += row["huffed"]
        for k, n in enumerate(faces):
            stats.faces[k] += n
