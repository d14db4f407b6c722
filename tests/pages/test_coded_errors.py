"""Service refusals carry a code and parameters and are shown in the reader's language:
on the organizer's pages and in the API's ``message`` (Accept-Language), with the code as
``reason`` alongside; the English message stays for logs and English readers."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.builders import make_user
from tournaments.services.errors import MESSAGES, ServiceError, coded
from tournaments.services.leagues import league_create
from tournaments.services.players import player_create

pytestmark = pytest.mark.django_db


def test_every_code_has_a_german_wording_with_the_same_parameters():
    import re

    for code, template in MESSAGES.items():
        names = set(re.findall(r"%\((\w+)\)s", template))
        params = {n: "X" for n in names}
        with translation.override("de"):
            german = translation.gettext(template)
        wordless = not re.search(r"[a-zA-Z]", re.sub(r"%\(\w+\)s", "", template))
        assert german != template or wordless, f"{code} is not translated"
        assert set(re.findall(r"%\((\w+)\)s", german)) == names, code
        assert german % params


def test_a_coded_error_is_english_in_its_message_and_localized_when_shown():
    error = coded("games_waiting", n=3)
    assert error.message.startswith("3 game(s) still wait") and error.code == "games_waiting"
    with translation.override("de"):
        assert error.localized().startswith("3 Partie(n) warten noch")
    assert ServiceError("plain words").localized() == "plain words"


def test_the_finish_refusal_is_german_on_the_page_and_in_the_api():
    org = make_user("olga")
    league = league_create(owner=org, name="Cup", format="2T")
    from tournaments.services.leagues import entry_add

    entry_add(league=league, player=player_create(name="Ann", shared=True), by=org)
    client = Client()
    client.force_login(org)
    client.cookies["django_language"] = "de"
    response = client.post(reverse("tournaments:manage-finish", args=[league.slug]))
    assert "hat nicht begonnen; es gibt nichts zu beenden" in response.content.decode()
    api = APIClient()
    api.force_authenticate(org)
    # seeding a DRR with one player: refused, in the request's language, with its code
    response = api.post(
        f"/api/v1/leagues/{league.slug}/cycles/", {}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    body = response.json()["error"]
    assert response.status_code == 400, body
    assert body["reason"] == "drr_needs_players"
    assert "ein DRR braucht mindestens zwei Spieler" in body["message"]
    english = api.post(
        f"/api/v1/leagues/{league.slug}/cycles/", {}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    ).json()["error"]
    assert english["reason"] == body["reason"] and english["message"] != body["message"]
