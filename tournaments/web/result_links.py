"""Private result links (``/r/<token>/``): a player without an account opens the link the
organizer handed out or printed, and uploads, confirms or disputes the results of their own
games in that league, without logging in. The same services and permissions as the game
page answer (``tournaments.actors.LinkHolder``).

Every answer of these pages is private: a revoked, unknown or altered token is a 404 that
says nothing; the responses are never cached and send ``Referrer-Policy: no-referrer``, so
the token does not travel in the ``Referer`` of the pages linked from there (nor of their
logs); the header's log-in link does not carry the path; the pages are not indexed. Posts
are throttled like every anonymous result write (``SubmissionThrottle``, by address).

The posts are exempt from Django's CSRF check, on purpose: with ``no-referrer`` a browser
sends ``Origin: null`` with the form (Chromium does), which the check refuses; and CSRF
needs an ambient credential (a session cookie) to abuse, while here the only credential is
the secret in the address itself, which a forging site does not know. For the same reason
the page switches language by a link (``?lang=de``) instead of the header's POST form.

And the organizer's side: make (or rotate) and withdraw an entry's link from the league's
manage page (``result_link_create``, ``result_link_revoke``).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.throttles import SubmissionThrottle, throttled_view
from tournaments.actors import LinkHolder
from tournaments.models import Entry, Result
from tournaments.permissions import SUBMIT, result_actions
from tournaments.selectors import result_links as link_selectors
from tournaments.services import result_links as link_services
from tournaments.services import results as result_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.guards import refusal_error
from tournaments.web.forms import (
    DisputeForm,
    HandResultForm,
    LogUploadForm,
    hand_result_send,
    log_upload_told,
)
from tournaments.web.lookups import organized_league


class LinkTakenOver(Http404):
    """The link was revoked because its player has an account now (issue 32)."""


def private_page(view):
    """No caching, no Referer, no indexing: for every answer of a link page (404 too)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            response = view(request, *args, **kwargs)
        except LinkTakenOver:
            # only the true holder can name a revoked link: telling them why leaks nothing
            response = render(request, "tournaments/result_link_taken_over.html", status=410)
        except Http404:
            response = render(request, "tournaments/result_link_gone.html", status=404)
        add_never_cache_headers(response)
        response["Referrer-Policy"] = "no-referrer"
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


def link_or_404(token: str):
    link = link_services.link_for_token(token)
    if link is None:
        old = link_services.revoked_link_for_token(token)
        if old is not None and old.entry.player.user_id is not None:
            raise LinkTakenOver
        raise Http404
    return link


def _page(request, link, *, status=200, form_error=None, forms=None):
    forms = forms or {}
    games = link_selectors.link_games(link)
    return render(
        request,
        "tournaments/result_link.html",
        {
            "link": link,
            "entry": link.entry,
            "league": link.entry.league,
            "games": games,
            "token": _token_of(request),
            "form_error": form_error,
            "form_fixture": forms.get("fixture"),
            "upload_form": forms.get("upload_form"),
            "dispute_form": forms.get("dispute_form"),
            "refill": _refill(forms.get("upload_form")),
            "login_next": "/",  # the header's log-in link must not carry the token
            # a championship day: the venue's check-in QR code scanned before (issue 36)
            "venue_scanned": str(link.entry.league_id) in request.session.get("checkin_venue", {}),
        },
        status=status,
    )


def _refill(form) -> str:
    """The pasted log again after a refusal (not a huge one: the replay page's bound)."""
    if form is None:
        return ""
    text = form.data.get("content") or ""
    return text if len(text) <= REFILL_MAX_CHARS else ""


#: a refused pasted log longer than this is not echoed back into the form
REFILL_MAX_CHARS = 256 * 1024


def _token_of(request) -> str:
    return request.resolver_match.kwargs["token"]


def _back(token: str, fixture_pk: int):
    return redirect(reverse("tournaments:result-link", args=[token]) + f"#game-{fixture_pk}")


def _failed(request, link, fixture, exc: ServiceError, **forms):
    status = 403 if isinstance(exc, NotAllowed) else 400
    return _page(
        request,
        link,
        status=status,
        form_error=exc.localized(),
        forms={"fixture": fixture.pk, **forms},
    )


@require_GET
@private_page
def link_page(request, token: str):
    link = link_or_404(token)
    wanted = request.GET.get("lang", "")
    if wanted in dict(settings.LANGUAGES):  # the page's own switch (no POST: see below)
        response = redirect(reverse("tournaments:result-link", args=[token]))
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            wanted,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite="Lax",
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        )
        return response
    # a championship day (issue 36): the table's page (its QR code) knows this phone's
    # player from now on, as the link itself does (the session is this browser's only)
    request.session["result_link"] = link.pk
    return _page(request, link)


def _fixture_or_404(link, pk: int):
    fixture = link_selectors.link_fixture(link, pk)
    if fixture is None:  # not one of this entry's games: nothing to say about it
        raise Http404
    return fixture


