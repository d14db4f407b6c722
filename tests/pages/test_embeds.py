"""Embeds: standings, bracket and schedule in another site's iframe (frame-ancestors there
only), light and dark, language by parameter; the same data as public JSON with CORS."""

from __future__ import annotations

import json

import pytest

from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

EMBEDS = ("standings", "bracket", "schedule")


@pytest.fixture
def season(league, submitted, series):
    standings_recompute(league.pk)
    return league


def csp(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return {
        part.strip().split(" ", 1)[0]: part.strip().partition(" ")[2]
        for part in policy.split(";")
        if part.strip()
    }


@pytest.mark.parametrize("what", EMBEDS)
def test_embed_may_be_framed_by_other_sites(client, season, what):
    response = client.get(f"/leagues/spring/embed/{what}/")
    assert response.status_code == 200
    assert csp(response)["frame-ancestors"] == "*"
    assert "X-Frame-Options" not in response
    html = response.content.decode()
    assert 'class="site-header"' not in html  # minimal: no site header, menu or footer
    assert '<base href="http://testserver/" target="_blank">' in html
    assert "public" in response["Cache-Control"]


def test_every_other_page_refuses_frames(client, season):
    for url in ("/leagues/spring/standings/", "/leagues/spring/playoffs/", "/"):
        response = client.get(url)
        assert csp(response)["frame-ancestors"] == "'none'"
        assert response["X-Frame-Options"] == "DENY"


def test_embed_content_language_and_theme(client, season):
    english = client.get("/leagues/spring/embed/standings/").content.decode()
    assert "League table" in english and "carol" in english
    assert 'class="embed theme-auto"' in english
    german = client.get(
        "/leagues/spring/embed/standings/?lang=de&theme=dark", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Tabelle" in german and 'lang="de"' in german
    assert 'class="embed theme-dark"' in german
    # the visitor's headers never choose the language: one URL, one page
    default = client.get("/leagues/spring/embed/standings/", HTTP_ACCEPT_LANGUAGE="de")
    assert 'lang="en"' in default.content.decode()
    unknown = client.get("/leagues/spring/embed/standings/?lang=xx&theme=pink").content.decode()
    assert 'lang="en"' in unknown and "theme-auto" in unknown


def test_bracket_and_schedule_embeds_show_the_league(client, season):
    bracket = client.get("/leagues/spring/embed/bracket/").content.decode()
    assert "Final Series" in bracket
    schedule = client.get("/leagues/spring/embed/schedule/").content.decode()
    assert "G1" in schedule and "G2" in schedule


def test_private_league_has_no_embed(client, season, owner):
    season.is_public = False
    season.save()
    client.force_login(owner)  # not even for its organizer: an embed is for anyone's site
    for what in EMBEDS:
        assert client.get(f"/leagues/spring/embed/{what}/").status_code == 404
        assert client.get(f"/leagues/spring/embed/{what}.json").status_code == 404


def test_embed_json_with_cors(client, season):
    response = client.get(
        "/leagues/spring/embed/standings.json", HTTP_ORIGIN="https://club.example"
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    data = json.loads(response.content)
    assert data["version"] == 1
    assert data["league"]["slug"] == "spring"
    table = data["tables"][0]
    assert table["stage"] == "league"
    assert [row["player"] for row in table["rows"]] == ["carol", "erin"]
    assert table["rows"][0]["player_url"] == "http://testserver/players/carol/"
    assert table["metrics"] and set(table["rows"][0]["metrics"]) == set(table["metrics"])
    again = client.get("/leagues/spring/embed/standings.json", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert again["Access-Control-Allow-Origin"] == "*"


def test_schedule_and_bracket_json(client, season):
    schedule = json.loads(client.get("/leagues/spring/embed/schedule.json").content)
    games = [g for b in schedule["blocks"] for r in b["rounds"] for g in r["games"]]
    assert [g["label"] for g in games] == ["G1", "G2"]
    g1 = games[0]
    assert g1["starting_colour"] == "black"
    assert [s["colours"] for s in g1["seats"]] == [["black", "yellow"], ["green", "red"]]
    assert g1["winner"] in ("erin", "carol")
    bracket = json.loads(client.get("/leagues/spring/embed/bracket.json").content)
    series = bracket["rounds"][0]["series"][0]
    assert series["name"] == "Final Series"
    assert series["higher"]["player"] == "carol" and series["first_to"] == 4
    assert client.get("/leagues/spring/embed/other.json").status_code == 404
