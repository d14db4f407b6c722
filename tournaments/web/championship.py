"""A championship day on an open tournament (issue 36): the desk's check-in page, the
venue's check-in QR code, a player's check-in through their private result link, the
printable table cards, the table's result page and the projector. Thin: every write is a
``tournaments.services.championship`` (or results) service, every read a selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone as tz
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from core.throttles import SubmissionThrottle, throttled_view
from tournaments.actors import LinkHolder
from tournaments.models import Entry, Fixture, League, Result, ResultLink
from tournaments.permissions import can_view, is_organizer
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services import open_tournaments
from tournaments.services import results as result_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.open_tournaments import open_final_ranking
from tournaments.web.forms import HandResultForm, hand_result_send
from tournaments.web.lookups import fixture_or_404, league_or_404, organized_league
from tournaments.web.printing import qr_svg
from tournaments.web.result_links import link_or_404, private_page

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


#: the desk's buttons on a player's row: what each does to the entry
ROW_ACTIONS = {
    "in": lambda entry, by: champ.entry_check_in(entry=entry, by=by, checked_in=True),
    "out": lambda entry, by: champ.entry_check_in(entry=entry, by=by, checked_in=False),
    "paid": lambda entry, by: champ.entry_mark_paid(entry=entry, by=by, paid=True),
    "unpaid": lambda entry, by: champ.entry_mark_paid(entry=entry, by=by, paid=False),
}
#: opening and closing check-in, and what the desk is told
CHECKIN_SWITCH = {
    "open": (champ.checkin_open, gettext_lazy("Check-in is open.")),
    "close": (champ.checkin_close, gettext_lazy("Check-in is closed.")),
}
#: rows per page of the desk's list (200 players stay under a phone's 100 kB)
CHECKIN_PER_PAGE = 50
#: what the list keeps when a plain form posts and comes back
CHECKIN_LIST_PARAMS = ("q", "letter", "page")


def _checkin_url(slug: str, params=None) -> str:
    kept = {k: params[k] for k in CHECKIN_LIST_PARAMS if params and params.get(k)}
    back = reverse("tournaments:desk-checkin", args=[slug])
    return back + (f"?{urlencode(kept)}" if kept else "")


def _row_action(request, league: League) -> Entry:
    """The row button pressed ("in:<entry id>"; or ``action`` and ``entry``), done."""
    if "act" in request.POST:  # one form, a button per row
        action, _sep, entry_id = request.POST["act"].partition(":")
    else:
        action, entry_id = request.POST.get("action", ""), request.POST.get("entry", "")
    run = ROW_ACTIONS.get(action)
    if run is None:
        raise Http404("unknown action")
    try:
        entry = league.entries.select_related("league", "player").get(pk=int(entry_id))
    except (ValueError, Entry.DoesNotExist):
        raise Http404("no such entry in this league") from None
    return run(entry, request.user)


def _desk_checkin_post(request, league: League):
    switch = CHECKIN_SWITCH.get(request.POST.get("action", ""))
    try:
        if switch is not None:
            switch[0](league=league, by=request.user)
            messages.success(request, switch[1])
            return redirect(_checkin_url(league.slug))
        entry = _row_action(request, league)
    except ServiceError as exc:
        if _wants_json(request):
            return JsonResponse({"error": exc.localized()}, status=400)
        messages.error(request, exc.localized())
        return redirect(_checkin_url(league.slug, request.POST))
    if _wants_json(request):
        return JsonResponse(_entry_state(entry))
    return redirect(_checkin_url(league.slug, request.POST))


@login_required
@require_http_methods(["GET", "POST"])
def desk_checkin(request, slug: str):
    """The desk's check-in list: search (a name, or a check-in code typed by a barcode
    scanner, which submits with Enter), by initial letter, 50 rows a page; mark checked in
    / paid, open or close check-in. Plain forms (a GET search); static/js/checkin.js sends
    the row buttons without reloading when it can."""
    league = organized_league(request, slug)
    if request.method == "POST":
        return _desk_checkin_post(request, league)
    query = request.GET.get("q", "")
    listing = champ_reads.checkin_list(league, query, request.GET.get("letter", ""))
    page = Paginator(listing.entries, CHECKIN_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "tournaments/championship/checkin.html",
        {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "listing": listing,
            "page_obj": page,
            "rows": [(e, champ_reads.checkin_code(e)) for e in page],
            "query": query,
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
    link = link_or_404(token)
    league = link.entry.league
    venue = request.POST.get("venue") or scanned_venue_token(request, league)
    try:
        champ.entry_check_in(entry=link.entry, by=LinkHolder(link), venue_token=venue)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(request, _("You are checked in."))
    return redirect(reverse("tournaments:result-link", args=[token]))


# --- table cards, the table's page, the desk's tables -----------------------------------


def _round_of(request, league: League) -> int:
    try:
        return int(request.GET.get("round") or champ_reads.current_round(league) or 0)
    except ValueError:
        raise Http404("round is a number") from None


def table_cards(request, slug: str):
    """A card per table of a round (``?round=N``, else the newest): table number, players
    in seat order with their colours, and the QR code of the table's result page. Printed
    four to an A4 page (A6 each), one per table."""
    league = league_or_404(request, slug)
    number = _round_of(request, league)
    tables = champ_reads.round_tables(league, number)
    if not tables:
        raise Http404("no tables in that round")
    cards = []
    for fixture in tables:
        url = request.build_absolute_uri(reverse("tournaments:table", args=[fixture.pk]))
        cards.append(
            {
                "fixture": fixture,
                "url": url,
                "qr": qr_svg(url, _("Table %s: enter the result") % fixture.number),
            }
        )
    return render(
        request,
        "tournaments/championship/cards.html",
        {"league": league, "round": number, "cards": cards},
    )


def table_actor(request, league: League):
    """Who acts on the table page: the account signed in, or the player whose private link
    this browser opened (``result_links.link_page`` remembers it), or an anonymous visitor."""
    if request.user.is_authenticated:
        return request.user
    link_pk = request.session.get("result_link")
    if link_pk:
        link = (
            ResultLink.objects.filter(pk=link_pk, revoked_at__isnull=True, entry__league=league)
            .select_related("entry__league", "entry__player")
            .first()
        )
        if link is not None:
            return LinkHolder(link)
    return request.user


def _table_or_404(request, pk: int, *, posting: bool = False):
    """The table (404 unless an open tournament's game the visitor may see). A post needs
    its league and seats only (it redirects when taken): the result versions are read
    by the service under the table's lock, not here."""
    if posting:
        try:
            fixture = champ_reads.table_for_post(pk)
        except Fixture.DoesNotExist:
            raise Http404("no such game") from None
        if not can_view(request.user, fixture.league):
            raise Http404("no such game")
    else:
        fixture = fixture_or_404(request, pk)
    if fixture.league.event_kind != League.EventKind.OPEN:
        raise Http404("not a table of an open tournament")
    return fixture


def _table_enter(request, fixture: Fixture, actor):
    """A phone's placings (or count points): entered, confirmed or disputed by the service.
    Returns the form and the refusal (status, text), None when it went through."""
    form = HandResultForm(request.POST, fixture=fixture, reason_required=False)
    if not form.is_valid():
        return form, (400, _("Give every player's place, or the count points."))
    entered: list[Result] = []  # the service's answer: no need to read it again
    refused = hand_result_send(
        form,
        lambda **kw: entered.append(champ.table_result_enter(**kw)),
        fixture=fixture,
        by=actor,
    )
    if refused is None and entered[0].state == Result.State.DISPUTED:
        messages.warning(
            request,
            _(
                "Your entry differs from the one entered before: the table is "
                "disputed, and the desk decides."
            ),
        )
    elif refused is None:
        messages.success(request, _("The result is entered."))
    return form, refused


def _table_result(request, fixture: Fixture) -> Result:
    try:
        return fixture.results.get(pk=int(request.POST.get("result", "0")))
    except (ValueError, Result.DoesNotExist):
        raise Http404("no such result at this table") from None


def _table_confirm(request, fixture: Fixture, actor):
    result_services.result_confirm(result=_table_result(request, fixture), by=actor)
    messages.success(request, _("The result is confirmed and counts."))


def _table_dispute(request, fixture: Fixture, actor):
    result = _table_result(request, fixture)
    result_services.result_dispute(result=result, by=actor, reason=request.POST.get("reason", ""))
    messages.success(request, _("The result is disputed; the desk decides."))


def _table_referee(request, fixture: Fixture, actor):
    champ.table_referee_call(fixture=fixture, by=actor, called=True)
    messages.success(request, _("The referee is called to this table."))


def _table_referee_clear(request, fixture: Fixture, actor):
    champ.table_referee_call(fixture=fixture, by=actor, called=False)


#: the table page's buttons (``do``) other than entering a result
TABLE_ACTIONS = {
    "confirm": _table_confirm,
    "dispute": _table_dispute,
    "referee": _table_referee,
    "referee-clear": _table_referee_clear,
}


def _table_post(request, fixture: Fixture, actor):
    """Do what the table page's form asks. Returns (form or None, refusal or None)."""
    do = request.POST.get("do", "enter")
    if do == "enter":
        return _table_enter(request, fixture, actor)
    run = TABLE_ACTIONS.get(do)
    if run is None:
        raise Http404("unknown action")
    run(request, fixture, actor)
    return None, None


def _table_refusal(exc: ServiceError) -> tuple[int, str]:
    return (403 if isinstance(exc, NotAllowed) else 400), exc.localized()


@require_http_methods(["GET", "POST"])
@throttled_view([SubmissionThrottle])
def table_page(request, pk: int):
    """The table's result page (the QR code on its card): a player at the table enters the
    placings (or count points), another confirms or disputes, anyone at it calls the
    referee. Who does not sit at the table sees it, and nothing to press."""
    fixture = _table_or_404(request, pk, posting=request.method == "POST")
    league = fixture.league
    actor = table_actor(request, league)
    form, refused = None, None
    if request.method == "POST":
        try:
            form, refused = _table_post(request, fixture, actor)
        except ServiceError as exc:
            refused = _table_refusal(exc)
        if refused is None:
            return redirect(reverse("tournaments:table", args=[pk]))
        fixture = _table_or_404(request, pk)  # a refusal: the page with its results
    status, error = refused or (200, None)
    return render(
        request,
        "tournaments/championship/table.html",
        _table_context(request, fixture, actor, form, error),
        status=status,
    )


def _table_context(request, fixture: Fixture, actor, form, error) -> dict:
    """The page of ``fixture`` as ``_table_or_404`` read it (seats and result versions
    prefetched: read once per page, h-champday)."""
    league = fixture.league
    current = champ_reads.open_result(fixture)
    names = {s.entry_id: s.entry.player.name for s in fixture.seats.all()}
    organizer = request.user.is_authenticated and is_organizer(request.user, league)
    return {
        "league": league,
        "fixture": fixture,
        "state": champ_reads.table_state(fixture),
        "clock": champ_reads.round_clock(league, fixture.round),
        "current": current,
        "placed": [names.get(e, "?") for e in (current.placings if current else [])],
        "sits": champ.sits_at(actor, fixture),
        "organizer": organizer,
        "mine": current is not None and champ.same_actor(current, actor),
        "form": form or HandResultForm(None, fixture=fixture, reason_required=False),
        "form_error": error,
        "login_url": reverse("login") + "?" + urlencode({"next": request.path}),
    }


#: the desk's round-clock buttons and their services
CLOCK_ACTIONS = {
    "start": champ.round_clock_start,
    "pause": champ.round_clock_pause,
    "resume": champ.round_clock_resume,
}


def _desk_clock_post(request, league: League):
    run = CLOCK_ACTIONS.get(request.POST.get("clock", ""))
    if run is None:
        raise Http404("unknown action")
    try:
        run(league=league, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    return redirect(reverse("tournaments:desk-tables", args=[league.slug]))


@login_required
@require_http_methods(["GET", "POST"])
def desk_tables(request, slug: str):
    """The desk's view of a round's tables: each one's state (referee called, disputed,
    entered, playing, confirmed), most urgent first; and the newest round's clock, which
    the desk starts, pauses and resumes here."""
    league = organized_league(request, slug)
    if request.method == "POST":
        return _desk_clock_post(request, league)
    number = _round_of(request, league)
    tables = champ_reads.round_tables(league, number)
    rows = [(f, champ_reads.table_state(f)) for f in tables]
    rows.sort(key=lambda r: (champ_reads.TABLE_STATES.index(r[1]), r[0].number))
    counts = {s: sum(1 for _f, st in rows if st == s) for s in champ_reads.TABLE_STATES}
    return render(
        request,
        "tournaments/championship/tables.html",
        {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "round": number,
            "rows": rows,
            "counts": counts,
            "clock": champ_reads.round_clock(league),
        },
    )


# --- the projector ----------------------------------------------------------------------


def projector(request, slug: str):
    """A full-screen page for a wall (no controls): "find your table", the round clock and
    the standings in turn; static/js/projector.js polls the fragment below with its ETag
    and keeps the last state while the network is away."""
    league = league_or_404(request, slug)
    return render(
        request,
        "tournaments/championship/projector.html",
        {
            "league": league,
            "show": champ_reads.projector(league),
            "etag": champ_reads.projector_version(league),
        },
    )


def projector_fragment(request, slug: str):
    """The projector's panels as HTML, 304 while nothing changed (one query)."""
    league = league_or_404(request, slug)
    etag = champ_reads.projector_version(league)
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        # every projector (and every client polling) shares one rendering per change and
        # language: the version is in the key, so a change is never served stale (h-champ)

        key = f"projector:{etag}:{league.created_at.timestamp()}:{get_language()}"
        html = cache.get(key)
        if html is None:
            html = render_to_string(
                "tournaments/championship/_projector_panels.html",
                {"league": league, "show": champ_reads.projector(league)},
                request=request,
            )
            cache.set(key, html, 600)
        response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


# --- h-champ: registration (capacity, waitlist, deadline, teams) and the classification --


def _deadline_value(league: League) -> str:

    if league.checkin_deadline is None:
        return ""
    return tz.localtime(league.checkin_deadline).strftime("%Y-%m-%dT%H:%M")


def _parse_settings(post) -> dict:

    raw_capacity = post.get("capacity", "").strip()
    raw_deadline = post.get("checkin_deadline", "").strip()
    raw_best = post.get("team_best", "").strip() or "0"
    try:
        capacity = int(raw_capacity) if raw_capacity else None
        team_best = int(raw_best)
    except ValueError:
        raise ServiceError(_("Enter whole numbers."), field="capacity") from None
    deadline = None
    if raw_deadline:
        deadline = parse_datetime(raw_deadline)
        if deadline is None:
            raise ServiceError(_("Enter the deadline as a date and time."), field="deadline")
        if tz.is_naive(deadline):
            deadline = tz.make_aware(deadline)
    return {"capacity": capacity, "checkin_deadline": deadline, "team_best": team_best}


def _reg_settings(request, league: League) -> str:
    champ.league_set_registration(league=league, by=request.user, **_parse_settings(request.POST))
    return _("Saved.")


def _reg_deadline(request, league: League) -> str:
    if not is_organizer(request.user, league):
        raise NotAllowed("organizers only")
    released, promoted = champ.checkin_deadline_apply(league=league)
    return _("Places released: %(released)d; players moved up: %(promoted)d.") % {
        "released": len(released),
        "promoted": len(promoted),
    }


def _reg_teams(request, league: League) -> str:
    changed = champ.entries_set_teams(
        league=league, by=request.user, text=request.POST.get("text", "")
    )
    return _("Players changed: %(n)d.") % {"n": changed}


def _reg_qualification(request, league: League) -> str:
    """A regional event names its final and how many qualify (no final: none)."""
    slug = request.POST.get("final", "")
    final = League.objects.filter(slug=slug).first() if slug else None
    if slug and final is None:
        raise Http404("no such event")
    try:
        places = int(request.POST.get("places") or 0)
    except ValueError:
        raise ServiceError(_("Enter whole numbers."), field="places") from None
    open_tournaments.league_set_qualification(
        league=league, by=request.user, final=final, places=places
    )
    return _("Saved.")


def _reg_carry(request, league: League) -> str:
    made, there = open_tournaments.series_qualifiers_carry(final=league, by=request.user)
    return _("Qualifiers carried over: %(made)d new, %(there)d already entered.") % {
        "made": made,
        "there": there,
    }


#: the registration page's forms, by their ``action``: each returns what the desk is told
REGISTRATION_ACTIONS = {
    "settings": _reg_settings,
    "deadline": _reg_deadline,
    "teams": _reg_teams,
    "qualification": _reg_qualification,
    "carry": _reg_carry,
}


def _teams_text(entries) -> str:
    return "\n".join(
        f"{e.player.name}; {e.team}; {e.category}"
        for e in sorted(entries, key=lambda e: e.player.name.casefold())
        if e.team or e.category
    )


@login_required
@require_http_methods(["GET", "POST"])
def desk_registration(request, slug: str):
    """The desk's registration page: the capacity, the check-in deadline (and applying it
    now), the team rule, teams and categories pasted one line per player, and the series:
    which final this event qualifies its best for, and (a final) carrying them over."""
    league = organized_league(request, slug)
    if request.method == "POST":
        run = REGISTRATION_ACTIONS.get(request.POST.get("action", ""))
        if run is None:
            raise Http404("unknown action")
        try:
            messages.success(request, run(request, league))
        except ServiceError as exc:
            messages.error(request, exc.localized())
        return redirect(reverse("tournaments:desk-registration", args=[slug]))
    listing = champ_reads.checkin_list(league)
    return render(
        request,
        "tournaments/championship/registration.html",
        {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "listing": listing,
            "deadline": _deadline_value(league),
            "teams_text": _teams_text(listing.entries),
            "finals": champ_reads.finals_to_choose(request.user, league),
            "regions": champ_reads.series_regions(league),
            "qualifiers": champ_reads.qualifiers_of(league),
        },
    )


def classification(request, slug: str):
    """The standings with a category as a filter (``?category=youth``) and the team
    classification: public like the league's standings."""
    league = league_or_404(request, slug)

    board = champ_reads.classification(
        league, request.GET.get("category", ""), final_order=open_final_ranking(league)
    )
    return render(
        request,
        "tournaments/championship/classification.html",
        {
            "league": league,
            "board": board,
            "tab": "standings",
            "qualifiers": champ_reads.qualifiers_of(league),
        },
    )
