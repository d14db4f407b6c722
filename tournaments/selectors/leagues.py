"""Read queries about leagues: look-up, the home page's list, a league's overview and
its players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

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
            entry_count=Count(
                "entries", filter=Q(entries__state=Entry.State.ACCEPTED), distinct=True
            )
        )
    )
    for league, champion in champions(leagues).items():
        next(lg for lg in leagues if lg.pk == league).champion = champion
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
    entries = list(league.entries.filter(state=Entry.State.ACCEPTED).select_related("player"))
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
    return [
        e.player for e in league.entries.filter(state=Entry.State.ACCEPTED).select_related("player")
    ]


def league_champion(league: League) -> Player | None:
    """The champion of a finished league: the winner of the last playoff series, else
    the top of the final table."""
    from tournaments.models import Series, StandingsSnapshot

    if league.status != League.Status.FINISHED:
        return None
    final = (
        Series.objects.filter(league=league, next_series__isnull=True, winner__isnull=False)
        .select_related("winner__player")
        .order_by("-round")
        .first()
    )
    if final is not None:
        return final.winner.player
    snapshot = StandingsSnapshot.objects.filter(league=league, stage="league").first()
    row = (
        snapshot.rows.select_related("entry__player").order_by("position").first()
        if snapshot
        else None
    )
    return row.entry.player if row else None


def champions(leagues) -> dict[int, Player]:
    """League id → champion, for the finished leagues among ``leagues``."""
    out = {}
    for league in leagues:
        if league.status == League.Status.FINISHED and (champ := league_champion(league)):
            out[league.pk] = champ
    return out


def withdrawal_forfeits(entry: Entry) -> list[Fixture]:
    """The games a withdrawal would forfeit (the rule of ``entry_withdraw``): every game of
    the entry without a counted result."""
    from tournaments.models import Result

    return list(
        Fixture.objects.filter(seats__entry=entry)
        .exclude(
            status__in=[
                Fixture.Status.CONFIRMED,
                Fixture.Status.FORFEITED,
                Fixture.Status.CANCELLED,
            ]
        )
        .exclude(results__state=Result.State.CONFIRMED)
        .prefetch_related("seats__entry__player")
        .order_by("cycle__number", "round", "number")
        .distinct()
    )


def my_entries(user) -> list[Entry]:
    """The signed-in user's entries in every league (invitations, requests and accepted)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Entry.objects.filter(player__user=user)
        .select_related("league", "player")
        .order_by("-league__created_at")
    )


def my_organized(user) -> list[League]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        League.objects.filter(Q(owner=user) | Q(organizers=user)).distinct().order_by("-created_at")
    )
