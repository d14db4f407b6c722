"""Playoff series by round with their scores (a head start included): one ``series_score``
for the pages and the API."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from tournaments.algorithms import brackets
from tournaments.models import Fixture, League, Result, Series
from tournaments.selectors.prefetch import confirmed_prefetch, seats_prefetch


def series_with_games(series: QuerySet[Series]) -> QuerySet[Series]:
    """Series with their players and games (seats and counted results) in three queries."""
    return series.select_related(
        "higher__player", "lower__player", "winner__player"
    ).prefetch_related(
        Prefetch(
            "fixtures",
            queryset=Fixture.objects.prefetch_related(
                seats_prefetch(), confirmed_prefetch()
            ).order_by("number"),
        )
    )


def series_score(
    series: Series, games: Iterable[Fixture] | None = None
) -> brackets.SeriesState | None:
    """The series' current score (head start included); ``None`` until both players are
    known. ``games`` are its fixtures with ``confirmed_results`` prefetched
    (``series_with_games``); without them the counted results are read (one query)."""
    if series.higher_id is None or series.lower_id is None:
        return None
    return brackets.series_state(
        _winners(series, games),
        higher=series.higher_id,
        lower=series.lower_id,
        first_to=series.first_to,
        head_start=int(series.head_start),
    )


def _winners(series: Series, games: Iterable[Fixture] | None) -> list[int]:
    """The winners of the series' counted games, in game order (read where ``games`` with
    their counted results are not given)."""
    if games is None:
        results = Result.objects.filter(
            fixture__series=series, state=Result.State.CONFIRMED
        ).order_by("fixture__number")
    else:
        ordered = sorted(games, key=lambda g: g.number)
        results = [r for game in ordered for r in game.confirmed_results]
    return [r.winner_id for r in results if r.winner_id]


@dataclass
class SeriesView:
    series: Series
    state: brackets.SeriesState | None
    games: list[Fixture]

    @property
    def head_start(self) -> bool:
        return bool(
            self.series.head_start and self.series.head_start_rule and self.series.higher_id
        )

    @property
    def higher_score(self) -> int:
        if self.state is not None:
            return self.state.higher_score
        return 1 if self.head_start else 0

    @property
    def lower_score(self) -> int:
        return self.state.lower_score if self.state is not None else 0

    #: a player placed straight into this series (a bye in the round before)
    byes: tuple[int, ...] = ()
    #: this series' winner moves on to a next series (a line to the next round)
    feeds: bool = False
    #: where the series sits in the bracket's grid: first row and rows spanned (a series
    #: of round r spans 2^(r-1) rows of round 1), and which of its two feeder slots of
    #: the round before hold a series ("both", "top", "bottom" or "" for none)
    row_start: int = 1
    row_span: int = 1
    fed: str = ""


def playoffs(league: League) -> list[tuple[int, list[SeriesView]]]:
    """Playoff series by round, with scores (the higher seed's 1–0 head start included)."""
    rounds: dict[int, list[SeriesView]] = defaultdict(list)
    every = list(series_with_games(league.series.all()))
    feeders: dict[int, int] = defaultdict(int)
    for s in every:
        if s.next_series_id:
            feeders[s.next_series_id] += 1
    for s in every:
        games = list(s.fixtures.all())
        view = SeriesView(series=s, state=series_score(s, games), games=games)
        view.byes = _byes(s, feeders[s.pk])
        view.feeds = s.next_series_id is not None
        view.row_span = 2 ** (s.round - 1)
        view.row_start = s.slot * view.row_span + 1
        view.fed = _fed(s, {x.slot for x in every if x.round == s.round - 1})
        rounds[s.round].append(view)
    return sorted(rounds.items())


def _byes(series: Series, feeders: int) -> tuple[int, ...]:
    """The seeds placed straight into a later round's series: those it has beyond the
    winners of its (fewer than two) feeder series."""
    if series.round == 1 or feeders >= 2:
        return ()
    return tuple(n for n in (series.higher_seed, series.lower_seed) if n)[: 2 - feeders]


#: which feeder slots of the round before hold a series (top, bottom) → ``SeriesView.fed``
FED = {(True, True): "both", (True, False): "top", (False, True): "bottom", (False, False): ""}


def _fed(series: Series, below: set[int]) -> str:
    return FED[(2 * series.slot in below, 2 * series.slot + 1 in below)]
