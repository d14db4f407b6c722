"""Look-ups shared by the pages: a league or a game the visitor may see, else 404 (a private
league does not exist for outsiders)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.http import url_has_allowed_host_and_scheme

from tournaments.models import Fixture, League
from tournaments.permissions import can_view, is_organizer
from tournaments.selectors import games as game_selectors
from tournaments.selectors import leagues as league_selectors


def league_or_404(request, slug: str) -> League:
    try:
        league = league_selectors.league_get(slug)
    except League.DoesNotExist:
        raise Http404("no such league") from None
    if not can_view(request.user, league):
        raise Http404("no such league")  # a private league does not exist for outsiders
    return league


def fixture_or_404(request, pk: int) -> Fixture:
    try:
        fixture = game_selectors.fixture_get(pk)
    except Fixture.DoesNotExist:
        raise Http404("no such game") from None
    if not can_view(request.user, fixture.league):
        raise Http404("no such game")
    return fixture


def _carried_next(request) -> str:
    return request.POST.get("next") or request.GET.get("next") or ""


def _is_safe(request, target: str) -> bool:
    """A non-empty URL ``url_has_allowed_host_and_scheme`` accepts for this host."""
    return bool(target) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def safe_next(request, default: str) -> str:
    """The ``next`` a form carried when it points back into this site, else ``default``."""
    target = _carried_next(request)
    return target if _is_safe(request, target) else default


def came_from(request) -> str:
    """Where the visitor came from, as a path on this site (h-trust, issue 34 item 11):
    the ``next`` the form or link carried, else the referring page (``Referer``), each
    only when ``url_has_allowed_host_and_scheme`` accepts it for this host; the page
    itself does not count (a form posting to itself). ``""`` when neither is safe."""

    for target in (_carried_next(request), request.META.get("HTTP_REFERER") or ""):
        path = _local_path(target) if _is_safe(request, target) else ""
        if path and urlsplit(target).path != request.path:
            return path
    return ""


def _local_path(target: str) -> str:
    """The path and query of a URL when they are a path on this site, else ``""``."""
    parts = urlsplit(target)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return path if path.startswith("/") and not path.startswith("//") else ""


def back_to(request, default: str) -> str:
    """``came_from`` or ``default``: where a confirmation returns the visitor."""
    return came_from(request) or default


def organized_league(request, slug: str) -> League:
    """A league the visitor organizes: 404 when they may not see it, 403 (PermissionDenied)
    when they may see it but do not organize it. Anonymous visitors are sent to log in by
    the views (``login_required``)."""

    league = league_or_404(request, slug)
    if not is_organizer(request.user, league):
        raise PermissionDenied(f"only the organizers of {league.name} may do this")
    return league
