"""A player's page: their leagues, games and log statistics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Prefetch

from games.engine.board import DEFAULT_COLOURS
from games.models import GameLog
from tournaments.algorithms.ratings import Rating, is_provisional
from tournaments.models import (
    Entry,
    Fixture,
    League,
    Player,
    PlayerRating,
    RatingChange,
    Result,
    Seat,
)
from tournaments.ratings_config import PLATFORM_RATINGS
from tournaments.selectors.analyses import (
    AnalysedRecord,
    DiceView,
    dice_view,
    seat_summary,
    with_analysis_summary,
)
from tournaments.selectors.rankings import final_places
from tournaments.selectors.ratings import Chart, rating_chart, rating_history
from tournaments.selectors.visibility import visible_leagues

#: a player's page lists this many games per league, rating changes and opponents (the
#: schedule filtered by the player and the API have the rest): bounded, whatever the history
GAMES_SHOWN = 10
CHANGES_SHOWN = 20
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

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.won)

    @property
    def recent_games(self) -> list[PlayerGame]:
        """The last :data:`GAMES_SHOWN` games (the page's table; the schedule has all)."""
        return self.games[-GAMES_SHOWN:]

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.won is False)


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
    rating: PlayerRating | None = None
    rating_changes: list[RatingChange] = field(default_factory=list)
    chart: Chart | None = None
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
    def provisional(self) -> bool:
        return self.rating is not None and is_provisional(
            Rating(self.rating.mu, self.rating.sigma), PLATFORM_RATINGS
        )

    @property
    def recent_changes(self) -> list[RatingChange]:
        return self.rating_changes[-CHANGES_SHOWN:]

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
    they held and statistics from the logs of those games."""
    leagues = visible_leagues(user)
    entries = list(
        Entry.objects.filter(player=player, league__in=leagues, state=Entry.State.ACCEPTED)
        .select_related("league")
        .order_by("-league__created_at")
    )
    seats = list(
        Seat.objects.filter(entry__in=entries)
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
    by_entry = {e.pk: PlayerLeague(e.league, e) for e in entries}
    colours: Counter[tuple[str, ...]] = Counter()
    logs: list[tuple[GameLog, Seat]] = []
    opponents: dict[int, tuple[Player, Record]] = {}
    at_seat: dict[int, Record] = {}
    started = Record()
    analysed: dict[int, AnalysedRecord] = {}
    for seat in seats:
        fixture = seat.fixture
        result = fixture.confirmed_results[0] if fixture.confirmed_results else None
        colours[tuple(seat.colours)] += 1
        won = place = luck_adjusted = None
        if result is not None:
            won = result.winner_id == seat.entry_id if result.winner_id else None
            if result.placings and seat.entry_id in result.placings:
                place = result.placings.index(seat.entry_id) + 1
            if won is None and place is not None:
                won = place == 1
            if result.game_log_id:
                logs.append((result.game_log, seat))
                summary = seat_summary(result, by_entry[seat.entry_id].league.board, seat.colours)
                if summary:
                    analysed.setdefault(fixture.league_id, AnalysedRecord()).add(summary)
                    luck_adjusted = (summary.get("luck") or {}).get("luck_adjusted")
            _count(at_seat.setdefault(seat.position, Record()), won)
            if fixture.starting_colour in seat.colours:
                _count(started, won)
            for other in fixture.seats.all():
                if other.entry_id == seat.entry_id:
                    continue
                _, record = opponents.setdefault(
                    other.entry.player_id, (other.entry.player, Record())
                )
                _count_against(record, result, seat.entry_id, other.entry_id)
        by_entry[seat.entry_id].games.append(
            PlayerGame(fixture, seat, result, won, place, luck_adjusted)
        )
    changes = list(rating_history(player, user))
    return PlayerPage(
        player=player,
        leagues=list(by_entry.values()),
        colours=colours.most_common(),
        stats=_player_stats(logs),
        rating=_rating_of(player),
        rating_changes=changes,
        chart=rating_chart(changes),
        honours=_honours(player, [e.league for e in entries]),
        opponents=sorted(opponents.values(), key=lambda item: (-item[1].games, item[0].name)),
        seats=sorted(at_seat.items()),
        started=started,
        analysed=analysed,
    )


def _rating_of(player: Player) -> PlayerRating | None:
    try:
        return player.rating  # selected with the player by player_get
    except PlayerRating.DoesNotExist:
        return None


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


def _player_stats(logs: list[tuple[GameLog, Seat]]) -> PlayerStats:
    """Sum the per-seat statistics stored with each log (``seat_faces``, ``seat_stats``)
    over the colours the player held; no log's text is read."""
    stats = PlayerStats()
    for log, seat in logs:
        if not log.seat_stats:  # a log the engine no longer read when it was migrated
            continue
        colours = list(DEFAULT_COLOURS.get(log.board, ()))
        stats.logged_games += 1
        for colour in seat.colours:
            if colour not in colours:
                continue
            key = str(colours.index(colour))
            faces = log.seat_faces.get(key)
            row = log.seat_stats.get(key)
            if not faces or not row:
                continue
            stats.rolls += sum(faces)
            stats.sixes += faces[5]
            stats.captures += row["captures"]
            stats.captured += row["captured"]
            stats.huffed += row["huffed"]
            for k, n in enumerate(faces):
                stats.faces[k] += n
    return stats
