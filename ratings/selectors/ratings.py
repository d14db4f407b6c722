"""Reading ratings: the ratings table with its filters, a player's rating history and chart,
ratings next to names, and win predictions for scheduled games."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.db.models import Exists, F, OuterRef, QuerySet, Window
from django.db.models.functions import Rank
from django.utils import timezone

from ratings.algorithms import Rating, is_provisional, predict_win
from ratings.config import PLATFORM_RATINGS
from ratings.models import PlayerRating, RatingChange
from tournaments.formats import FORMAT_CHOICES
from tournaments.models import Fixture, Player
from tournaments.selectors.visibility import visible_leagues

FORMATS = tuple(code for code, _ in FORMAT_CHOICES)
BOARDS = (4, 6)
#: a player's page lists this many rating changes (the API has the rest): bounded, whatever
#: the history
CHANGES_SHOWN = 20


class FilterError(ValueError):
    """A ratings-table filter value that is not one of the allowed ones."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class RatingFilters:
    format: str | None = None
    board: int | None = None
    active_months: int | None = None

    @classmethod
    def parse(cls, params) -> RatingFilters:
        """From query parameters ``format`` (or ``game_format``: the API's name, as DRF
        keeps ``?format=`` for choosing a renderer), ``board``, ``active`` (months); a bad
        value raises :class:`FilterError` naming the parameter."""
        return cls(_format_filter(params), _board_filter(params), _active_filter(params))


def _given(params, name: str) -> str | None:
    return (params.get(name) or "").strip() or None


def _format_filter(params) -> str | None:
    name = "game_format" if params.get("game_format") else "format"
    fmt = _given(params, name)
    if fmt is not None and fmt not in FORMATS:
        raise FilterError(name, f"{name} must be one of {', '.join(FORMATS)}")
    return fmt


def _board_filter(params) -> int | None:
    board = _given(params, "board")
    if board is None:
        return None
    if board not in {str(b) for b in BOARDS}:
        raise FilterError("board", "board must be 4 or 6")
    return int(board)


def _active_filter(params) -> int | None:
    """Months: a whole number from 1 to 120 (ASCII digits only)."""
    active = _given(params, "active")
    if active is None:
        return None
    if not (active.isascii() and active.isdigit()) or not 1 <= int(active) <= 120:
        raise FilterError("active", "active must be a number of months from 1 to 120")
    return int(active)


@dataclass(frozen=True)
class RatingRow:
    rank: int
    player: Player
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool
    last_played_at: dt.datetime | None


#: rows on one page of the ratings table (the page; the API has its own page size)
RATINGS_PER_PAGE = 50


class _ProbedExists(Exists):
    """``EXISTS`` evaluated once per outer row, as an index probe, whatever the statistics
    say: ``OFFSET 0`` is a documented optimisation fence — PostgreSQL does not pull a
    sub-select with an offset up into a semi-join — so the plan cannot become a hash join
    over the whole history (the ratings page at 100×: 642–740 ms of a scan of the
    ``ratingchange`` table, docs/performance.md). Each probe walks the player's history
    rows on the (player, sequence) index until the first that qualifies: almost always the
    first for "a public game", so 1,779 probes cost 57 ms at 100×. Used for the unfiltered
    table only: for a format, a board or recent months a probe may walk a player's whole
    history before it gives up (4.1 s for "3T" at 100×, where the planner's semi-join
    takes 62 ms), so those keep the planner's choice."""

    template = "EXISTS(%(subquery)s OFFSET 0)"


def ratings_queryset(filters: RatingFilters = RatingFilters()) -> QuerySet[PlayerRating]:
    """Every rated player, best displayed rating first, ranked in SQL (``RANK() OVER``: a
    tie shares a rank, the next rank skips), so a page of it costs one page of rows. The
    filters keep the players who played a rated game of that format / on that board / in
    the last N months (in public leagues: a private league's games move the one global
    rating but are never listed); the rank is among the players kept."""
    played = RatingChange.objects.filter(
        player_id=OuterRef("player_id"), fixture__league__is_public=True
    )
    if filters.format:
        played = played.filter(fixture__league__format=filters.format)
    if filters.board:
        played = played.filter(fixture__league__board=filters.board)
    if filters.active_months:
        since = timezone.now() - dt.timedelta(days=round(30.44 * filters.active_months))
        played = played.filter(played_at__gte=since)
    return (
        PlayerRating.objects.filter(
            Exists(played) if filters != RatingFilters() else _ProbedExists(played)
        )
        .select_related("player")
        .annotate(rank=Window(Rank(), order_by=F("display").desc()))
        .order_by("-display", "player__name", "pk")
    )


def rating_row(r: PlayerRating) -> RatingRow:
    """A row of the table from a rating of :func:`ratings_queryset` (its ``rank``)."""
    return RatingRow(
        rank=r.rank,
        player=r.player,
        rating=r.display,
        mu=r.mu,
        sigma=r.sigma,
        games=r.games,
        provisional=is_provisional(Rating(r.mu, r.sigma), PLATFORM_RATINGS),
        last_played_at=r.last_played_at,
    )


def ratings_page(filters: RatingFilters, page, per_page: int | None = None):
    """One page (a Django ``Page`` of :class:`RatingRow`) of the ratings table: two
    queries (the count, the page) whatever the number of rated players."""
    page_obj = Paginator(ratings_queryset(filters), per_page or RATINGS_PER_PAGE).get_page(page)
    page_obj.object_list = [rating_row(r) for r in page_obj.object_list]
    return page_obj


