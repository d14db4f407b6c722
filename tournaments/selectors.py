"""Read queries of the public pages. Views call these and render; nothing here writes.

Every selector fetches what its page shows in a fixed number of queries (select_related /
prefetch_related), whatever the size of the league; the page tests hold them to it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Prefetch, Q, QuerySet

from games.engine.board import DEFAULT_COLOURS
from games.models import GameLog
from games.stats import log_stats, stats_cache_key
from tournaments.models import (
    Entry,
    Fixture,
    League,
    Player,
    RejectedSubmission,
    Result,
    Seat,
    Series,
    StandingsRow,
    StandingsSnapshot,
)

PUBLIC_STATUSES = (League.Status.RUNNING, League.Status.PLAYOFFS, League.Status.FINISHED)
STAGE_ORDER = {"league": 0}
#: metrics the table shows in fixed columns (played, won, lost)
FIXED_COLUMNS = {"games_played", "wins", "losses"}
POINTS_METRICS = ("gp_points", "gp_plus_points", "placement_points")


def _seats() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))


def _confirmed() -> Prefetch:
    return Prefetch(
        "results",
        queryset=Result.objects.filter(state=Result.State.CONFIRMED)
        .select_related("winner__player")
        .defer("reason", "decision_note"),
        to_attr="confirmed_results",
    )


def visible_leagues(user) -> QuerySet[League]:
    """The leagues ``user`` may see (the rule of ``tournaments.permissions.can_view`` as a
    query): public ones, and private ones they organize, own or play in."""
    leagues = League.objects.all()
    if not getattr(user, "is_authenticated", False):
        return leagues.filter(is_public=True)
    if user.is_staff:
        return leagues
    return leagues.filter(
        Q(is_public=True) | Q(owner=user) | Q(organizers=user) | Q(entries__player__user=user)
    ).distinct()


def league_get(slug: str) -> League:
    """The league with that address (raises ``League.DoesNotExist``)."""
    return League.objects.select_related("owner").get(slug=slug)


# --- home ----------------------------------------------------------------------------------------


def home_leagues() -> list[League]:
    """Public leagues that are running, in their playoffs or finished; running first."""
    order = {League.Status.RUNNING: 0, League.Status.PLAYOFFS: 1, League.Status.FINISHED: 2}
    leagues = list(
        League.objects.filter(is_public=True, status__in=PUBLIC_STATUSES).annotate(
            entry_count=Count("entries", distinct=True)
        )
    )
    return sorted(leagues, key=lambda lg: (order[lg.status], -lg.created_at.timestamp()))


def latest_results(limit: int = 10) -> list[Result]:
    """The newest confirmed results of public leagues."""
    return list(
        Result.objects.filter(state=Result.State.CONFIRMED, fixture__league__is_public=True)
        .select_related("fixture__league", "winner__player", "game_log")
        .defer("game_log__content")
        .prefetch_related(Prefetch("fixture__seats", Seat.objects.select_related("entry__player")))
        .order_by("-decided_at", "-created_at")[:limit]
    )


# --- league --------------------------------------------------------------------------------------


@dataclass
class LeagueOverview:
    league: League
    entries: list[Entry]
    organizers: list[Any]
    fixture_counts: dict[str, int]
    games_total: int
    games_counted: int


def league_overview(league: League) -> LeagueOverview:
    entries = list(league.entries.select_related("player"))
    organizers = list(league.organizers.all())
    if league.owner not in organizers:
        organizers.insert(0, league.owner)
    counts = dict(
        league.fixtures.values_list("status").annotate(n=Count("id")).values_list("status", "n")
    )
    counted = counts.get(Fixture.Status.CONFIRMED, 0) + counts.get(Fixture.Status.FORFEITED, 0)
    total = sum(n for s, n in counts.items() if s != Fixture.Status.CANCELLED)
    return LeagueOverview(league, entries, organizers, counts, total, counted)


# --- schedule ------------------------------------------------------------------------------------


@dataclass
class ScheduleRound:
    number: int
    fixtures: list[Fixture] = field(default_factory=list)


@dataclass
class ScheduleBlock:
    """One DRR (``cycle``) or one playoff series, with its games by round."""

    title_kind: str  # "cycle" | "series" | "other"
    number: int | None
    name: str
    rounds: list[ScheduleRound] = field(default_factory=list)
    obj: Any = None


def schedule(league: League, player: Player | None = None) -> list[ScheduleBlock]:
    """The league's games by DRR and round (then playoff series), each with its seats and
    confirmed result. With ``player``, only that player's games."""
    fixtures = (
        league.fixtures.select_related("cycle", "series")
        .prefetch_related(_seats(), _confirmed())
        .order_by("cycle__number", "series__round", "series__slot", "round", "number", "id")
    )
    if player is not None:
        fixtures = fixtures.filter(seats__entry__player=player)
    blocks: dict[tuple, ScheduleBlock] = {}
    for fixture in fixtures:
        if fixture.cycle_id:
            key = (0, fixture.cycle.number, 0)
            block = blocks.get(key) or ScheduleBlock(
                "cycle", fixture.cycle.number, "", obj=fixture.cycle
            )
        elif fixture.series_id:
            s = fixture.series
            key = (1, s.round, s.slot)
            block = blocks.get(key) or ScheduleBlock("series", s.round, s.name, obj=s)
        else:
            key = (2, 0, 0)
            block = blocks.get(key) or ScheduleBlock("other", None, "")
        blocks[key] = block
        if not block.rounds or block.rounds[-1].number != fixture.round:
            block.rounds.append(ScheduleRound(fixture.round))
        block.rounds[-1].fixtures.append(fixture)
    return [blocks[k] for k in sorted(blocks)]


