"""A player's page: leagues, games and statistics from their logs."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.models import Player
from tournaments.selectors import players as player_selectors
from tournaments.web.caching import public_page


@require_GET
@public_page()
def player_detail(request, slug: str):
    try:
        player = player_selectors.player_get(slug)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    page = player_selectors.player_page(player, request.user)
    return render(request, "tournaments/player.html", {"page": page, "player": player})
