"""English and German: the language switcher, translated pages, rules and replay texts."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def german(client):
    client.cookies["django_language"] = "de"
    return client


def test_set_language_switches_to_german_and_back(client, league, snapshot):
    url = reverse("tournaments:standings", args=["spring"])
    response = client.post("/i18n/setlang/", {"language": "de", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url)
    assert '<html lang="de">' in page.text
    assert "Tabelle" in page.text and "So werden Gleichstände aufgelöst" in page.text
    assert "vorläufig" in page.text
    client.post("/i18n/setlang/", {"language": "en", "next": url})
    assert '<html lang="en">' in client.get(url).text


def test_accept_language_header_picks_german(client, league):
    page = client.get(reverse("tournaments:league", args=["spring"]), HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="de">' in page.text
    assert "Über diese Liga" in page.text
    assert "läuft" in page.text  # the status badge


def test_rules_in_german(client):
    page = german(client).get(reverse("tournaments:rules"))
    assert "Alle vier Figuren beginnen im Haus." in page.text
    assert "Regelwerk classic: Grundspiel nach Schmidt." in page.text
    assert "All four pawns start in the yard." not in page.text


def test_league_rules_with_an_override_in_german(client, owner):
    from tests.builders import make_league

    make_league(
        owner, slug="huff", rules_preset="classic", rules_overrides={"compulsory_capture": "huff"}
    )
    page = german(client).get(reverse("tournaments:league", args=["huff"]))
    assert "Abweichend vom Regelwerk: compulsory_capture = &quot;huff&quot;." in page.text
    assert "wird gepustet" in page.text


def test_colour_names_and_replay_text_in_german(client, league, submitted):
    g1 = league.test_objects["g1"]
    german(client)
    page = client.get(reverse("tournaments:game", args=[g1.pk]))
    assert "schwarz" in page.text and "Anfangsfarbe" in page.text
    data = json.loads(
        client.get(reverse("tournaments:game-replay", args=[g1.pk, submitted.game_log_id])).content
    )
    assert 'data-i18n-try="Versuch %(try)s von %(of)s für eine 6"' in page.text
    assert data["seats"][1]["label"] == "schwarz"
    assert data["steps"][0]["text"].startswith("schwarz würfelt")
    assert any("Figur" in step["text"] for step in data["steps"])


def test_service_errors_are_german_on_german_pages(client, league, erin_user):
    german(client).force_login(erin_user)
    response = client.post(
        reverse("tournaments:game-submit", args=[league.test_objects["g1"].pk]), {"content": "{"}
    )
    assert response.status_code == 400
    # coded (log_rejected nesting the engine's not_json); only the parser's detail is English
    assert "Das Protokoll wurde abgelehnt: das Protokoll ist kein gültiges JSON" in response.text
    assert "the log is not valid JSON" not in response.text
    assert "Spielprotokoll hochladen" in response.text
