"""A player's page: leagues, games and statistics from their logs; sharing a player
without an account with other organizers (its creator or staff)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ratings.selectors.ratings import player_rating_view
from tournaments.models import Player
from tournaments.permissions import may_share
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import players as player_selectors
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.players import player_set_shared
from tournaments.web.caching import Revision, public_page


def player_revision(request, slug: str, **kwargs) -> Revision | None:
    """A player's page: stored per the player's row, the content revisions of the leagues
    they are entered in and the ratings writer's time (``selectors.leagues.player_stamp``,
    one query)."""
    stamp = league_selectors.player_stamp(slug)
    return Revision(stamp, stored=True) if stamp else None


@require_GET
@public_page(player_revision)
def player_detail(request, slug: str):
    try:
        player = player_selectors.player_get(slug)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    page = player_selectors.player_page(player, request.user, request.GET.get("page"))
    context = {
        "page": page,
        "player_rating": player_rating_view(player, request.user),
        "leagues": page.leagues_page,
        "player": player,
        "can_share": may_share(request.user, player),
    }
    return render(request, "tournaments/player.html", context)


@login_required
@require_POST
def player_share(request, slug: str):
    """The creator of a player without an account (or staff) shares it with every
    organizer (they may enter it in their leagues) or stops sharing it."""
    player = Player.objects.filter(slug=slug).first()
    if player is None:
        raise Http404("no such player")
    shared = request.POST.get("shared") == "1"
    try:
        player_set_shared(player=player, by=request.user, shared=shared)
    except ServiceError as exc:
        status = 403 if isinstance(exc, NotAllowed) else 400
        return render(
            request,
            "tournaments/player.html",
            {
                "page": (page := player_selectors.player_page(player, request.user)),
                "player_rating": player_rating_view(player, request.user),
                "leagues": page.leagues_page,
                "player": player,
                "can_share": may_share(request.user, player),
                "share_error": exc.message,
            },
            status=status,
        )
    if shared:
        messages.success(
            request, _("Other organizers may now enter %(name)s.") % {"name": player.name}
        )
    else:
        messages.success(
            request, _("Only you (and staff) may enter %(name)s now.") % {"name": player.name}
        )
    return redirect("tournaments:player", slug=player.slug)
