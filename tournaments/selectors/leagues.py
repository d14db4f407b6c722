"""Read queries about leagues: look-up, the home page's list, a league's overview and
its players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from tournaments.models import (
    Entry,
    Fixture,
    League,
    Player,
)

PUBLIC_STATUSES = (League.Status.RUNNING, League.Status.PLAYOFFS, League.Status.FINISHED)


def league_get(slug: str) -> League:
    """The league with that address (raises ``League.DoesNotExist``)."""
    return League.objects.select_related("owner").get(slug=slug)


def home_leagues() -> list[League]:
    """Public leagues that are running, in their playoffs or finished; running first."""
    order = {League.Status.RUNNING: 0, League.Status.PLAYOFFS: 1, League.Status.FINISHED: 2}
    leagues = list(
        League.objects.filter(is_public=True, status__in=PUBLIC_STATUSES).annotate(
            entry_count=Count("entries", distinct=True)
        )
    )
    return sorted(leagues, key=lambda lg: (order[lg.status], -lg.created_at.timestamp()))


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


def entry_players(league: League) -> list[Player]:
    return [e.player for e in league.entries.select_related("player")]
