"""A championship day on an open tournament (issue 36): the desk's check-in page, the
venue's check-in QR code, a player's check-in through their private result link, the
printable table cards, the table's result page and the projector. Thin: every write is a
``tournaments.services.championship`` (or results) service, every read a selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone as tz
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from core.throttles import SubmissionThrottle, throttled_view
from tournaments.actors import LinkHolder
from tournaments.models import Entry, Fixture, League, Result, ResultLink
from tournaments.permissions import can_view, is_organizer
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
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
            if "act" in request.POST:  # one form, a button per row: "in:<entry id>"
                action, _sep, entry_id = request.POST["act"].partition(":")
            else:
                entry_id = request.POST.get("entry", "")
            try:
                entry = league.entries.select_related("league", "player").get(pk=int(entry_id))
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


@require_http_methods(["GET", "POST"])
@throttled_view([SubmissionThrottle])
def table_page(request, pk: int):
    """The table's result page (the QR code on its card): a player at the table enters the
    placings (or count points), another confirms or disputes, anyone at it calls the
    referee. Who does not sit at the table sees it, and nothing to press."""
    fixture = _table_or_404(request, pk, posting=request.method == "POST")
    league = fixture.league
    actor = table_actor(request, league)
    sits = champ.sits_at(actor, fixture)
    organizer = request.user.is_authenticated and is_organizer(request.user, league)
    form = HandResultForm(None, fixture=fixture, reason_required=False)
    status, error = 200, None
    if request.method == "POST":
        do = request.POST.get("do", "enter")
        try:
            if do == "enter":
                form = HandResultForm(request.POST, fixture=fixture, reason_required=False)
                if not form.is_valid():
                    raise ServiceError(_("Give every player's place, or the count points."))
                entered: list[Result] = []  # the service's answer: no need to read it again
                refused = hand_result_send(
                    form,
                    lambda **kw: entered.append(champ.table_result_enter(**kw)),
                    fixture=fixture,
                    by=actor,
                )
                if refused is not None:
                    status, error = refused
                elif entered[0].state == Result.State.DISPUTED:
                    messages.warning(
                        request,
                        _(
                            "Your entry differs from the one entered before: the table is "
                            "disputed, and the desk decides."
                        ),
                    )
                else:
                    messages.success(request, _("The result is entered."))
            elif do in ("confirm", "dispute"):
                result = fixture.results.get(pk=int(request.POST.get("result", "0")))
                if do == "confirm":
                    result_services.result_confirm(result=result, by=actor)
                    messages.success(request, _("The result is confirmed and counts."))
                else:
                    result_services.result_dispute(
                        result=result, by=actor, reason=request.POST.get("reason", "")
                    )
                    messages.success(request, _("The result is disputed; the desk decides."))
            elif do in ("referee", "referee-clear"):
                champ.table_referee_call(fixture=fixture, by=actor, called=do == "referee")
                if do == "referee":
                    messages.success(request, _("The referee is called to this table."))
            else:
                raise Http404("unknown action")
        except (ValueError, Result.DoesNotExist):
            raise Http404("no such result at this table") from None
        except ServiceError as exc:
            status = 403 if isinstance(exc, NotAllowed) else 400
            error = exc.localized()
        if status == 200:
            return redirect(reverse("tournaments:table", args=[pk]))
    fixture = _table_or_404(request, pk)
    current = champ_reads.open_result(fixture)
    names = {s.entry_id: s.entry.player.name for s in fixture.seats.all()}
    return render(
        request,
        "tournaments/championship/table.html",
        {
            "league": league,
            "fixture": fixture,
            "state": champ_reads.table_state(fixture),
            "current": current,
            "placed": [names.get(e, "?") for e in (current.placings if current else [])],
            "sits": sits,
            "organizer": organizer,
            "mine": current is not None and champ.same_actor(current, actor),
            "form": form,
            "form_error": error,
            "login_url": reverse("login") + "?" + urlencode({"next": request.path}),
        },
        status=status,
    )


@login_required
def desk_tables(request, slug: str):
    """The desk's view of a round's tables: each one's state (referee called, disputed,
    entered, playing, confirmed), most urgent first."""
    league = organized_league(request, slug)
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


@login_required
@require_http_methods(["GET", "POST"])
def desk_registration(request, slug: str):
    """The desk's registration page: the capacity, the check-in deadline (and applying it
    now), the team rule, and teams and categories pasted one line per player."""
    league = organized_league(request, slug)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "settings":
                champ.league_set_registration(
                    league=league, by=request.user, **_parse_settings(request.POST)
                )
                messages.success(request, _("Saved."))
            elif action == "deadline":
                if not is_organizer(request.user, league):
                    raise NotAllowed("organizers only")
                released, promoted = champ.checkin_deadline_apply(league=league)
                messages.success(
                    request,
                    _("Places released: %(released)d; players moved up: %(promoted)d.")
                    % {"released": len(released), "promoted": len(promoted)},
                )
            elif action == "teams":
                changed = champ.entries_set_teams(
                    league=league, by=request.user, text=request.POST.get("text", "")
                )
                messages.success(request, _("Players changed: %(n)d.") % {"n": changed})
            else:
                raise Http404("unknown action")
        except ServiceError as exc:
            messages.error(request, exc.localized())
        return redirect(reverse("tournaments:desk-registration", args=[slug]))
    listing = champ_reads.checkin_list(league)
    teams_text = "\n".join(
        f"{e.player.name}; {e.team}; {e.category}"
        for e in sorted(listing.entries, key=lambda e: e.player.name.casefold())
        if e.team or e.category
    )
    return render(
        request,
        "tournaments/championship/registration.html",
        {
            "league": league,
            "tab": "desk",
            "is_organizer": True,
            "listing": listing,
            "deadline": _deadline_value(league),
            "teams_text": teams_text,
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
        {"league": league, "board": board, "tab": "standings"},
    )
