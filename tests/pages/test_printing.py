"""Printable score sheets: per game and per round, with the players at the board, their
colours, who starts, boxes to fill in and a QR code (segno) of the game's upload page."""

from __future__ import annotations

import pytest
import segno

from tournaments.web.printing import qr_svg

pytestmark = pytest.mark.django_db


def test_game_sheet(client, league):
    g1 = league.test_objects["g1"]
    response = client.get(f"/games/{g1.pk}/sheet/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("erin") < html.index("carol")  # at-board order
    assert "black" in html and "starts" in html
    url = f"http://testserver/games/{g1.pk}/#upload-heading"
    assert url in html
    # the QR code is exactly segno's code of that URL
    assert str(qr_svg(url, "The game's page: upload the log there")) in html
    assert html.count('class="write-in') == 8  # 4 boxes × 2 players
    assert "Signature" in html


def test_the_qr_code_encodes_the_url():
    svg = str(qr_svg("http://example.org/games/7/", "t"))
    assert svg.startswith("<svg") and 'class="qr"' in svg
    assert svg == str(
        segno.make("http://example.org/games/7/", error="m").svg_inline(
            scale=4, omitsize=True, title="t", svgclass="qr"
        )
    )
    assert svg != str(qr_svg("http://example.org/games/8/", "t"))


def test_round_sheets(client, league):
    g1, g2 = league.test_objects["g1"], league.test_objects["g2"]
    html = client.get("/leagues/spring/sheets/?round=1&drr=1").content.decode()
    assert html.count('class="score-sheet"') == 1
    assert f"/games/{g1.pk}/#upload-heading" in html and f"/games/{g2.pk}/" not in html
    assert (
        client.get("/leagues/spring/sheets/?round=2").content.decode().count('class="score-sheet"')
        == 1
    )
    assert client.get("/leagues/spring/sheets/?round=9").status_code == 404
    assert client.get("/leagues/spring/sheets/?round=x").status_code == 404


def test_private_league_sheets_are_hidden(client, league, owner):
    league.is_public = False
    league.save()
    g1 = league.test_objects["g1"]
    assert client.get(f"/games/{g1.pk}/sheet/").status_code == 404
    assert client.get("/leagues/spring/sheets/?round=1").status_code == 404
    client.force_login(owner)
    assert client.get(f"/games/{g1.pk}/sheet/").status_code == 200


def test_links_to_print(client, league):
    g1 = league.test_objects["g1"]
    schedule = client.get("/leagues/spring/schedule/").content.decode()
    assert "/leagues/spring/sheets/?round=1&amp;drr=1" in schedule
    assert "data-print" in schedule
    assert f"/games/{g1.pk}/sheet/" in client.get(f"/games/{g1.pk}/").content.decode()


def test_german_sheet(client, league):
    g1 = league.test_objects["g1"]
    html = client.get(f"/games/{g1.pk}/sheet/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Unterschrift" in html and "Partie" in html
