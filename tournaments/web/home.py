"""The home page (running leagues, newest results) and the rules page (the presets and
their options)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engine.rules import OPTIONS, PRESET_OPTIONS, PRESET_TITLES
from tournaments.selectors import games as game_selectors
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import my_games as my_games_selectors
from tournaments.web.caching import Revision, public_page


def home_revision(request, **kwargs) -> Revision | None:
    """The home page shows leagues and their newest results only: stored per the digest of
    every league's content revision (one query)."""
    stamp = league_selectors.site_stamp()
    return Revision(stamp, stored=True) if stamp else None


@require_GET
@public_page(home_revision)
def home(request):
    return render(
        request,
        "tournaments/home.html",
        {
            "leagues": league_selectors.home_leagues(request.GET.get("page")),
            "results": game_selectors.latest_results(),
            # signed in: what needs me, above the leagues (the whole list at /me/)
            "mine": my_games_selectors.my_games(request.user)
            if request.user.is_authenticated
            else None,
        },
    )


@require_GET
@public_page()
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