def entry_players(league: League) -> list[Player]:
    return [e.player for e in league.entries.select_related("player")]


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsStamp:
    """What the standings of a league depend on, read in one query: enough to answer a
    conditional request (304) without loading the table."""

    league_id: int
    is_public: bool
    snapshots: int
    revision: int | None
    computed_at: datetime | None

    @property
    def etag(self) -> str:
        at = self.computed_at.timestamp() if self.computed_at else 0
        return f"{self.league_id}-{self.snapshots}-{self.revision or 0}-{at:.6f}"


STAMP_SQL = """
SELECT l.id, l.is_public, COUNT(s.id), MAX(s.results_revision),
       EXTRACT(EPOCH FROM MAX(s.computed_at))
FROM tournaments_league l LEFT JOIN tournaments_standingssnapshot s ON s.league_id = l.id
WHERE l.slug = %s GROUP BY l.id, l.is_public
"""


def standings_stamp(slug: str) -> StandingsStamp | None:
    """Asked on every standings visit and poll, so on PostgreSQL it is one prepared-looking
    SQL statement rather than an ORM query compiled each time (a third of a cached page's
    cost)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(STAMP_SQL, [slug])
            found = cursor.fetchone()
        if found is None:
            return None
        league_id, is_public, count, revision, epoch = found
        at = datetime.fromtimestamp(float(epoch), tz=UTC) if epoch is not None else None
        return StandingsStamp(league_id, is_public, count, revision, at)
    row = (
        League.objects.filter(slug=slug)
        .annotate(
            n=Count("snapshots"),
            rev=Max("snapshots__results_revision"),
            at=Max("snapshots__computed_at"),
        )
        .values_list("pk", "is_public", "n", "rev", "at")
        .first()
    )
    return None if row is None else StandingsStamp(*row)


def standings_tables(league: League) -> list[StandingsSnapshot]:
    """The league's newest snapshot per stage ("league" first), rows in table order."""
    snapshots = list(
        league.snapshots.prefetch_related(
            Prefetch(
                "rows",
                queryset=StandingsRow.objects.select_related("entry__player").order_by("position"),
            )
        )
    )
    snapshots.sort(key=lambda s: (STAGE_ORDER.get(s.stage, 1), s.stage))
    for snap in snapshots:
        rows = list(snap.rows.all())
        snap.metric_keys = metric_columns(snap)
        # StandingsRow.points holds the wins where the league scores no points
        snap.show_points = any(k in POINTS_METRICS for k in snap.precedence or []) and not any(
            k in snap.metric_keys for k in POINTS_METRICS
        )
        snap.show_separated = any(row.separated_by for row in rows)
    return snapshots


