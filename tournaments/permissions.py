"""Who may do what. One place for the rules, used by services, views and the API."""

from __future__ import annotations

from tournaments.models import Fixture, League, Seat
from tournaments.services.errors import NotAllowed


def is_organizer(user, league: League) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or league.owner_id == user.pk:
        return True
    return league.organizers.filter(pk=user.pk).exists()


def require_organizer(user, league: League) -> None:
    if not is_organizer(user, league):
        raise NotAllowed(f"only the organizers of {league.name} may do this")


def can_view(user, league: League) -> bool:
    return (
        league.is_public
        or is_organizer(user, league)
        or (
            getattr(user, "is_authenticated", False)
            and league.entries.filter(player__user=user).exists()
        )
    )


def seat_of(user, fixture: Fixture) -> Seat | None:
    """The seat the user holds at this fixture's board, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    for seat in fixture.seats.all():
        if seat.entry.player.user_id == user.pk:
            return seat
    return None
