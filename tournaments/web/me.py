"""A player's own page, "My games" (/me/): what needs them now, and a private calendar feed
of their games (an unguessable signed link a calendar app can poll without a session)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments import exports
from tournaments.models import Player
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import my_games as my_games_selectors
from tournaments.services import players as player_services
from tournaments.services.errors import ServiceError
from tournaments.web.personal import Page, Rendered, personal_page, stored_visit, unknown_query

CALENDAR_SALT = "tournaments.my-calendar"

#: how many games to play "My games" lists; the rest behind a link (``?games=all``): the
#: page's bytes bounded (the busiest bench player's 188 kB at 100× were 300-odd games)
TO_PLAY_SHOWN = 25


def calendar_token(player: Player) -> str:
    """The signed token of the player's calendar link: it names the player and the link's
    version (``Player.calendar_version``), so only the site (holding SECRET_KEY) can make
    one, and a new link (``calendar_link_rotate``) stops the old. Version 0 signs the bare
    id, as links made before versions did, so those keep working until the first rotation."""
    version = player.calendar_version
    value = str(player.pk) if not version else f"{player.pk}.{version}"
    return signing.Signer(salt=CALENDAR_SALT).sign(value)


def calendar_player(token: str) -> Player | None:
    try:
        value = signing.Signer(salt=CALENDAR_SALT).unsign(token)
        pk, _, version = value.partition(".")
        pk, version = int(pk), int(version or 0)
    except (signing.BadSignature, ValueError):
        return None
    return Player.objects.filter(pk=pk, calendar_version=version).first()


#: My games, stored per account under the stamp of its player; ``?games=all`` (every game
#: to play) is stored apart, any other query string is sent to the page without it
MY_GAMES = Page(
    "me",
    league_selectors.USER_PLAYER_STAMP_SQL,
    league_selectors.player_stamp_text,
    variants=(("games", ("all",)),),
)


@require_GET
@never_cache
def my_games(request):
    """The whole page stored per account (``personal.Page``) under the stamp of its player
    (their row — the calendar link's version too —, the ids and revisions of every league
    they are entered in: their games, seats, results and who sent them, invitations,
    requests), the header's state, the language, scheme, host (the calendar's absolute
    link), path and ``?games=all``, and the code; a visit that finds it stored is the
    session and one statement (``personal.stored_visit``). The only change without a write
    is the clock passing the next deadline (a game moves to "Past their deadline"): the
    stored page is used only before that moment (``MyGames.changes_at``). An account
    without a player is rendered each time (no stamp), as is every visit where the
    database keeps no revision (SQLite)."""
    return unknown_query(request, MY_GAMES) or stored_visit(request, MY_GAMES) or _my_games(request)


@login_required
def _my_games(request):
    return personal_page(request, MY_GAMES, lambda token: _my_games_page(request, token))


def _my_games_page(request, csrf_token: str) -> Rendered:
    page = my_games_selectors.my_games(request.user)
    calendar_url = None
    if page.player is not None:
        calendar_url = request.build_absolute_uri(
            reverse("tournaments:my-calendar", args=[calendar_token(page.player)])
        )
    every = request.GET.get("games") == "all"
    body = render_to_string(
        "tournaments/_my_games_body.html",
        {
            "page": page,
            "to_play": page.to_play if every else page.to_play[:TO_PLAY_SHOWN],
            "calendar_url": calendar_url,
            "csrf_token": csrf_token,
        },
        request=request,
    )
    response = render(
        request,
        "tournaments/my_games.html",
        # our own template's output (autoescaped)
        {"body_html": mark_safe(body), "csrf_token": csrf_token},
    )
    return response, page.changes_at.timestamp() if page.changes_at else None, None


@login_required
@require_POST
def my_calendar_rotate(request):
    """A new calendar link; the old one stops working (someone else got hold of it)."""
    player = my_games_selectors.player_of(request.user)
    if player is None:
        raise Http404("no player")
    try:
        player_services.calendar_link_rotate(player=player, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(
            request,
            _(
                "Your calendar has a new address; the old one no longer works. Subscribe "
                "to the new one in your calendar app."
            ),
        )
    return redirect(reverse("tournaments:my-games") + "#calendar-heading")


@require_GET
def my_calendar(request, token: str):
    """The player's games as iCalendar, every league they play in (private ones too: the
    link is theirs). A bad or altered token is a 404, saying nothing about any player."""
    player = calendar_player(token)
    if player is None:
        raise Http404("no such calendar")
    fixtures = my_games_selectors.player_fixtures_for_calendar(player)
    content = exports.schedule_ics(f"{player.name}: games", exports.schedule_fixtures(fixtures))
    response = HttpResponse(content, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{player.slug}-games.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response