def metric_columns(snapshot: StandingsSnapshot) -> list[str]:
    """Metric keys to show as columns: the precedence order first, then the others."""
    seen: dict[str, None] = {}
    for row in snapshot.rows.all():
        for key in row.metrics or {}:
            if key not in FIXED_COLUMNS:
                seen.setdefault(key)
    precedence = [k for k in (snapshot.precedence or []) if k in seen]
    return precedence + sorted(k for k in seen if k not in precedence)


# --- playoffs ------------------------------------------------------------------------------------


@dataclass
class SeriesView:
    series: Series
    higher_wins: int
    lower_wins: int
    head_start: bool
    games: list[Fixture]

    @property
    def higher_score(self) -> int:
        return self.higher_wins + (1 if self.head_start else 0)

    @property
    def lower_score(self) -> int:
        return self.lower_wins


def playoffs(league: League) -> list[tuple[int, list[SeriesView]]]:
    """Playoff series by round, with scores (the higher seed's 1–0 head start included)."""
    series = league.series.select_related(
        "higher__player", "lower__player", "winner__player"
    ).prefetch_related(
        Prefetch(
            "fixtures",
            queryset=Fixture.objects.prefetch_related(_seats(), _confirmed()).order_by("number"),
        )
    )
    rounds: dict[int, list[SeriesView]] = defaultdict(list)
    for s in series:
        games = list(s.fixtures.all())
        wins: Counter[int] = Counter()
        for game in games:
            for result in game.confirmed_results:
                if result.winner_id:
                    wins[result.winner_id] += 1
        view = SeriesView(
            series=s,
            higher_wins=wins.get(s.higher_id, 0) if s.higher_id else 0,
            lower_wins=wins.get(s.lower_id, 0) if s.lower_id else 0,
            head_start=bool(s.head_start and s.head_start_rule and s.higher_id),
            games=games,
        )
        rounds[s.round].append(view)
    return sorted(rounds.items())


# --- a game --------------------------------------------------------------------------------------


def fixture_get(pk: int) -> Fixture:
    """A game with its league, seats and every result version (raises ``DoesNotExist``)."""
    return (
        Fixture.objects.select_related("league__owner", "cycle", "series")
        .prefetch_related(
            _seats(),
            Prefetch(
                "results",
                queryset=Result.objects.select_related(
                    "winner__player",
                    "submitted_by",
                    "decided_by",
                    "forfeit_loser__player",
                    "game_log",
                )
                .defer("game_log__content")
                .order_by("-created_at", "-id"),
                to_attr="all_results",
            ),
        )
        .get(pk=pk)
    )


def current_result(fixture: Fixture) -> Result | None:
    """The version that counts, else the one awaiting a decision, else None."""
    results = fixture.all_results
    for state in (Result.State.CONFIRMED, Result.State.PENDING, Result.State.DISPUTED):
        for result in results:
            if result.state == state:
                return result
    return None


def fixture_rejections(fixture: Fixture, limit: int = 10) -> list[RejectedSubmission]:
    return list(fixture.rejections.select_related("submitted_by")[:limit])


def fixture_log(fixture: Fixture, log_id: int) -> GameLog:
    """A log submitted for this game (any version); raises ``GameLog.DoesNotExist``."""
    return GameLog.objects.filter(pk=log_id, results__fixture=fixture).distinct().get()


def seat_players(fixture: Fixture) -> dict[int, str]:
    """Board seat number → the name of the player holding that colour in this game."""
    colours = list(DEFAULT_COLOURS[fixture.league.board])
    out = {}
    for seat in fixture.seats.all():
        for colour in seat.colours:
            if colour in colours:
                out[colours.index(colour)] = seat.entry.player.name
    return out


