"""Read-side access: which leagues, fixtures, results and entries a user may see, and who
may create players.

The single-object rule is ``tournaments.permissions.can_view``; ``visible_leagues``
(``tournaments.selectors``) is the same rule as a query, and everything here derives from
it, so that lists never show, and look-ups never find, a private league's data to an
outsider (they answer 404, not 403). ``tests/api/test_errors.py`` checks that the query
and ``can_view`` agree for every role.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Entry, Fixture, League, Player, Result, Series
from tournaments.selectors import visible_leagues
from tournaments.services.errors import NotAllowed, ServiceError


def _authenticated(user) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def visible_fixtures(user) -> QuerySet[Fixture]:
    return Fixture.objects.filter(league__in=visible_leagues(user))


def visible_results(user) -> QuerySet[Result]:
    return Result.objects.filter(fixture__league__in=visible_leagues(user))


def visible_series(user) -> QuerySet[Series]:
    return Series.objects.filter(league__in=visible_leagues(user))


def visible_entries(user) -> QuerySet[Entry]:
    return Entry.objects.filter(league__in=visible_leagues(user))


def organizes_any_league(user) -> bool:
    if not _authenticated(user):
        return False
    if user.is_staff:
        return True
    return (
        League.objects.filter(owner=user).exists()
        or League.organizers.through.objects.filter(user=user).exists()
    )


def require_can_create_player(user, *, link_to_me: bool) -> None:
    """A logged-in user may create their own player profile (once); players without an
    account are created by organizers (of any league) and staff."""
    if not _authenticated(user):
        raise NotAllowed("log in to create a player")
    if link_to_me:
        if Player.objects.filter(user=user).exists():
            raise ServiceError("your account already has a player profile", field="link_to_me")
        return
    if not organizes_any_league(user):
        raise NotAllowed(
            "only league organizers may create players without an account; to create your "
            "own profile send link_to_me: true"
        )
