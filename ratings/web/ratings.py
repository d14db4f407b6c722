"""The public ratings table, the 3T World Rankings page and a head-to-head page (each the
same for every anonymous visitor: ``public_page``, docs/pages.md, "Caching by a shared cache
or CDN"), stored per the site's revisions (docs/pages.md, "Stored renderings"): the ratings
table and the rankings under ``directory_stamp`` (every league's revision, the players',
the ratings writer's time), a head-to-head under ``pair_stamp``."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings.config import ACTIVE_MONTHS_CHOICES
from ratings.selectors import ratings as rating_selectors
from tournaments.algorithms.world_rankings import PRECEDENCE
from tournaments.models import Player
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import players as player_selectors
from tournaments.selectors import rankings as ranking_selectors
from tournaments.web.caching import Revision, public_page


def ratings_revision(request, **kwargs) -> Revision | None:
    """The ratings table (this page, the API's list and CSV): every league's revision (the
    leagues' visibility, format and board pick who is listed), the players' (names) and
    the ratings writer's time (every rating and rating change it writes). Not stored with
    ``active``: "played in the last N months" is counted from now, so that table changes
    with the clock."""
    if (request.GET.get("active") or "").strip():
        return None
    stamp = league_selectors.directory_stamp(ratings=True)
    return Revision(f"r-{stamp}", stored=True) if stamp else None


def rankings_revision(request, **kwargs) -> Revision | None:
    """The 3T World Rankings (this page, the API's answer and CSV): made of finished
    leagues' final places, games won, levels and names and their players' names, all in
    their leagues' revisions, and of the players' revision; no rating. ``as_of`` (the
    API's) is a date in the query, so in the key."""
    stamp = league_selectors.directory_stamp()
    return Revision(f"w-{stamp}", stored=True) if stamp else None


def head_to_head_revision(request, slug: str, other: str, **kwargs) -> Revision | None:
    """Two players' rows and the revisions of the leagues both are entered in."""
    stamp = league_selectors.pair_stamp(slug, other)
    return Revision(stamp, stored=True) if stamp else None


@require_GET
@public_page(ratings_revision)
def ratings_table(request):
    try:
        filters = rating_selectors.RatingFilters.parse(request.GET)
        error = None
    except rating_selectors.FilterError as exc:
        filters, error = rating_selectors.RatingFilters(), str(exc)
    rows = rating_selectors.ratings_page(filters, request.GET.get("page"))
    return render(
        request,
        "tournaments/ratings.html",
        {
            "rows": rows,
            "filters": filters,
            "filter_error": error,
            "formats": rating_selectors.FORMATS,
            "boards": rating_selectors.BOARDS,
            "months": ACTIVE_MONTHS_CHOICES,
            "csv_query": _csv_query(filters),
        },
        status=400 if error else 200,
    )


def _csv_query(filters: rating_selectors.RatingFilters) -> str:
    """The API's names for the same filters (``?format=`` picks a renderer there)."""
    params = {
        "game_format": filters.format,
        "board": filters.board,
        "active": filters.active_months,
    }
    return urlencode({k: v for k, v in params.items() if v})


@require_GET
@public_page(rankings_revision)
def world_rankings(request):
    page = ranking_selectors.world_rankings()
    rows = [(row, page.players.get(row.player)) for row in page.ranking.rows]
    return render(
        request,
        "tournaments/rankings.html",
        {
            "page": page,
            "rows": rows,
            "tournaments": [
                (t, page.leagues.get(t.tournament_id)) for t in page.ranking.tournaments
            ],
            "precedence": [label for _, label in PRECEDENCE],
        },
    )


def _player(slug: str) -> Player:
    try:
        return player_selectors.player_get(slug)
    except Player.DoesNotExist:
        raise Http404("no such player") from None


@require_GET
@public_page(head_to_head_revision)
def head_to_head(request, slug: str, other: str):
    player, opponent = _player(slug), _player(other)
    if player.pk == opponent.pk:
        raise Http404("a player has no record against themselves")
    h2h = player_selectors.head_to_head(player, opponent, request.user)
    return render(request, "tournaments/head_to_head.html", {"h2h": h2h})
