"""Printable pages for leagues played at a club table: a score sheet per game (players at
the board in order, their colours, who starts, boxes to fill in, a QR code to the game's
upload page) and all sheets of a round, one per A4 page. The schedule and standings pages
print cleanly with their own print style (static/css/site.css, ``@media print``).

With ``?links=1`` an organizer of the league prints each player's private result link too
(``tournaments/web/result_links.py``): a slip per player without an account, with the QR
code of their own link, to cut off and hand to that player only. Anyone else gets the
plain sheets; a page with links is never cached and sends no Referer."""

from __future__ import annotations

import segno
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tournaments.models import Fixture, League, ResultLink
from tournaments.permissions import is_organizer
from tournaments.selectors.prefetch import seats_prefetch
from tournaments.services.result_links import result_link_token
from tournaments.web.caching import public_page
from tournaments.web.games import game_revision
from tournaments.web.leagues import league_content_revision
from tournaments.web.lookups import fixture_or_404, league_or_404


def qr_svg(url: str, title: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (segno; error correction M, so a sheet with a
    coffee stain still scans)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, omitsize=True, title=title, svgclass="qr")
    return mark_safe(svg)  # segno's own markup; the URL and title are escaped by segno


def _sheet(request, fixture: Fixture, links: dict[int, ResultLink] | None = None) -> dict:
    upload = request.build_absolute_uri(reverse("tournaments:game", args=[fixture.pk]))
    upload += "#upload-heading"
    seats = list(fixture.seats.all())
    slips = []
    for seat in seats:
        link = (links or {}).get(seat.entry_id)
        if link is None:
            continue
        url = request.build_absolute_uri(
            reverse("tournaments:result-link", args=[result_link_token(link)])
        )
        name = seat.entry.player.name
        slips.append(
            {
                "seat": seat,
                "url": url,
                "qr": qr_svg(url, gettext("Private result link of %(name)s") % {"name": name}),
            }
        )
    return {
        "fixture": fixture,
        "seats": seats,
        "upload_url": upload,
        "qr": qr_svg(upload, gettext("The game's page: upload the log there")),
        "slips": slips,
    }


def _printed_links(request, league: League) -> dict[int, ResultLink] | None:
    """The league's live result links by entry, when an organizer asks to print them."""
    if request.GET.get("links") != "1" or not is_organizer(request.user, league):
        return None
    return {
        link.entry_id: link
        for link in ResultLink.objects.filter(entry__league=league, revoked_at__isnull=True)
    }


def _private(response, links):
    if links is not None:
        add_never_cache_headers(response)
        response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
@public_page(game_revision)
def game_sheet(request, pk: int):
    fixture = fixture_or_404(request, pk)
    links = _printed_links(request, fixture.league)
    response = render(
        request,
        "tournaments/print/sheets.html",
        {
            "league": fixture.league,
            "sheets": [_sheet(request, fixture, links)],
            "title_fixture": fixture,
            "with_links": links is not None,
        },
    )
    return _private(response, links)


@require_GET
@public_page(league_content_revision)
def round_sheets(request, slug: str):
    """``?round=R`` (and ``&drr=N`` in a league with several DRRs): every game of it."""
    league = league_or_404(request, slug)
    try:
        number = int(request.GET.get("round", ""))
        drr = int(request.GET["drr"]) if request.GET.get("drr") else None
    except ValueError:
        raise Http404("round and drr are numbers") from None
    fixtures = (
        league.fixtures.filter(round=number)
        .select_related("league", "cycle", "series", "start_depends_on")
        .prefetch_related(seats_prefetch())
        .order_by("cycle__number", "series__round", "series__slot", "number", "pk")
    )
    if drr is not None:
        fixtures = fixtures.filter(cycle__number=drr)
    links = _printed_links(request, league)
    sheets = [_sheet(request, f, links) for f in fixtures]
    if not sheets:
        raise Http404("no games in that round")
    response = render(
        request,
        "tournaments/print/sheets.html",
        {
            "league": league,
            "sheets": sheets,
            "round": number,
            "drr": drr,
            "with_links": links is not None,
        },
    )
    return _private(response, links)
