"""Printable pages for leagues played at a club table: a score sheet per game (players at
the board in order, their colours, who starts, boxes to fill in, a QR code to the game's
upload page) and all sheets of a round, one per A4 page. The schedule and standings pages
print cleanly with their own print style (static/css/site.css, ``@media print``)."""

from __future__ import annotations

import segno
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from tournaments.models import Fixture
from tournaments.selectors.prefetch import seats_prefetch
from tournaments.web.lookups import fixture_or_404, league_or_404


def qr_svg(url: str, title: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (segno; error correction M, so a sheet with a
    coffee stain still scans)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, omitsize=True, title=title, svgclass="qr")
    return mark_safe(svg)  # segno's own markup; the URL and title are escaped by segno


def _sheet(request, fixture: Fixture) -> dict:
    upload = request.build_absolute_uri(reverse("tournaments:game", args=[fixture.pk]))
    upload += "#upload-heading"
    seats = list(fixture.seats.all())
    return {
        "fixture": fixture,
        "seats": seats,
        "upload_url": upload,
        "qr": qr_svg(upload, gettext("The game's page: upload the log there")),
    }


@require_GET
def game_sheet(request, pk: int):
    fixture = fixture_or_404(request, pk)
    return render(
        request,
        "tournaments/print/sheets.html",
        {"league": fixture.league, "sheets": [_sheet(request, fixture)], "title_fixture": fixture},
    )


@require_GET
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
    sheets = [_sheet(request, f) for f in fixtures]
    if not sheets:
        raise Http404("no games in that round")
    return render(
        request,
        "tournaments/print/sheets.html",
        {"league": league, "sheets": sheets, "round": number, "drr": drr},
    )
