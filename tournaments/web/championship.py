"""A championship day on an open tournament (issue 36): the desk's check-in page, the
venue's check-in QR code, a player's check-in through their private result link, the
printable table cards, the table's result page and the projector. Thin: every write is a
``tournaments.services.championship`` (or results) service, every read a selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.throttles import SubmissionThrottle, throttled_view
from tournaments.actors import LinkHolder
from tournaments.models import Entry, League
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.errors import ServiceError
from tournaments.web.lookups import league_or_404, organized_league
from tournaments.web.printing import qr_svg
from tournaments.web.result_links import _link_or_404, private_page

#: the session key of the venue tokens a visitor scanned, by league id
VENUE_SESSION_KEY = "checkin_venue"


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _entry_state(entry: Entry) -> dict:
    return {
        "entry": entry.pk,
        "checked_in": entry.checked_in_at is not None,
        "paid": entry.paid_at is not None,
    }


@login_required
@require_http_methods(["GET", "POST"])
def desk_checkin(request, slug: str):
    """The desk's check-in list: search (a name, or a check-in code typed by a barcode
    scanner, which submits with Enter), mark checked in / paid, open or close check-in.
    Plain forms; static/js/checkin.js sends them without reloading when it can."""
    league = organized_league(request, slug)
    query = request.GET.get("q", "") if request.method == "GET" else request.POST.get("q", "")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action in ("open", "close"):
                run = champ.checkin_open if action == "open" else champ.checkin_close
                run(league=league, by=request.user)
                messages.success(
                    request,
                    _("Check-in is open.") if action == "open" else _("Check-in is closed."),
                )
                return redirect(reverse("tournaments:desk-checkin", args=[slug]))
            try:
                entry = league.entries.select_related("league", "player").get(
                    pk=int(request.POST.get("entry", ""))
                )
            except (ValueError, Entry.DoesNotExist):
                raise Http404("no such entry in this league") from None
            if action in ("in", "out"):
                entry = champ.entry_check_in(
                    entry=entry, by=request.user, checked_in=action == "in"
                )
            elif action in ("paid", "unpaid"):
                entry = champ.entry_mark_paid(entry=entry, by=request.user, paid=action == "paid")
            else:
                raise Http404("unknown action")
        except ServiceError as exc:
            if _wants_json(request):
                return JsonResponse({"error": exc.localized()}, status=400)
            messages.error(request, exc.localized())
        else:
            if _wants_json(request):
                return JsonResponse(_entry_state(entry))
        back = reverse("tournaments:desk-checkin", args=[slug])
        return redirect(back + (f"?{urlencode({'q': query})}" if query else ""))
    listing = champ_reads.checkin_list(league, query)
    token = champ_reads.venue_token(league)
    venue_url = (
        request.build_absolute_uri(reverse("tournaments:venue-checkin", args=[slug, token]))
        if token
        else None
    )
    rows = [(e, champ_reads.checkin_code(e)) for e in listing.entries]
    return render(
        request,
        "tournaments/championship/checkin.html",
        {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "listing": listing,
            "rows": rows,
            "query": query,
            "venue_url": venue_url,
        },
    )


@login_required
def venue_poster(request, slug: str):
    """The poster for the venue's wall: the check-in QR code, large, printable."""
    league = organized_league(request, slug)
    token = champ_reads.venue_token(league)
    if token is None:
        raise Http404("check-in is not open")
    url = request.build_absolute_uri(reverse("tournaments:venue-checkin", args=[slug, token]))
    return render(
        request,
        "tournaments/championship/poster.html",
        {"league": league, "url": url, "qr": qr_svg(url, _("Check in to %s") % league.name)},
    )


def _remember_venue(request, league: League, token: str) -> None:
    scanned = dict(request.session.get(VENUE_SESSION_KEY, {}))
    scanned[str(league.pk)] = token
    request.session[VENUE_SESSION_KEY] = scanned


def scanned_venue_token(request, league: League) -> str | None:
    return request.session.get(VENUE_SESSION_KEY, {}).get(str(league.pk))


@require_http_methods(["GET", "POST"])
@throttled_view([SubmissionThrottle])
def venue_checkin(request, slug: str, token: str):
    """The venue's QR code: a signed-in player checks in here; a player without an account
    opens their private result link next (the scanned code is remembered for it)."""
    league = league_or_404(request, slug)
    if not champ_reads.venue_token_valid(league, token):
        return render(
            request,
            "tournaments/championship/venue.html",
            {"league": league, "gone": True},
            status=404,
        )
    _remember_venue(request, league, token)
    entry = None
    if request.user.is_authenticated:
        entry = (
            league.entries.playing()
            .select_related("league", "player")
            .filter(player__user=request.user)
            .first()
        )
    status = 200
    if request.method == "POST":
        if entry is None:
            raise Http404("you are not entered in this tournament")
        try:
            entry = champ.entry_check_in(entry=entry, by=request.user, venue_token=token)
        except ServiceError as exc:
            messages.error(request, exc.localized())
            status = 400
        else:
            messages.success(request, _("You are checked in."))
            return redirect(request.path)
    login_url = reverse("login") + "?" + urlencode({"next": request.path})
    return render(
        request,
        "tournaments/championship/venue.html",
        {"league": league, "entry": entry, "login_url": login_url},
        status=status,
    )


@csrf_exempt  # the private link's own rule (tournaments/web/result_links.py, top)
@require_POST
@private_page
@throttled_view([SubmissionThrottle])
def link_check_in(request, token: str):
    """A player without an account checks in through their private result link, with the
    venue code they scanned before (kept in their session)."""
    link = _link_or_404(token)
    league = link.entry.league
    venue = request.POST.get("venue") or scanned_venue_token(request, league)
    try:
        champ.entry_check_in(entry=link.entry, by=LinkHolder(link), venue_token=venue)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(request, _("You are checked in."))
    return redirect(reverse("tournaments:result-link", args=[token]))
