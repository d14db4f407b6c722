"""A player's own page, "My games" (/me/): what needs them now, and a private calendar feed
of their games (an unguessable signed link a calendar app can poll without a session)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import exports
from tournaments.models import Player
from tournaments.selectors import my_games as my_games_selectors

CALENDAR_SALT = "tournaments.my-calendar"


def calendar_token(player: Player) -> str:
    """The signed token of the player's calendar link: it names the player, so only the
    site (holding SECRET_KEY) can make one; whoever has the link sees the player's games."""
    return signing.Signer(salt=CALENDAR_SALT).sign(str(player.pk))


def calendar_player(token: str) -> Player | None:
    try:
        pk = int(signing.Signer(salt=CALENDAR_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return Player.objects.filter(pk=pk).first()


@login_required
@require_GET
@never_cache
def my_games(request):
    page = my_games_selectors.my_games(request.user)
    calendar_url = None
    if page.player is not None:
        calendar_url = request.build_absolute_uri(
            reverse("tournaments:my-calendar", args=[calendar_token(page.player)])
        )
    return render(
        request,
        "tournaments/my_games.html",
        {"page": page, "calendar_url": calendar_url},
    )


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
