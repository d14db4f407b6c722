"""Which leagues, fixtures, results, series and entries a user may see: the rule of
``tournaments.permissions.can_view`` as queries. A private league's data is never listed
to an outsider, and looking it up finds nothing (404, not 403)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Entry, Fixture, League, Result, Series
from tournaments.permissions import is_organizer


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


def visible_fixtures(user) -> QuerySet[Fixture]:
    return Fixture.objects.filter(league__in=visible_leagues(user))


def visible_results(user) -> QuerySet[Result]:
    return Result.objects.filter(fixture__league__in=visible_leagues(user))


def visible_series(user) -> QuerySet[Series]:
    return Series.objects.filter(league__in=visible_leagues(user))


def visible_entries(user) -> QuerySet[Entry]:
    return Entry.objects.filter(league__in=visible_leagues(user))


def shown_entries(user, league: League) -> QuerySet[Entry]:
    """A league's entries as ``user`` may list them: every entry for its organizers;
    for everyone else the accepted ones (and their own), so an account holder's name is
    not public before they accept an invitation."""
    entries = league.entries.all()
    if is_organizer(user, league):
        return entries
    mine = Q(player__user=user) if getattr(user, "is_authenticated", False) else Q(pk__in=[])
    return entries.filter(Q(state=Entry.State.ACCEPTED) | mine)