# --- a player ------------------------------------------------------------------------------------


@dataclass
class PlayerGame:
    fixture: Fixture
    seat: Seat
    result: Result | None
    won: bool | None
    place: int | None


@dataclass
class PlayerLeague:
    league: League
    entry: Entry
    games: list[PlayerGame] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.won)

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

    @property
    def rolls_per_game(self) -> float | None:
        return self.rolls / self.logged_games if self.logged_games else None

    @property
    def six_rate(self) -> float | None:
        return self.sixes / self.rolls if self.rolls else None


@dataclass
class PlayerPage:
    player: Player
    leagues: list[PlayerLeague]
    colours: list[tuple[tuple[str, ...], int]]
    stats: PlayerStats


def player_get(slug: str) -> Player:
    return Player.objects.get(slug=slug)


def player_page(player: Player, user) -> PlayerPage:
    """A player's leagues (those ``user`` may see), games with counted results, the colours
    they held and statistics from the logs of those games."""
    leagues = visible_leagues(user)
    entries = list(
        Entry.objects.filter(player=player, league__in=leagues)
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
                queryset=Result.objects.filter(state=Result.State.CONFIRMED)
                .select_related("winner__player", "game_log")
                .defer("game_log__content"),
                to_attr="confirmed_results",
            ),
        )
        .order_by("fixture__league", "fixture__cycle__number", "fixture__round", "fixture__number")
    )
    by_entry = {e.pk: PlayerLeague(e.league, e) for e in entries}
    colours: Counter[tuple[str, ...]] = Counter()
    logs: list[tuple[GameLog, Seat]] = []
    for seat in seats:
        fixture = seat.fixture
        result = fixture.confirmed_results[0] if fixture.confirmed_results else None
        colours[tuple(seat.colours)] += 1
        won = place = None
        if result is not None:
            won = result.winner_id == seat.entry_id if result.winner_id else None
            if result.placings and seat.entry_id in result.placings:
                place = result.placings.index(seat.entry_id) + 1
            if won is None and place is not None:
                won = place == 1
            if result.game_log_id:
                logs.append((result.game_log, seat))
        by_entry[seat.entry_id].games.append(PlayerGame(fixture, seat, result, won, place))
    return PlayerPage(
        player=player,
        leagues=list(by_entry.values()),
        colours=colours.most_common(),
        stats=_player_stats(logs),
    )


def _player_stats(logs: list[tuple[GameLog, Seat]]) -> PlayerStats:
    """Sum the per-colour statistics of each log over the colours the player held. Cached
    per log; only logs not in the cache are loaded (their text can be large)."""
    stats = PlayerStats()
    if not logs:
        return stats
    shas = {log.sha256 for log, _ in logs}
    found = cache.get_many([stats_cache_key(sha) for sha in shas])
    per_log: dict[str, dict[int, dict[str, int]]] = {
        sha: {int(k): v for k, v in found[stats_cache_key(sha)].items()}
        for sha in shas
        if stats_cache_key(sha) in found
    }
    missing = shas - set(per_log)
    if missing:
        for sha, content in GameLog.objects.filter(sha256__in=missing).values_list(
            "sha256", "content"
        ):
            try:
                per_log[sha] = log_stats(content)
            except ValueError:  # a stored log the current engine refuses: no statistics
                continue
    for log, seat in logs:
        table = per_log.get(log.sha256)
        if table is None:
            continue
        colours = list(DEFAULT_COLOURS.get(log.board, ()))
        stats.logged_games += 1
        for colour in seat.colours:
            if colour not in colours:
                continue
            row = table.get(colours.index(colour))
            if not row:
                continue
            stats.rolls += row["rolls"]
            stats.sixes += row["sixes"]
            stats.captures += row["captures"]
            stats.captured += row["captured"]
            stats.huffed += row["huffed"]
    return stats