@csrf_exempt
@require_POST
@private_page
@throttled_view([SubmissionThrottle])
def link_upload(request, token: str, pk: int):
    link = link_or_404(token)
    fixture = _fixture_or_404(link, pk)
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, link, status=400, forms={"fixture": pk, "upload_form": form})
    try:
        upload = result_services.game_log_upload(
            fixture=fixture, content=form.cleaned_data["log"], by=LinkHolder(link)
        )
    except ServiceError as exc:
        return _failed(request, link, fixture, exc, upload_form=form)
    log_upload_told(request, upload)
    return _back(token, fixture.pk)


@csrf_exempt
@require_http_methods(["GET", "POST"])
@private_page
@throttled_view([SubmissionThrottle])
def link_report(request, token: str, pk: int):
    """A game of the link's own played without a log: the holder reports it by hand (the
    format's fields, as a signed-in player does on ``/games/<id>/report/``), through the
    same service and permission check (``result_report`` with the ``LinkHolder``). It
    waits for the opponent or an organizer to confirm."""
    link = link_or_404(token)
    fixture = _fixture_or_404(link, pk)
    holder = LinkHolder(link)
    refusal = result_actions(holder, fixture, results=fixture.all_results).refusal(SUBMIT)
    if refusal is not None:  # nothing to report here (a result is there, or not theirs)
        return _page(
            request,
            link,
            status=403 if refusal.forbidden else 400,
            form_error=refusal_error(refusal).localized(),  # in the reader's language
            forms={"fixture": fixture.pk},
        )
    form = HandResultForm(
        request.POST if request.method == "POST" else None, fixture=fixture, reason_required=False
    )
    status, error = 200, None
    if request.method == "POST":
        status = 400
        if form.is_valid():
            refused = hand_result_send(
                form, result_services.result_report, fixture=fixture, by=holder
            )
            if refused is not None:
                status, error = refused
            else:
                messages.success(
                    request, _("The result is reported; it counts once it is confirmed.")
                )
                return _back(token, fixture.pk)
    return render(
        request,
        "tournaments/result_link_report.html",
        {
            "link": link,
            "entry": link.entry,
            "league": fixture.league,
            "fixture": fixture,
            "token": token,
            "form": form,
            "form_error": error,
            "action": reverse("tournaments:link-report", args=[token, fixture.pk]),
            "login_next": "/",  # the header's log-in link must not carry the token
            # a championship day: the venue's check-in QR code scanned before (issue 36)
            "venue_scanned": str(link.entry.league_id) in request.session.get("checkin_venue", {}),
        },
        status=status,
    )


def _result_or_404(fixture, result_id: int) -> Result:
    for result in fixture.all_results:
        if result.pk == result_id:
            return result
    raise Http404


@csrf_exempt
@require_POST
@private_page
@throttled_view([SubmissionThrottle])
def link_confirm(request, token: str, pk: int, result_id: int):
    link = link_or_404(token)
    fixture = _fixture_or_404(link, pk)
    result = _result_or_404(fixture, result_id)
    try:
        result_services.result_confirm(result=result, by=LinkHolder(link))
    except ServiceError as exc:
        return _failed(request, link, fixture, exc)
    messages.success(request, _("You confirmed the result; it counts now."))
    return _back(token, fixture.pk)


@csrf_exempt
@require_POST
@private_page
@throttled_view([SubmissionThrottle])
def link_dispute(request, token: str, pk: int, result_id: int):
    link = link_or_404(token)
    fixture = _fixture_or_404(link, pk)
    result = _result_or_404(fixture, result_id)
    form = DisputeForm(request.POST, prefix=f"dispute-{fixture.pk}")
    if not form.is_valid():
        return _page(request, link, status=400, forms={"fixture": pk, "dispute_form": form})
    try:
        result_services.result_dispute(
            result=result, by=LinkHolder(link), reason=form.cleaned_data["reason"]
        )
    except ServiceError as exc:
        return _failed(request, link, fixture, exc, dispute_form=form)
    messages.success(request, _("You disputed the result; an organizer will decide."))
    return _back(token, fixture.pk)


# --- the organizer's side ----------------------------------------------------------------


def _manage_entry(request, slug: str, entry_id: int) -> Entry:
    league = organized_league(request, slug)
    entry = league.entries.select_related("league", "player").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("no such entry")
    return entry


@login_required
@require_POST
def link_create(request, slug: str, entry_id: int):
    """Make the entry's result link, or a new one in place of the old one."""
    entry = _manage_entry(request, slug, entry_id)
    try:
        had_one = link_services.live_link(entry) is not None
        link_services.result_link_create(entry=entry, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        if had_one:
            text = _("A new result link for %(name)s is ready; the old one no longer works.")
        else:
            text = _("The result link for %(name)s is ready: hand it to them or print it.")
        messages.success(request, text % {"name": entry.player.name})
    return redirect(reverse("tournaments:manage", args=[slug]) + f"#links-{entry.pk}")


@login_required
@require_POST
def link_revoke(request, slug: str, entry_id: int):
    entry = _manage_entry(request, slug, entry_id)
    try:
        link_services.result_link_revoke(entry=entry, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(
            request,
            _("The result link for %(name)s no longer works.") % {"name": entry.player.name},
        )
    return redirect(reverse("tournaments:manage", args=[slug]) + f"#links-{entry.pk}")
