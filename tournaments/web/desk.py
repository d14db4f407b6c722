"""The results desk of a league (its organizers' page of what needs attention) and the
organizers' actions on a game: enter or correct a result by hand, void, forfeit; and the
players' report of a game played without a log. Every write goes through
``tournaments.services.results``; who may do what is ``permissions.result_actions``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.throttles import SubmissionThrottle, throttled_view
from tournaments.models import Fixture, League
from tournaments.permissions import ENTER, FORFEIT, SUBMIT, VOID, is_organizer, result_actions
from tournaments.selectors import desk as desk_selectors
from tournaments.selectors import leagues as league_selectors
from tournaments.services import results as result_services
from tournaments.services.errors import ServiceError
from tournaments.services.guards import refusal_error
from tournaments.web.forms import (
    ForfeitForm,
    HandResultForm,
    ReasonForm,
    ResolveForm,
    hand_result_send,
)
from tournaments.web.lookups import fixture_or_404, league_or_404, safe_next
from tournaments.web.personal import Page, personal_page, stored_visit, unknown_query

#: a league's results desk, stored per organizer under the league's content stamp (results,
#: disputes, rejected uploads, analyses, who sent them), until the next game becomes
#: overdue; an open event's desk (the championship day's clock) is rendered each time
DESK = Page(
    "desk",
    league_selectors.CONTENT_STAMP_SQL,
    league_selectors.content_stamp_text,
    league=True,
    kinds=(League.EventKind.LEAGUE.value,),
)


@require_GET
def league_desk(request, slug: str):
    """A visit that finds the desk stored is the session and one statement (the
    organizer's rights checked in it, every visit: ``personal.stored_visit``)."""
    return unknown_query(request, DESK) or stored_visit(request, DESK, slug) or _desk(request, slug)


def _desk(request, slug: str):
    league = league_or_404(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_organizer(request.user, league):
        raise PermissionDenied(_("Only the organizers of this league see its results desk."))

    def page(csrf_token: str):
        until = desk_selectors.next_overdue_at(league)
        desk = desk_selectors.league_desk(league)
        for result in [*desk.awaiting, *desk.disputed]:
            # no one decides their own game (permissions.result_actions): an organizer who
            # plays in it sees the game, not the decision forms
            result.plays = any(
                s.entry.player.user_id == request.user.pk for s in result.fixture.seats.all()
            )
        context = {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "desk": desk,
            "resolve_form": ResolveForm(),
            "csrf_token": csrf_token,
        }
        return render(request, "tournaments/desk.html", context), until and until.timestamp(), None

    if league.event_kind != league.EventKind.LEAGUE:
        response, _until, _extra = page(get_token(request))
        return response
    return personal_page(request, DESK, page, slug)


def _guarded(request, pk: int, action: str):
    """The game, or a response: log in first (anonymous) or 403 with the refusal's reason."""
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return fixture, redirect_to_login(request.get_full_path())
    actions = result_actions(request.user, fixture, results=fixture.all_results)
    refusal = actions.refusal(action)
    if refusal is not None and refusal.forbidden:
        raise PermissionDenied(refusal_error(refusal).localized())
    return fixture, None


def _hand_result(request, pk: int, *, action: str):
    fixture, response = _guarded(request, pk, action)
    if response is not None:
        return response
    organizer_entry = action == ENTER
    form = HandResultForm(
        request.POST if request.method == "POST" else None,
        fixture=fixture,
        reason_required=organizer_entry,
    )
    if request.method != "POST":
        return _hand_result_page(request, fixture, form, organizer_entry)
    if not form.is_valid():
        return _hand_result_page(request, fixture, form, organizer_entry, status=400)
    service = result_services.result_enter if organizer_entry else result_services.result_report
    refused = hand_result_send(form, service, fixture=fixture, by=request.user)
    if refused is not None:
        status, error = refused
        return _hand_result_page(request, fixture, form, organizer_entry, error, status=status)
    messages.success(request, _hand_result_taken(organizer_entry))
    return redirect(safe_next(request, reverse("tournaments:game", args=[pk])))


def _hand_result_taken(organizer_entry: bool) -> str:
    if organizer_entry:
        return _("The result is entered and counts.")
    return _("The result is reported; it counts once it is confirmed.")


def _hand_result_page(request, fixture, form, organizer_entry: bool, error=None, *, status=200):
    return render(
        request,
        "tournaments/hand_result.html",
        {
            "league": fixture.league,
            "fixture": fixture,
            "form": form,
            "form_error": error,
            "organizer_entry": organizer_entry,
            "next": safe_next(request, ""),
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@throttled_view([SubmissionThrottle])
def game_enter(request, pk: int):
    """An organizer enters or corrects the result by hand, with a reason."""
    return _hand_result(request, pk, action=ENTER)


@require_http_methods(["GET", "POST"])
@throttled_view([SubmissionThrottle])
def game_report(request, pk: int):
    """A player at the board reports a game played without a log."""
    return _hand_result(request, pk, action=SUBMIT)


def _decision(request, pk: int, action: str, form_class, run):
    fixture, response = _guarded(request, pk, action)
    if response is not None:
        return response
    kwargs = {"fixture": fixture} if form_class is ForfeitForm else {}
    form = form_class(request.POST, **kwargs)
    back = safe_next(request, reverse("tournaments:game", args=[pk]))
    if not form.is_valid():
        messages.error(request, _("Say why, and choose what the form asks for."))
        return redirect(back)
    try:
        run(fixture, form.cleaned_data)
    except ServiceError as exc:
        messages.error(request, exc.localized())
        return redirect(back)
    return redirect(back)


@require_POST
@throttled_view([SubmissionThrottle])
def game_void(request, pk: int):
    def run(fixture: Fixture, data):
        result_services.result_void(fixture=fixture, by=request.user, reason=data["reason"])
        messages.success(request, _("The result is voided; the game is open again."))

    return _decision(request, pk, VOID, ReasonForm, run)


@require_POST
@throttled_view([SubmissionThrottle])
def game_forfeit(request, pk: int):
    def run(fixture: Fixture, data):
        loser = next(s.entry for s in fixture.seats.all() if s.entry_id == data["loser"])
        result_services.forfeit_record(
            fixture=fixture, by=request.user, loser=loser, reason=data["reason"]
        )
        messages.success(request, _("The forfeit is recorded."))

    return _decision(request, pk, FORFEIT, ForfeitForm, run)
