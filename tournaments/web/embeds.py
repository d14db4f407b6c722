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
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from tournaments.selectors import embeds as embed_selectors
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors import playoffs as playoff_selectors
from tournaments.selectors import schedule as schedule_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.web.caching import EMBED_VARY, Revision, public_page
from tournaments.web.leagues import format_extras

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


def embed_revision(request, slug: str, **kwargs) -> Revision | None:
    """An embed is stored under its public league's content stamp (exact: the database
    raises it with every change the league's pages show), the language (``?lang``), the
    scheme, host and full path (theme, language) and the code; None for a private league."""
    stamp = league_selectors.content_stamp(slug)
    if stamp is None or not stamp.is_public:
        return None
    return Revision(f"e-{stamp.etag}", stored=True)


#: the same page for every visitor (language and theme are in the URL), stored per stamp
embed_page = public_page(embed_revision, everyone=True, vary=EMBED_VARY)


def _league(slug: str):
    league = embed_selectors.public_league(slug)
    if league is None:
        raise Http404("no such public league")
    return league


@embeddable
@embed_page
def embed_standings(request, slug: str):

    league = _league(slug)
    return render(
        request,
        "tournaments/embed/standings.html",
        {
            **_context(request, league, "standings"),
            "snapshots": standings_selectors.standings_tables(league),
            **format_extras(league),
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


#: what can be embedded, and the default size of its frame (CSS pixels)
EMBED_KINDS = ("standings", "bracket", "schedule")
EMBED_MESSAGE = "maedn-embed-height"


def _host_script(origin: str) -> str:
    """The host page's script for auto-height: each embed posts ``{type, height}`` to its
    parent (``site.js``); this sets the height of the frame that sent it, only for messages
    from this site."""
    return (
        "<script>\n"
        'addEventListener("message", function (e) {\n'
        f'  if (e.origin !== "{origin}" || !e.data || e.data.type !== "{EMBED_MESSAGE}") return;\n'
        '  document.querySelectorAll("iframe[data-maedn-embed]").forEach(function (f) {\n'
        '    if (f.contentWindow === e.source) f.style.height = e.data.height + "px";\n'
        "  });\n"
        "});\n"
        "</script>"
    )


def _bounded(value, low: int, high: int, default: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return min(max(number, low), high)


@require_GET
def embed_code(request, slug: str):
    """ "Embed on your site": the ``<iframe>`` snippet of a public league's standings, bracket
    or schedule, with its size, theme and language chosen here, a copy button, a preview,
    and the host page's few lines for auto-height (the frame reports its height by
    ``postMessage``)."""

    league = _league(slug)
    kind = request.GET.get("what", "standings")
    kind = kind if kind in EMBED_KINDS else "standings"
    theme = request.GET.get("theme", "auto")
    theme = theme if theme in THEMES else "auto"
    lang = _language(request) if request.GET.get("lang") else translation.get_language()
    width = _bounded(request.GET.get("width"), 200, 2000, 640)
    height = _bounded(request.GET.get("height"), 150, 4000, 480)
    auto = request.GET.get("auto") == "1" if request.GET else True  # on by default
    origin = _base_url(request)
    src = (
        origin
        + reverse(f"tournaments:embed-{kind}", args=[league.slug])
        + f"?theme={theme}&lang={lang}"
    )
    title = f"{league.name}: {kind}"
    frame = (
        f'<iframe src="{src}" title="{escape(title)}" width="{width}" height="{height}" '
        f'style="border:0;max-width:100%" loading="lazy"'
        + (" data-maedn-embed" if auto else "")
        + "></iframe>"
    )
    snippet = frame + ("\n" + _host_script(origin) if auto else "")
    return render(
        request,
        "tournaments/embed_code.html",
        {
            "league": league,
            "tab": "standings",
            "kinds": EMBED_KINDS,
            "themes": THEMES,
            "languages": settings.LANGUAGES,
            "chosen": {
                "what": kind,
                "theme": theme,
                "lang": lang,
                "width": width,
                "height": height,
                "auto": auto,
            },
            "snippet": snippet,
            "preview_src": src,
        },
    )
