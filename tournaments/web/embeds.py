"""Embeds: a public league's standings, bracket and schedule as minimal pages another site
can put in an iframe (the only pages whose Content-Security-Policy ``frame-ancestors``
allows other sites, and without X-Frame-Options), and the same data as public JSON that any
site's script may read (CORS). Light or dark (``?theme=light|dark``, default: the reader's
system setting), language by parameter (``?lang=de``, default the site's language, never the
visitor's headers, so one URL is one page for every cache).

Only public leagues: a private league's embed is a 404 for everyone, signed in or not, so an
embed is the same for every visitor and always shared-cacheable.
"""

from __future__ import annotations

import json
from functools import wraps

from csp.decorators import csp_replace
from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from tournaments.selectors import embeds as embed_selectors
from tournaments.selectors import playoffs as playoff_selectors
from tournaments.selectors import schedule as schedule_selectors
from tournaments.web.caching import embed_page
from tournaments.web.leagues import _format_extras

THEMES = ("light", "dark", "auto")


def _language(request) -> str:
    wanted = (request.GET.get("lang") or "").lower()
    codes = {code for code, _ in settings.LANGUAGES}
    return wanted if wanted in codes else settings.LANGUAGE_CODE.split("-")[0]


def embeddable(view):
    """Frame-able by any site (``EMBED_FRAME_ANCESTORS``), in the language of ``?lang``."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        with translation.override(_language(request)):
            response = view(request, *args, **kwargs)
        return response

    framed = csp_replace({"frame-ancestors": settings.EMBED_FRAME_ANCESTORS})(
        xframe_options_exempt(wrapped)
    )
    return require_GET(framed)


def _base_url(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _context(request, league, what: str) -> dict:
    theme = request.GET.get("theme", "auto")
    return {
        "league": league,
        "what": what,
        "theme": theme if theme in THEMES else "auto",
        "base_url": _base_url(request),
        "embed_lang": translation.get_language(),
    }


def _league(slug: str):
    league = embed_selectors.public_league(slug)
    if league is None:
        raise Http404("no such public league")
    return league


@embeddable
@embed_page
def embed_standings(request, slug: str):
    from tournaments.selectors import standings as standings_selectors

    league = _league(slug)
    return render(
        request,
        "tournaments/embed/standings.html",
        {
            **_context(request, league, "standings"),
            "snapshots": standings_selectors.standings_tables(league),
            **_format_extras(league),
        },
    )


@embeddable
@embed_page
def embed_bracket(request, slug: str):
    league = _league(slug)
    return render(
        request,
        "tournaments/embed/bracket.html",
        {**_context(request, league, "bracket"), "rounds": playoff_selectors.playoffs(league)},
    )


@embeddable
@embed_page
def embed_schedule(request, slug: str):
    league = _league(slug)
    return render(
        request,
        "tournaments/embed/schedule.html",
        {
            **_context(request, league, "schedule"),
            "blocks": schedule_selectors.current_schedule(league),
        },
    )


DATA = {
    "standings": embed_selectors.standings_data,
    "bracket": embed_selectors.bracket_data,
    "schedule": embed_selectors.schedule_data,
}


def _cors(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Access-Control-Allow-Origin"] = "*"
        return response

    return wrapped


@require_GET
@_cors
@embed_page
def embed_json(request, slug: str, what: str):
    """The embed's data as JSON, readable by any site's script (``Access-Control-Allow-
    Origin: *``; no credentials are ever honoured: the data is public)."""
    if what not in DATA:
        raise Http404("no such embed")
    league = _league(slug)
    data = DATA[what](league, _base_url(request))
    return HttpResponse(
        json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str),
        content_type="application/json",
    )
