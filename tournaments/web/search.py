"""The header's search: players and leagues by name (``tournaments.selectors.search``),
stored per query under every league's revision and the players' (docs/pages.md, "Stored
renderings")."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import search as search_selectors
from tournaments.web.caching import Revision, public_page


def search_revision(request, **kwargs) -> Revision | None:
    """Every player (the players' revision) and every league an anonymous visitor may see
    (every league's revision: names, visibility, status, format), matched the way this
    database can (with or without trigrams); the query is in the stored page's key."""
    stamp = league_selectors.directory_stamp()
    return Revision(f"q-{search_selectors.search_method()}-{stamp}", stored=True) if stamp else None


@require_GET
@public_page(search_revision)
def search(request):
    results = search_selectors.search(request.GET.get("q", ""), request.user)
    return render(
        request,
        "tournaments/search.html",
        {"results": results, "min_length": search_selectors.MIN_LENGTH},
    )
