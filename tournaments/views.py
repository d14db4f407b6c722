"""The public pages: home, rules, a league (overview, schedule, standings, playoffs), a game
(result, replay, upload / confirm / dispute forms) and a player.

Views stay thin: reads go through ``tournaments.selectors``, writes through the services,
permissions through ``tournaments.permissions``. A private league is a 404 for outsiders.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import views as game_views
from games.engine.rules import OPTIONS, PRESET_OPTIONS, PRESET_TITLES
from games.geometry import board_layout
from games.models import GameLog
from tournaments import selectors
from tournaments.forms import DisputeForm, LogUploadForm, ResolveForm
from tournaments.models import Fixture, League, Player, Result
from tournaments.permissions import can_view, is_organizer, seat_of
from tournaments.services import results as result_services
from tournaments.services.errors import NotAllowed, ServiceError

# --- helpers -------------------------------------------------------------------------------------


def _league_or_404(request, slug: str) -> League:
    try:
        league = selectors.league_get(slug)
    except League.DoesNotExist:
        raise Http404("no such league") from None
    if not can_view(request.user, league):
        raise Http404("no such league")  # a private league does not exist for outsiders
    return league


def _fixture_or_404(request, pk: int) -> Fixture:
    try:
        fixture = selectors.fixture_get(pk)
    except Fixture.DoesNotExist:
        raise Http404("no such game") from None
    if not can_view(request.user, fixture.league):
        raise Http404("no such game")
    return fixture


def _result_of(fixture: Fixture, result_id: int) -> Result:
    for result in fixture.all_results:
        if result.pk == result_id:
            return result
    raise Http404("no such result")


# --- home and rules ------------------------------------------------------------------------------


@require_GET
def home(request):
    return render(
        request,
        "tournaments/home.html",
        {"leagues": selectors.home_leagues(), "results": selectors.latest_results()},
    )


@require_GET
def rules(request):
    presets = [
        {"name": name, "title": PRESET_TITLES.get(name, name), "options": options}
        for name, options in PRESET_OPTIONS.items()
    ]
    return render(
        request,
        "tournaments/rules.html",
        {"presets": presets, "options": list(OPTIONS.values())},
    )


# --- a league ------------------------------------------------------------------------------------


@require_GET
def league_detail(request, slug: str):
    league = _league_or_404(request, slug)
    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "overview": selectors.league_overview(league),
            "tab": "league",
            "is_organizer": is_organizer(request.user, league),
        },
    )


@require_GET
def league_schedule(request, slug: str):
    league = _league_or_404(request, slug)
    players = selectors.entry_players(league)
    wanted = request.GET.get("player", "")
    player = next((p for p in players if p.slug == wanted), None)
    return render(
        request,
        "tournaments/schedule.html",
        {
            "league": league,
            "tab": "schedule",
            "players": players,
            "player": player,
            "unknown_player": bool(wanted) and player is None,
            "blocks": selectors.schedule(league, player) if not wanted or player else [],
        },
    )


@require_GET
def league_standings(request, slug: str):
    stamp = selectors.standings_stamp(slug)
    page_key = _shared_page_key(request, stamp)
    if page_key and (page := cache.get(page_key)) is not None:
        response = HttpResponse(page)  # the same bytes for every visitor until a recompute
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response
    league = _league_or_404(request, slug)
    response = render(
        request,
        "tournaments/standings.html",
        {
            "league": league,
            "tab": "standings",
            "tables_html": _standings_tables_html(request, league, stamp),
            "etag": _standings_etag(stamp),
            "poll_seconds": STANDINGS_POLL_SECONDS,
        },
    )
    if page_key:
        cache.set(page_key, response.content, STANDINGS_CACHE_SECONDS)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def _shared_page_key(request, stamp: selectors.StandingsStamp | None) -> str | None:
    """A cache key when the page is the same for every visitor: a public league, a visitor
    without a session or pending messages (no personal header, no CSRF token, no flash)."""
    if stamp is None or not stamp.is_public or request.user.is_authenticated:
        return None
    if request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.COOKIES.get("messages"):
        return None
    return f"standings-page:{stamp.etag}:{get_language()}:{request.get_full_path()}"


def _standings_tables_html(request, league, stamp: selectors.StandingsStamp) -> str:
    """The rendered table(s), cached per snapshot and language: a snapshot never changes
    once written, so its HTML is reused until the next recompute (whose stamp differs)."""
    key = f"standings-html:{stamp.etag}:{get_language()}"
    html = cache.get(key)
    if html is None:
        html = render_to_string(
            "tournaments/_standings_tables.html",
            {"league": league, "snapshots": selectors.standings_tables(league)},
            request=request,
        )
        cache.set(key, str(html), STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # our own template's output (autoescaped when rendered)


STANDINGS_CACHE_SECONDS = 3600


STANDINGS_POLL_SECONDS = 15


def _standings_etag(stamp: selectors.StandingsStamp) -> str:
    return quote_etag(f"{stamp.etag}-{get_language()}")


@require_GET
def standings_fragment(request, slug: str):
    """The standings table alone, for live refresh. Answers 304 Not Modified when the
    snapshot has not changed since the ETag / Last-Modified the poller sends: one query."""
    stamp = selectors.standings_stamp(slug)
    if stamp is None:
        raise Http404("no such league")
    if not stamp.is_public:
        _league_or_404(request, slug)
    etag = _standings_etag(stamp)
    last_modified = int(stamp.computed_at.timestamp()) if stamp.computed_at else None
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        league = selectors.league_get(slug)
        response = HttpResponse(_standings_tables_html(request, league, stamp))
    response["ETag"] = etag
    if last_modified:
        response["Last-Modified"] = http_date(last_modified)
    response["Cache-Control"] = "no-cache" if stamp.is_public else "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_GET
def league_playoffs(request, slug: str):
    league = _league_or_404(request, slug)
    return render(
        request,
        "tournaments/playoffs.html",
        {"league": league, "tab": "playoffs", "rounds": selectors.playoffs(league)},
    )


# --- a game --------------------------------------------------------------------------------------


def _game_context(request, fixture: Fixture, **forms) -> dict:
    user = request.user
    organizer = is_organizer(user, fixture.league)
    seat = seat_of(user, fixture)
    result = selectors.current_result(fixture)
    open_result = result if result and result.state in Result.OPEN_STATES else None
    can_submit = (organizer or seat is not None) and fixture.status != Fixture.Status.CANCELLED
    return {
        "league": fixture.league,
        "fixture": fixture,
        "seats": list(fixture.seats.all()),
        "entry_names": {s.entry_id: s.entry.player.name for s in fixture.seats.all()},
        "result": result,
        "history": fixture.all_results,
        "rejections": selectors.fixture_rejections(fixture) if (organizer or seat) else [],
        "is_organizer": organizer,
        "seat": seat,
        "can_submit": can_submit,
        "can_confirm": bool(
            open_result
            and open_result.state == Result.State.PENDING
            and (organizer or (seat is not None and open_result.submitted_by_id != user.pk))
        ),
        "can_dispute": bool(
            open_result
            and open_result.state == Result.State.PENDING
            and (organizer or seat is not None)
        ),
        "can_resolve": bool(open_result and organizer),
        "upload_form": forms.get("upload_form") or LogUploadForm(),
        "dispute_form": forms.get("dispute_form") or DisputeForm(),
        "resolve_form": forms.get("resolve_form") or ResolveForm(),
        "form_error": forms.get("form_error"),
        "layout": board_layout(result.game_log.board) if result and result.game_log else None,
    }


@require_GET
def game_detail(request, pk: int):
    fixture = _fixture_or_404(request, pk)
    return render(request, "tournaments/game.html", _game_context(request, fixture))


def _service_error(request, fixture: Fixture, exc: ServiceError, **forms):
    context = _game_context(request, fixture, form_error=exc.message, **forms)
    status = 403 if isinstance(exc, NotAllowed) else 400
    return render(request, "tournaments/game.html", context, status=status)


def _login_first(request, fixture: Fixture):
    return redirect_to_login(reverse("tournaments:game", args=[fixture.pk]))


@require_POST
def game_submit(request, pk: int):
    """Upload a log (file or pasted text) for this game."""
    fixture = _fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        context = _game_context(request, fixture, upload_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        result = result_services.game_log_submit(
            fixture=fixture, content=form.cleaned_data["log"], user=request.user
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, upload_form=form)
    if result.state == Result.State.CONFIRMED:
        messages.success(request, _("The log was accepted and the result counts."))
    else:
        messages.success(
            request, _("The log was accepted. The result counts once your opponent confirms it.")
        )
    return redirect("tournaments:game", pk=fixture.pk)


@require_POST
def result_confirm(request, pk: int, result_id: int):
    fixture = _fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    try:
        result_services.result_confirm(result=result, user=request.user)
    except ServiceError as exc:
        return _service_error(request, fixture, exc)
    messages.success(request, _("You confirmed the result; it counts now."))
    return redirect("tournaments:game", pk=fixture.pk)


@require_POST
def result_dispute(request, pk: int, result_id: int):
    fixture = _fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        context = _game_context(request, fixture, dispute_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        result_services.result_dispute(
            result=result, user=request.user, reason=form.cleaned_data["reason"]
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, dispute_form=form)
    messages.success(request, _("You disputed the result; an organizer will decide."))
    return redirect("tournaments:game", pk=fixture.pk)


@require_POST
def result_resolve(request, pk: int, result_id: int):
    fixture = _fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        context = _game_context(request, fixture, resolve_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        result_services.result_resolve(
            result=result,
            user=request.user,
            accept=form.cleaned_data["accept"],
            note=form.cleaned_data["note"],
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, resolve_form=form)
    messages.success(request, _("The result is decided."))
    return redirect("tournaments:game", pk=fixture.pk)


def _game_log_or_404(request, pk: int, log_id: int) -> tuple[Fixture, GameLog]:
    fixture = _fixture_or_404(request, pk)
    try:
        return fixture, selectors.fixture_log(fixture, log_id)
    except GameLog.DoesNotExist:
        raise Http404("no such log") from None


@require_GET
def game_log_raw(request, pk: int, log_id: int) -> HttpResponse:
    """The log exactly as uploaded (application/json)."""
    _fixture, log = _game_log_or_404(request, pk, log_id)
    return game_views.log_response(request, log, filename=f"game-{pk}-{log.sha256[:10]}.json")


@require_GET
def game_replay(request, pk: int, log_id: int) -> HttpResponse:
    """The replay viewer's data for a log of this game (JSON)."""
    fixture, log = _game_log_or_404(request, pk, log_id)
    return game_views.replay_response(
        request,
        log,
        players=selectors.seat_players(fixture),
    )


# --- a player ------------------------------------------------------------------------------------


@require_GET
def player_detail(request, slug: str):
    try:
        player = selectors.player_get(slug)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    page = selectors.player_page(player, request.user)
    return render(request, "tournaments/player.html", {"page": page, "player": player})
