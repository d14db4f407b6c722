"""The header's search: players and leagues by name (``tournaments.selectors.search``)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.selectors import search as search_selectors
from tournaments.web.caching import public_page


@require_GET
@public_page()
def search(request):
    results = search_selectors.search(request.GET.get("q", ""), request.user)
    return render(
        request,
        "tournaments/search.html",
        {"results": results, "min_length": search_selectors.MIN_LENGTH},
    )
