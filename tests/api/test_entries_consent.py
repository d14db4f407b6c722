"""An account holder an organizer entered is an invitation until they accept: the API's
entry list and the league archive show it only to the league's organizers (and to the
invited player), never to the public (review finding)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.builders import make_user
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create

pytestmark = pytest.mark.django_db


def _league():
    organizer, rosa_user = make_user("organizer"), make_user("rosa_user")
    league = league_create(owner=organizer, name="Spring", format="2T", is_public=True)
    entry_add(league=league, player=player_create(name="Ann", shared=True), by=organizer)
    entry_add(league=league, player=player_create(name="Rosa", user=rosa_user), by=organizer)
    return league, organizer, rosa_user


def _names(client: Client, league) -> set[str]:
    answer = client.get(f"/api/v1/leagues/{league.slug}/entries/")
    assert answer.status_code == 200
    return {e["player"]["name"] for e in answer.json()["results"]}


def test_an_unanswered_invitation_is_listed_only_to_organizers_and_the_invited():
    league, organizer, rosa_user = _league()
    assert _names(Client(), league) == {"Ann"}
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert _names(stranger, league) == {"Ann"}
    for user in (organizer, rosa_user):
        client = Client()
        client.force_login(user)
        assert _names(client, league) == {"Ann", "Rosa"}


def test_the_league_archive_holds_accepted_entries_only():
    league, _organizer, _rosa = _league()
    response = Client().get(f"/api/v1/leagues/{league.slug}/archive.json")
    archive = json.loads(b"".join(response.streaming_content))
    assert [e["player"]["name"] for e in archive["entries"]] == ["Ann"]
    assert "Rosa" not in json.dumps(archive)