def ratings_table(filters: RatingFilters = RatingFilters()):
    """Every row of the table, streamed (the CSV export: an explicit export is whole)."""
    return (rating_row(r) for r in ratings_queryset(filters).iterator(chunk_size=500))


def ratings_by_player(player_ids) -> dict[int, PlayerRating]:
    """Current ratings of these players (one query), for ratings next to names."""
    return {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=set(player_ids))}


def rating_history(player: Player, user) -> QuerySet[RatingChange]:
    """The player's rating changes in games of leagues ``user`` may see, in order."""
    return (
        RatingChange.objects.filter(player=player, fixture__league__in=visible_leagues(user))
        .select_related("fixture__league")
        .order_by("sequence")
    )


@dataclass(frozen=True)
class Chart:
    """A server-rendered line chart of the displayed rating, game by game."""

    width: int
    height: int
    points: str
    dots: tuple[tuple[float, float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    low: int
    high: int
    games: int


#: the most points a rating chart draws (a long history is sampled: bounded bytes)
CHART_POINTS = 120


def rating_chart(changes: list[RatingChange], width: int = 600, height: int = 200) -> Chart | None:
    """SVG coordinates for the history: the start (before the first game), then the rating
    after each game. ``None`` with no games."""
    if not changes:
        return None
    values = [changes[0].display_before, *(c.display_after for c in changes)]
    if len(values) > CHART_POINTS:  # a point per game up to that many, then evenly sampled
        step = (len(values) - 1) / (CHART_POINTS - 1)
        values = [values[round(i * step)] for i in range(CHART_POINTS)]
    low, high = min(values), max(values)
    pad = max(10, (high - low) // 10)
    low, high = low - pad, high + pad
    left, right, top, bottom = 48, 8, 8, 20
    span_x = max(1, len(values) - 1)
    xs = [left + (width - left - right) * i / span_x for i in range(len(values))]

    def y(value: float) -> float:
        return round(top + (height - top - bottom) * (high - value) / (high - low), 1)

    points = " ".join(f"{round(x, 1)},{y(v)}" for x, v in zip(xs, values, strict=True))
    step = max(1, round((high - low) / 4 / 10) * 10)
    first = (low // step + 1) * step
    ticks = tuple((y(v), v) for v in range(first, high, step))
    dots = tuple((round(x, 1), y(v), v) for x, v in zip(xs, values, strict=True))
    if len(dots) > 60:  # a dot per game only while they do not merge into a line
        dots = (dots[-1],)
    return Chart(width, height, points, dots, ticks, low, high, len(changes))


@dataclass(frozen=True)
class Prediction:
    player: Player
    rating: int | None
    provisional: bool
    probability: float


def fixture_prediction(fixture: Fixture) -> list[Prediction] | None:
    """Win probabilities for a game still to be played, from the current ratings (unrated
    players count with a new player's rating), in seat order; ``None`` once it has a
    result or is cancelled."""
    if fixture.status != Fixture.Status.SCHEDULED:
        return None
    players = [seat.entry.player for seat in fixture.seats.all()]
    if len(players) < 2:
        return None
    ratings = ratings_by_player(p.pk for p in players)
    current = {p: Rating(r.mu, r.sigma) for p, r in ratings.items()}
    probabilities = predict_win(current, [p.pk for p in players], PLATFORM_RATINGS)
    return [
        Prediction(
            player=p,
            rating=ratings[p.pk].display if p.pk in ratings else None,
            provisional=(p.pk not in ratings) or is_provisional(current[p.pk], PLATFORM_RATINGS),
            probability=probabilities[p.pk],
        )
        for p in players
    ]


@dataclass(frozen=True)
class _Change:
    """A rating change as the chart reads it."""

    display_before: int
    display_after: int


@dataclass
class PlayerRatingView:
    """A player's rating on their page: the current rating (``None`` before their first
    rated game), the last :data:`CHANGES_SHOWN` changes (``changes_total`` in all) in
    leagues the visitor may see, and the chart of them all."""

    rating: PlayerRating | None = None
    changes: list[RatingChange] = field(default_factory=list)
    changes_total: int = 0
    chart: Chart | None = None

    @property
    def provisional(self) -> bool:
        return self.rating is not None and is_provisional(
            Rating(self.rating.mu, self.rating.sigma), PLATFORM_RATINGS
        )

    @property
    def recent_changes(self) -> list[RatingChange]:
        return self.changes[-CHANGES_SHOWN:]

    @property
    def more_changes(self) -> bool:
        return self.changes_total > len(self.recent_changes)


def player_rating_view(player: Player, user) -> PlayerRatingView:
    """The rating part of a player's page (``player`` read with its rating:
    ``tournaments.selectors.players.player_get``)."""
    history = rating_history(player, user)
    # the chart from two integers per game; objects only for the changes listed
    points = [_Change(*row) for row in history.values_list("display_before", "display_after")]
    changes = list(reversed(history.order_by("-sequence")[:CHANGES_SHOWN]))
    return PlayerRatingView(
        rating=_rating_of(player),
        changes=changes,
        changes_total=len(points),
        chart=rating_chart(points),
    )


def _rating_of(player: Player) -> PlayerRating | None:
    try:
        return player.rating  # selected with the player by player_get
    except PlayerRating.DoesNotExist:
        return None
