"""Rated leagues on the site (docs/ratings.md, "Rated leagues"): the organizer's request
from the manage page, and the rating officers' queue with approve / refuse and a reason."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ratings.selectors.rated_leagues import rating_decisions_recent, rating_requests_open
from ratings.services.rated_leagues import league_rating_decide, league_rating_request
from tournaments.models import League
from tournaments.permissions import can_view, is_organizer, may_sanction
from tournaments.selectors.leagues import league_get
from tournaments.services.errors import ServiceError


def _organized_league(request, slug: str) -> League:
    """A league the visitor organizes: 404 when they may not see it, 403 when they may see
    it but do not organize it (as ``tournaments.web.lookups.organized_league``; the ratings'
    pages do not import the competition's)."""
    try:
        league = league_get(slug)
    except League.DoesNotExist:
        raise Http404("no such league") from None
    if not can_view(request.user, league):
        raise Http404("no such league")
    if not is_organizer(request.user, league):
        raise PermissionDenied(f"only the organizers of {league.name} may do this")
    return league


@login_required
@require_POST
def rating_request(request, slug: str):
    league = _organized_league(request, slug)
    try:
        league_rating_request(league=league, by=request.user, note=request.POST.get("note", ""))
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(request, _("A rating was requested: a rating officer will decide."))
    return redirect("tournaments:manage", slug=league.slug)


def _officer(request) -> None:
    if not may_sanction(request.user):
        raise PermissionDenied(_("only staff or a rating officer may see this page"))


@login_required
@require_GET
def rating_queue(request):
    _officer(request)
    return render(
        request,
        "tournaments/rating_requests.html",
        {"requests": rating_requests_open(), "decisions": rating_decisions_recent()},
    )


@login_required
@require_POST
def rating_decide(request, slug: str):
    _officer(request)
    league = get_object_or_404(League, slug=slug)
    rated = request.POST.get("rated") == "1"
    try:
        league_rating_decide(
            league=league, by=request.user, rated=rated, reason=request.POST.get("reason", "")
        )
    except ServiceError as exc:
        messages.error(request, f"{league.name}: {exc.localized()}")
    else:
        messages.success(
            request,
            (_("%(league)s is rated.") if rated else _("%(league)s is unrated."))
            % {"league": league.name},
        )
    return redirect("tournaments:rating-requests")
