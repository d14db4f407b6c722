"""Final places of finished leagues and the 3T World Rankings built from them (reads only)."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Max, QuerySet

from tournaments.algorithms.world_rankings import (
    WINDOW,
    Placing,
    Tournament,
    WorldRanking,
    world_ranking,
)
from tournaments.models import League, Player, Result, Series, StandingsRow

#: the formats whose finished leagues are triple-threat tournaments
TRIPLE_THREAT_FORMATS = ("3T", "3T+")


@dataclass(frozen=True)
class FinalPlace:
    league: League
    player_id: int
    place: int
    games_won: int


def _final_series(league_ids: list[int]) -> dict[int, Series]:
    """The last decided series (highest round) of each league: its final."""
    finals: dict[int, Series] = {}
    for series in Series.objects.filter(
        league_id__in=league_ids, status=Series.Status.DECIDED
    ).order_by("league_id", "-round", "slot"):
        finals.setdefault(series.league_id, series)
    return finals


def final_places(
    leagues: QuerySet[League] | list[League], *, wins: bool = True
) -> dict[int, list[FinalPlace]]:
    """Each finished league's final places, best first *(platform rule)*: the winner of the
    last decided playoff series first and its loser second, then everyone else in the
    order of the league-stage standings (whose rows are already ordered by every
    tie-break, so each place is held once). Also each player's games won there (every
    counted result they won, playoffs included; 0 with ``wins`` off: a page showing only
    the places reads no result). A fixed number of queries."""
    leagues = list(leagues)
    ids = [league.pk for league in leagues]
    rows: dict[int, list[tuple[int, int]]] = defaultdict(list)  # league → (entry, player)
    for league_id, entry_id, player_id in (
        StandingsRow.objects.filter(snapshot__league_id__in=ids, snapshot__stage="league")
        .order_by("snapshot__league_id", "position")
        .values_list("snapshot__league_id", "entry_id", "entry__player_id")
    ):
        rows[league_id].append((entry_id, player_id))
    won = _games_won(ids) if wins else Counter()
    finals = _final_series(ids)
    out: dict[int, list[FinalPlace]] = {}
    for league in leagues:
        player_of = dict(rows[league.pk])
        order = _final_order([entry for entry, _ in rows[league.pk]], finals.get(league.pk))
        out[league.pk] = [
            FinalPlace(league, player_of[entry], place, won.get(entry, 0))
            for place, entry in enumerate(order, start=1)
        ]
    return out


def _games_won(league_ids: list[int]) -> Counter[int]:
    """Entry → its counted wins in the leagues (playoffs included), in one query."""
    return Counter(
        Result.objects.filter(
            fixture__league_id__in=league_ids, state=Result.State.CONFIRMED, winner__isnull=False
        ).values_list("winner_id", flat=True)
    )


def _final_order(order: list[int], final) -> list[int]:
    """The table's order of entries with the last playoff series' winner first and its
    loser second (where they are in the table)."""
    if final is None or final.winner_id not in order:
        return order
    loser = final.lower_id if final.winner_id == final.higher_id else final.higher_id
    top = [final.winner_id] + ([loser] if loser in order else [])
    return top + [e for e in order if e not in top]


def finished_leagues() -> QuerySet[League]:
    return League.objects.filter(status=League.Status.FINISHED, is_public=True)


def ranking_tournaments() -> list[Tournament]:
    """Every finished, public triple-threat league with a ranking level, as the rankings'
    ``Tournament`` records, by date (the day its last result counted), then id."""
    ranked = finished_leagues().filter(
        format__in=TRIPLE_THREAT_FORMATS, ranking_level__isnull=False
    )
    if getattr(settings, "RATED_LEAGUES", "sanctioned") != "all":
        ranked = ranked.filter(rated=True)  # only rated leagues count (docs/ratings.md)
    leagues = list(ranked.annotate(ended=Max("fixtures__results__decided_at")).order_by("pk"))
    places = final_places(leagues)
    tournaments = [_tournament(lg, places[lg.pk]) for lg in leagues if places[lg.pk]]
    tournaments.sort(key=lambda t: (t.date, t.tournament_id))
    return tournaments


def _tournament(league: League, places: list[FinalPlace]) -> Tournament:
    """A ranked league as the rankings' record: dated the day its last result counted."""
    ended = league.ended or league.created_at
    return Tournament(
        tournament_id=league.pk,
        date=ended.date(),
        level=league.ranking_level,
        placings=tuple(Placing(p.player_id, p.place, p.games_won) for p in places),
        world_championship=league.world_championship,
        major=league.major,
        name=league.name,
    )


@dataclass
class RankingPage:
    ranking: WorldRanking
    players: dict[int, Player]
    leagues: dict[int, League]
    as_of: dt.date | None


def world_rankings(as_of: dt.date | None = None, window: int = WINDOW) -> RankingPage:
    """The 3T World Rankings (at ``as_of``, default today) with the players and leagues
    their rows name."""
    tournaments = ranking_tournaments()
    ranking = world_ranking(tournaments, window=window, as_of=as_of)
    ids = {row.player for row in ranking.rows}
    players = Player.objects.in_bulk(ids)
    leagues = League.objects.in_bulk([t.tournament_id for t in ranking.tournaments])
    return RankingPage(ranking, players, leagues, as_of)
