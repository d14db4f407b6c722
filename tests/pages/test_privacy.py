"""A private league (is_public False) is a 404 for outsiders, on every page and endpoint."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.builders import build_league, example_text, make_snapshot
from tournaments.services.results import game_log_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden(owner, erin_user, carol_user):
    league = build_league(owner, erin_user, carol_user, slug="hidden", is_public=False)
    result = game_log_submit(
        fixture=league.test_objects["g1"],
        content=example_text("valid-league-2tplus.json"),
        by=owner,
    )
    make_snapshot(league, [league.test_objects["carol"], league.test_objects["erin"]])
    g1 = league.test_objects["g1"].pk
    return [
        reverse("tournaments:league", args=["hidden"]),
        reverse("tournaments:schedule", args=["hidden"]),
        reverse("tournaments:standings", args=["hidden"]),
        reverse("tournaments:standings-fragment", args=["hidden"]),
        reverse("tournaments:playoffs", args=["hidden"]),
        reverse("tournaments:game", args=[g1]),
        reverse("tournaments:game-log", args=[g1, result.game_log_id]),
        reverse("tournaments:game-replay", args=[g1, result.game_log_id]),
    ]


def test_outsiders_get_404(client, hidden, outsider):
    for url in hidden:
        assert client.get(url).status_code == 404, url
    client.force_login(outsider)
    for url in hidden:
        assert client.get(url).status_code == 404, url


@pytest.mark.parametrize("who", ["owner", "erin_user"])
def test_organizers_and_players_see_it(client, hidden, request, who):
    client.force_login(request.getfixturevalue(who))
    for url in hidden:
        assert client.get(url).status_code == 200, url


def test_player_page_lists_only_visible_leagues(client, hidden, outsider, erin_user):
    url = reverse("tournaments:player", args=["erin"])
    assert "/leagues/hidden/" not in client.get(url).text
    client.force_login(outsider)
    assert "/leagues/hidden/" not in client.get(url).text
    client.force_login(erin_user)
    assert "/leagues/hidden/" in client.get(url).text


def test_posting_to_a_private_game_is_404_for_outsiders(client, hidden, outsider):
    client.force_login(outsider)
    g1 = hidden[5].rstrip("/").split("/")[-1]
    response = client.post(
        reverse("tournaments:game-submit", args=[g1]),
        {"content": example_text("valid-league-2tplus.json")},
    )
    assert response.status_code == 404
