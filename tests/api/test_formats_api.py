"""Issue 13 through the API: an event's games show "decided by game N" until the earlier
game counts, a Grand Prix's standing, open rounds drawn and listed with their seed,
tie-break rolls recorded and listed (who rolled what, when)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.builders import make_user
from tournaments.services.leagues import entry_add
from tournaments.services.players import player_create


@pytest.fixture
def org(db):
    user = make_user("org")
    client = APIClient()
    client.force_login(user)
    return user, client


def create(client, **body):
    response = client.post("/api/v1/leagues/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def enter(user, slug, names):
    from tournaments.models import League

    league = League.objects.get(slug=slug)
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=user)


def test_a_triple_threat_event_shows_decided_by_game_n(org):
    user, client = org
    league = create(
        client,
        name="Mixed",
        format="3T",
        event_kind="triple-threat",
        game_formats=["3T", "GP", "3T+"],
    )
    assert league["event_kind"] == "triple-threat"
    enter(user, league["slug"], ["Ann", "Ben", "Cat"])
    response = client.post(
        f"/api/v1/leagues/{league['slug']}/event/schedule/", {"seed": 3}, format="json"
    )
    assert response.status_code == 201, response.json()
    g1, g2, g3 = response.json()
    assert [g["format"] for g in (g1, g2, g3)] == ["3T", "GP", "3T+"]
    assert g1["start"]["colour"] == g1["starting_colour"] and g1["start"]["rolls"]
    assert g2["start"] == {
        "colour": None,
        "decided_by": 1,
        "label": "decided by game 1",
        "basis": "clinching-colour",
        "reason": "",
        "reason_code": None,
        "reason_params": None,
        "rolls": [],
    }
    # scheduling twice is refused with the reason
    again = client.post(f"/api/v1/leagues/{league['slug']}/event/schedule/", {}, format="json")
    assert again.status_code == 400 and "already" in again.json()["error"]["message"]


def test_a_grand_prix_reports_its_standing(org):
    user, client = org
    league = create(
        client, name="GP six", format="GP", board=6, event_kind="grand-prix", games_planned=3
    )
    enter(user, league["slug"], ["Ann", "Ben", "Cat"])
    client.post(f"/api/v1/leagues/{league['slug']}/event/schedule/", {}, format="json")
    body = client.get(f"/api/v1/leagues/{league['slug']}/grand-prix/").json()
    assert body["points"] == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert body["games_left"] == 3 and body["winner"] is None
    refused = client.post(f"/api/v1/leagues/{league['slug']}/grand-prix/extra-game/")
    assert refused.status_code == 400


def test_open_rounds_are_drawn_and_listed_with_their_seed(org):
    user, client = org
    league = create(
        client,
        name="Open",
        format="open",
        games_planned=3,
        points_scheme=[5, 3, 2, 1],
        time_limit_minutes=30,
    )
    assert league["event_kind"] == "open" and league["time_limit_minutes"] == 30
    enter(user, league["slug"], [f"P{i}" for i in range(7)])
    drawn = client.post(
        f"/api/v1/leagues/{league['slug']}/open-rounds/", {"seed": 42}, format="json"
    )
    assert drawn.status_code == 201, drawn.json()
    tables = drawn.json()
    assert sorted(len(t["seats"]) for t in tables) == [3, 4]  # 7 players → 4 + 3
    rounds = client.get(f"/api/v1/leagues/{league['slug']}/open-rounds/").json()["results"]
    assert rounds == [
        {"number": 1, "seed": "42", "is_final": False, "created_at": rounds[0]["created_at"]}
    ]
    assert client.get(f"/api/v1/leagues/{league['slug']}/final-ranking/").json() == {"final": None}
    early = client.post(f"/api/v1/leagues/{league['slug']}/open-rounds/final/")
    assert early.status_code == 400


def test_tie_break_rolls_are_recorded_and_listed(org):
    user, client = org
    league = create(client, name="Tied", format="2T")
    enter(user, league["slug"], ["Ann", "Ben"])
    url = f"/api/v1/leagues/{league['slug']}/tie-break-rolls/"
    made = client.post(url, {"rolls": [{"Ann": 3, "Ben": 3}, {"Ann": 5, "Ben": 1}]}, format="json")
    assert made.status_code == 201, made.json()
    listed = client.get(url).json()["results"]
    assert listed[0]["players"] == ["Ann", "Ben"] and listed[0]["recorded_by"] == "org"
    assert listed[0]["rounds"] == [{"Ann": 3, "Ben": 3}, {"Ann": 5, "Ben": 1}]
    assert listed[0]["recorded_at"]
    bad = client.post(url, {"rolls": [{"Ann": 3, "Ben": 3}]}, format="json")
    assert bad.status_code == 400 and "tie" in bad.json()["error"]["message"]
