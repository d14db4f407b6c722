"""A league's pages: overview, schedule, standings (cached whole for anonymous visitors,
with a live-refresh fragment answering 304 when nothing changed) and playoffs."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.engine.fairness import FACES
from tournaments.permissions import is_organizer
from tournaments.selectors import analyses as analysis_selectors
from tournaments.selectors import formats as format_selectors
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import playoffs as playoff_selectors
from tournaments.selectors import schedule as schedule_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.next_step import next_step
from tournaments.services import events, open_tournaments, tie_breaks
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import entries_open_error
from tournaments.services.open_tournaments import open_final_ranking
from tournaments.web.caching import Revision, public_page, rendering_version
from tournaments.web.forms import TieBreakRollForm
from tournaments.web.lookups import league_or_404


def league_content_revision(request, slug: str, **kwargs) -> Revision | None:
    """A public league's pages stored per content stamp (``selectors.leagues.content_stamp``:
    one query; exact, since the database raises the revision with every change they show),
    language and path; None for a private league or where no revision is kept."""
    stamp = league_selectors.content_stamp(slug)
    request.league_content_stamp = stamp  # the view's fragments reuse it: one query
    if stamp is None or not stamp.is_public:
        return None
    return Revision(stamp.etag, stored=True)


@require_GET
@public_page(league_content_revision)
def league_detail(request, slug: str):
    league = league_or_404(request, slug)
    organizer = is_organizer(request.user, league)
    return render(
        request,
        "tournaments/league.html",
        {
            "league": league,
            "overview": league_selectors.league_overview(league),
            "tab": "league",
            "is_organizer": organizer,
            "actions": _organizer_actions(league) if organizer else [],
            "roll_form": TieBreakRollForm() if organizer else None,
            "champion": league_selectors.league_champion(league),
            "can_join": _can_join(request.user, league),
        },
    )


def _organizer_actions(league) -> list[str]:
    """The format's organizer action offered on the league page: the next step's, when it
    is one (``selectors.next_step``), and a Grand Prix's extra game while its top is tied
    with no game left (normally added by itself)."""
    step = next_step(league)
    actions = [step.action] if step.action else []
    if league.event_kind == league.EventKind.GRAND_PRIX and league.status != "finished":
        try:
            if events.grand_prix_state(league).extra_game_needed:
                actions.append("extra-game")
        except ServiceError:
            pass
    return actions


ACTIONS = {
    "schedule-event": (
        lambda league, user: events.event_schedule(league=league, by=user),
        gettext_lazy("The games are scheduled."),
    ),
    "extra-game": (
        lambda league, user: events.grand_prix_add_game(league=league, by=user),
        gettext_lazy("An extra game is added."),
    ),
    "draw-round": (
        lambda league, user: open_tournaments.open_round_draw(league=league, by=user),
        gettext_lazy("The next round is drawn."),
    ),
    "final-table": (
        lambda league, user: open_tournaments.open_final_table(league=league, by=user),
        gettext_lazy("The final table is seated."),
    ),
}


@require_POST
def league_action(request, slug: str, action: str):
    """An organizer's format action from the league page: schedule an event, add an extra
    Grand Prix game, draw the next open round, seat the final table, record a tie-break
    roll. The service decides; its refusal is shown as the message."""
    league = league_or_404(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        if action == "tie-break-roll":
            if not _tie_break_roll(request, league):
                return redirect("tournaments:league", slug=league.slug)
        else:
            _format_action(request, league, action)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    if request.POST.get("next") == "manage":
        return redirect("tournaments:manage", slug=league.slug)
    return redirect("tournaments:league", slug=league.slug)


def _tie_break_roll(request, league) -> bool:
    """Record the roll-off typed (``TieBreakRollForm``); False when the form's mistakes
    were told instead."""
    form = TieBreakRollForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return False
    tie_breaks.tie_break_roll_record(
        league=league,
        by=request.user,
        rolls=form.cleaned_data["rolls"],
        note=form.cleaned_data["note"],
    )
    messages.success(request, gettext("The tie-break roll is recorded."))
    return True


def _format_action(request, league, action: str) -> None:
    """One of the ``ACTIONS``, told when done."""
    if action not in ACTIONS:
        raise Http404("no such action")
    run, done = ACTIONS[action]
    run(league, request.user)
    messages.success(request, str(done))


def _can_join(user, league) -> bool:
    """Show the join button: registration open, entries open, the account's player not
    entered yet."""

    if not (user.is_authenticated and league.registration_open):
        return False
    if entries_open_error(league):
        return False
    return not league.entries.filter(player__user=user).exists()


@require_GET
@public_page(league_content_revision)
def league_schedule(request, slug: str):
    league = league_or_404(request, slug)
    return render(
        request,
        "tournaments/schedule.html",
        {"league": league, "tab": "schedule", "body_html": _schedule_body(request, league)},
    )


def _schedule_body(request, league) -> str:
    """The schedule below the league's header, the same for everyone who may see the
    league: stored per content stamp, language and full path (the query picks the part,
    the rounds and the player, and the pager's links echo it), so a signed-in visitor's
    page costs its header only."""
    stamp = getattr(request, "league_content_stamp", None)
    if stamp is None or stamp.league_id != league.pk:
        stamp = league_selectors.content_stamp(league.slug)
    key = None
    if stamp is not None:
        where = hashlib.blake2b(request.get_full_path().encode(), digest_size=16).hexdigest()
        key = f"schedule-html:{stamp.etag}:{get_language()}:{where}"
        if (html := cache.get(key)) is not None:
            return mark_safe(html)  # our own template's output (autoescaped when rendered)
    players = league_selectors.entry_players(league)
    wanted = request.GET.get("player", "")
    player = next((p for p in players if p.slug == wanted), None)
    shown = not wanted or player is not None
    parts = schedule_selectors.schedule_parts(league, player) if shown else []
    part = schedule_selectors.current_part(parts, request.GET.get("part"))
    rounds = schedule_selectors.round_pages(league, player, part, request.GET.get("rounds"))
    html = render_to_string(
        "tournaments/_schedule_body.html",
        {
            "league": league,
            "players": players,
            "player": player,
            "unknown_player": bool(wanted) and player is None,
            "parts": schedule_selectors.part_window(parts, part),
            "part": part,
            "rounds": rounds,
            "blocks": schedule_selectors.schedule(
                league, player, part, rounds.object_list if rounds else None
            )
            if part
            else [],
        },
        request=request,
    )
    if key:
        cache.set(key, str(html), STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # our own template's output (autoescaped when rendered)


@require_GET
@public_page(league_content_revision)
def league_dice(request, slug: str):
    """The dice of the league's counted logs: the faces' counts against a fair die (the
    chi-square test), overall and per player, with what such a test can and cannot show."""
    league = league_or_404(request, slug)
    dice = analysis_selectors.league_dice(league)
    return render(
        request,
        "tournaments/dice.html",
        {
            "league": league,
            "tab": "dice",
            "dice": dice,
            "faces": FACES,
            "expected": 0.05 * len(dice["players"]),
            "is_organizer": is_organizer(request.user, league),
        },
    )


def _standings_revision(request, slug: str) -> Revision | None:
    """The standings page's revision: the snapshot stamp (one query)."""
    stamp = standings_selectors.standings_stamp(slug)
    request.standings_stamp = stamp  # the view reuses it: still one query per visit
    if stamp is None or not stamp.is_public:
        return None
    at = stamp.computed_at.timestamp() if stamp.computed_at else None
    return Revision(f"page-{stamp.etag}", at)


def _standings_keep() -> int:
    """Seconds an anonymous standings page is kept whole (no query at all, not even the
    stamp): short, since a new result should show soon; never longer than the other
    public pages (0 there, as in the tests: always the stamp)."""
    return min(settings.STANDINGS_PAGE_CACHE_SECONDS, settings.PUBLIC_PAGE_CACHE_SECONDS)


def _standings_shared_for() -> int:
    """Seconds a shared cache (nginx's, a CDN) may keep the standings page: as long as
    the application keeps it (``STANDINGS_PAGE_CACHE_SECONDS``, 5 s), not the other
    pages' 30 s: a new result shows within seconds, on a championship day too."""
    return min(settings.STANDINGS_PAGE_CACHE_SECONDS, settings.PUBLIC_PAGES_S_MAXAGE)


@require_GET
@public_page(
    _standings_revision, keep=_standings_keep, ignore_query=True, shared_for=_standings_shared_for
)
def league_standings(request, slug: str):
    stamp = getattr(request, "standings_stamp", None) or standings_selectors.standings_stamp(slug)
    page_key = _shared_page_key(request, stamp)
    if page_key and (page := cache.get(page_key)) is not None:
        response = HttpResponse(page)  # the same bytes for every visitor until a recompute
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response
    league = league_or_404(request, slug)
    failure_detail = _failure_detail(request, league, stamp)
    response = render(
        request,
        "tournaments/standings.html",
        {
            "league": league,
            "tab": "standings",
            "failure_detail": failure_detail,
            "tables_html": _standings_tables_html(request, league, stamp),
            "etag": _standings_etag(stamp),
            "poll_seconds": STANDINGS_POLL_SECONDS,
        },
    )
    if page_key:
        cache.set(page_key, response.content, STANDINGS_CACHE_SECONDS)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def _failure_detail(request, league, stamp) -> str | None:
    """The raw error of a failed recompute: organizers only."""
    if stamp is None or stamp.failed_revision is None or not is_organizer(request.user, league):
        return None
    failure = standings_selectors.standings_failure(league)
    return failure.error if failure else None


def _shared_page_key(request, stamp: standings_selectors.StandingsStamp | None) -> str | None:
    """A cache key when the page is the same for every visitor: a public league, a visitor
    without a session or pending messages (no personal header, no CSRF token, no flash)."""
    if stamp is None or not stamp.is_public or request.user.is_authenticated:
        return None
    if request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.COOKIES.get("messages"):
        return None
    # keyed by what changes the page: the snapshot, the language and the path; a query
    # string (?utm=…) changes nothing, so it must not multiply the keys
    return f"standings-page:{rendering_version()}:{stamp.etag}:{get_language()}:{request.path}"


def _standings_tables_html(request, league, stamp: standings_selectors.StandingsStamp) -> str:
    """The rendered table(s), cached per snapshot and language: a snapshot never changes
    once written, so its HTML is reused until the next recompute (whose stamp differs)."""
    key = f"standings-html:{rendering_version()}:{stamp.etag}:{get_language()}"
    html = cache.get(key)
    if html is None:
        failure = (
            standings_selectors.standings_failure(league)
            if stamp.failed_revision is not None
            else None
        )
        html = render_to_string(
            "tournaments/_standings_tables.html",
            {
                "league": league,
                "snapshots": standings_selectors.standings_tables(league),
                "failure": failure,
                **format_extras(league),
            },
            request=request,
        )
        cache.set(key, str(html), STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # our own template's output (autoescaped when rendered)


def format_extras(league) -> dict:
    """What the formats add to the standings: a Grand Prix's state, an open tournament's
    final ranking, the recorded tie-break rolls. All change only with a counted result or
    a recorded roll, which make a new snapshot stamp, so they are cached with the table."""
    extras: dict = {
        "grand_prix": format_selectors.grand_prix_summary(league),
        "rolls": format_selectors.tie_break_rolls(league),
        "final_ranking": None,
        # a finished league names its champion above the table (its page and its embed)
        "champion": league_selectors.league_champion(league),
    }
    if league.event_kind == league.EventKind.OPEN:
        order = open_final_ranking(league)
        if order:
            names = dict(league.entries.values_list("pk", "player__name"))
            extras["final_ranking"] = [names[e] for e in order]
    return extras


STANDINGS_CACHE_SECONDS = 3600


STANDINGS_POLL_SECONDS = 15


def _standings_etag(stamp: standings_selectors.StandingsStamp) -> str:
    return quote_etag(f"{stamp.etag}-{get_language()}")


@require_GET
def standings_fragment(request, slug: str):
    """The standings table alone, for live refresh. Answers 304 Not Modified when the
    snapshot has not changed since the ETag / Last-Modified the poller sends: one query."""
    stamp = standings_selectors.standings_stamp(slug)
    if stamp is None:
        raise Http404("no such league")
    if not stamp.is_public:
        league_or_404(request, slug)
    etag = _standings_etag(stamp)
    last_modified = int(stamp.computed_at.timestamp()) if stamp.computed_at else None
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        league = league_selectors.league_get(slug)
        response = HttpResponse(_standings_tables_html(request, league, stamp))
    response["ETag"] = etag
    if last_modified:
        response["Last-Modified"] = http_date(last_modified)
    response["Cache-Control"] = "no-cache" if stamp.is_public else "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_GET
@public_page(league_content_revision)
def league_playoffs(request, slug: str):
    league = league_or_404(request, slug)
    return render(
        request,
        "tournaments/playoffs.html",
        {
            "league": league,
            "tab": "playoffs",
            "rounds": playoff_selectors.playoffs(league),
            "champion": league_selectors.league_champion(league),
        },
    )
