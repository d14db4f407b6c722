"""Leagues, entries, players, DRRs, playoff series and standings through the API; private
leagues are invisible to outsiders; one error format everywhere."""

from __future__ import annotations

import pytest

from tests.api.conftest import error_of
from tournaments.models import (
    Cycle,
    League,
    Player,
    Series,
    StandingsRow,
    StandingsSnapshot,
)


def test_an_organizer_runs_a_league_from_draft_to_schedule(world):
    org = world.client("other_organizer")
    created = org.post(
        "/api/v1/leagues/",
        {"name": "Autumn Cup", "format": "2T", "drr_count": 2, "playoffs": {"kind": "xleague"}},
        format="json",
    )
    assert created.status_code == 201, created.content
    league = created.json()
    assert league["slug"] == "autumn-cup" and league["status"] == "draft"
    assert league["owner"] == "other_organizer" and league["board"] == 4
    assert league["rules_preset"] == "league" and league["playoffs"] == {"kind": "xleague"}
    url = "/api/v1/leagues/autumn-cup"

    for name in ("Ann", "Ben", "Cid"):
        assert org.post("/api/v1/players/", {"name": name}, format="json").status_code == 201
    for slug, colours in (("ann", ["green", "red"]), ("ben", []), ("cid", [])):
        response = org.post(
            f"{url}/entries/", {"player": slug, "preferred_colours": colours}, format="json"
        )
        assert response.status_code == 201, response.content
    assert org.get(f"{url}/entries/").json()["count"] == 3

    cycle = org.post(
        f"{url}/cycles/",
        {"rolls": [{"Ann": 6, "Ben": 3, "Cid": 1}]},
        format="json",
    )
    assert cycle.status_code == 201, cycle.content
    body = cycle.json()
    assert body["number"] == 1
    assert [(s["number"], s["player"]["slug"]) for s in body["seeds"]] == [
        (1, "ann"),
        (2, "ben"),
        (3, "cid"),
    ]
    fixtures = org.get("/api/v1/fixtures/?league=autumn-cup&cycle=1").json()
    assert fixtures["count"] == 6  # three players: G1–G6
    first = fixtures["results"][0]
    assert [s["player"]["slug"] for s in first["seats"]] == ["ann", "ben"]  # G1 #1 vs #2
    assert first["seats"][0]["colours"] == ["green", "red"]
    assert first["starting_colour"] == "green"  # rearguard of the first mentioned player
    assert org.get(f"{url}/").json()["status"] == "running"
    assert org.get(f"{url}/cycles/1/").json()["seeds"] == body["seeds"]

    reordered = org.post(f"{url}/cycles/1/late-order/", {"late_order": [6, 5, 4]}, format="json")
    assert reordered.status_code == 200 and reordered.json()["late_order"] == [6, 5, 4]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"format": "2T+"}, "name"),
        ({"name": "x", "format": "chess"}, "format"),
        ({"name": "x", "format": "2T+", "board": 6}, "board"),
        ({"name": "x", "format": "2T+", "drr_count": 0}, "drr_count"),
        ({"name": "x", "format": "2T+", "precedence": ["luck"]}, "precedence"),
        ({"name": "x", "format": "2T+", "rules_overrides": {"barriers": "maybe"}}, "rules"),
        ({"name": "x", "format": "2T+", "playoffs": {"kind": "bracket", "seeds": 1}}, "playoffs"),
        ({"name": "x", "format": "2T+", "slug": "xleague"}, "slug"),
    ],
)
def test_league_create_errors_name_the_field(world, body, field):
    response = world.client("stranger").post("/api/v1/leagues/", body, format="json")
    assert response.status_code == 400, response.content
    error = error_of(response)
    assert error["code"] == "invalid"
    assert error["field"] == field
    assert League.objects.count() == 2


def test_a_status_change_that_is_not_allowed_says_why(world):
    response = world.client("organizer").post(
        "/api/v1/leagues/xleague/status/", {"status": "draft"}, format="json"
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "status"
    assert "running cannot become draft" in error["message"]


def test_entries_close_once_the_league_runs(world):
    Player.objects.create(name="frank", slug="frank", shared=True)
    response = world.client("organizer").post(
        "/api/v1/leagues/xleague/entries/", {"player": "frank"}, format="json"
    )
    assert response.status_code == 400
    assert "entries are closed" in error_of(response)["message"]
    unknown = world.client("organizer").post(
        "/api/v1/leagues/xleague/entries/", {"player": "nobody"}, format="json"
    )
    assert unknown.status_code == 400 and error_of(unknown)["field"] == "player"


def test_an_entry_with_games_is_withdrawn_not_removed(world):
    org = world.client("organizer")
    url = f"/api/v1/leagues/xleague/entries/{world.entries['erin'].pk}"
    removed = org.delete(f"{url}/")
    assert removed.status_code == 400
    assert "withdraw them instead" in error_of(removed)["message"]
    withdrawn = org.post(f"{url}/withdraw/", {"reason": "injury"}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json() == {"forfeited": 1}
    fixture = org.get(f"/api/v1/fixtures/{world.fixture.pk}/").json()
    assert fixture["status"] == "forfeited"
    assert fixture["counted_result"]["forfeit_loser"] == world.entries["erin"].pk
    assert org.get("/api/v1/leagues/xleague/entries/?withdrawn=true").json()["count"] == 1


def test_adding_an_unknown_organizer_is_a_field_error(world):
    response = world.client("organizer").post(
        "/api/v1/leagues/xleague/organizers/", {"username": "ghost"}, format="json"
    )
    assert response.status_code == 400 and error_of(response)["field"] == "username"
    added = world.client("organizer").post(
        "/api/v1/leagues/xleague/organizers/", {"username": "stranger"}, format="json"
    )
    assert added.json()["organizers"] == ["co_organizer", "stranger"]


def test_a_second_player_profile_is_refused(world):
    response = world.client("player").post(
        "/api/v1/players/", {"name": "erin2", "link_to_me": True}, format="json"
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "link_to_me"
    taken = world.client("organizer").post("/api/v1/players/", {"name": "ERIN"}, format="json")
    assert taken.status_code == 400
    assert error_of(taken) == {
        "code": "invalid",
        "message": "there is already a player called erin in your leagues: enter them, or "
        "tell the new one apart (e.g. “erin B.”)",
        "field": "name",
        "reason": "player_name_taken",
    }


# --- visibility ------------------------------------------------------------------------------


@pytest.fixture
def private(world):
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    return world


LEAGUE_READS = [
    "/api/v1/leagues/xleague/",
    "/api/v1/leagues/xleague/entries/",
    "/api/v1/leagues/xleague/cycles/",
    "/api/v1/leagues/xleague/series/",
    "/api/v1/leagues/xleague/standings/",
    "/api/v1/leagues/xleague/standings.csv",
    "/api/v1/leagues/xleague/schedule.ics",
    "/api/v1/leagues/xleague/archive.json",
]


@pytest.mark.parametrize("role", ["anonymous", "stranger", "other_organizer"])
def test_a_private_league_does_not_exist_for_outsiders(private, role):
    client = private.client(role)
    for url in [
        *LEAGUE_READS,
        f"/api/v1/fixtures/{private.fixture.pk}/",
        f"/api/v1/fixtures/{private.fixture.pk}/log/",
        f"/api/v1/fixtures/{private.fixture.pk}/results/",
    ]:
        response = client.get(url)
        assert response.status_code == 404, url
        assert error_of(response)["code"] == "not_found"
    listed = client.get("/api/v1/leagues/").json()
    assert [league["slug"] for league in listed["results"]] == ["other-league"]
    assert client.get("/api/v1/fixtures/").json()["count"] == 0
    unknown = client.get("/api/v1/leagues/no-such-league/")
    assert error_of(unknown)["message"] == error_of(client.get(LEAGUE_READS[0]))["message"].replace(
        "xleague", "no-such-league"
    )


@pytest.mark.parametrize("role", ["entrant", "player", "co_organizer", "organizer", "staff"])
def test_a_private_league_is_visible_to_its_people(private, role):
    client = private.client(role)
    for url in LEAGUE_READS:
        assert client.get(url).status_code == 200, url
    slugs = {league["slug"] for league in client.get("/api/v1/leagues/").json()["results"]}
    assert "xleague" in slugs
    assert client.get("/api/v1/fixtures/").json()["count"] == 1


def test_league_filters_and_pagination(world):
    client = world.client("player")
    assert client.get("/api/v1/leagues/?mine=true").json()["count"] == 1
    assert client.get("/api/v1/leagues/?q=other").json()["results"][0]["slug"] == "other-league"
    assert client.get("/api/v1/leagues/?status=draft").json()["count"] == 0
    page = client.get("/api/v1/leagues/?page_size=1").json()
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"]
    assert client.get("/api/v1/leagues/?page=9").status_code == 404
    assert world.client("anonymous").get("/api/v1/leagues/?mine=true").json()["count"] == 0


# --- standings and playoffs ------------------------------------------------------------------


def make_snapshot(world) -> StandingsSnapshot:
    snapshot = StandingsSnapshot.objects.create(
        league=world.league,
        stage="league",
        results_revision=3,
        games_played=2,
        games_total=6,
        precedence=["won_lost", "counted_pawns_diff"],
    )
    for position, (name, wins, losses, diff) in enumerate(
        [("carol", 2, 0, 9), ("erin", 1, 1, -2), ("dave", 0, 2, -7)], start=1
    ):
        StandingsRow.objects.create(
            snapshot=snapshot,
            entry=world.entries[name],
            rank=position,
            position=position,
            played=wins + losses,
            wins=wins,
            losses=losses,
            points=wins,
            metrics={
                "won_lost": {"wins": wins, "losses": losses, "text": f"{wins}–{losses}"},
                "counted_pawns_diff": diff,
                "games_played": wins + losses,
            },
            separated_by="won_lost",
        )
    return snapshot


def test_standings_show_the_snapshot(world):
    make_snapshot(world)
    [snapshot] = world.client("anonymous").get("/api/v1/leagues/xleague/standings/").json()
    assert snapshot["stage"] == "league" and snapshot["games_total"] == 6
    assert [row["player"]["slug"] for row in snapshot["rows"]] == ["carol", "erin", "dave"]
    assert snapshot["rows"][0]["metrics"]["counted_pawns_diff"] == 9
    assert world.client("anonymous").get("/api/v1/leagues/xleague/standings/?stage=x").json() == []


def test_playoff_series(world):
    series = Series.objects.create(
        league=world.league,
        round=1,
        slot=1,
        name="Final Series",
        first_to=4,
        higher=world.entries["carol"],
        lower=world.entries["erin"],
        higher_seed=1,
        lower_seed=2,
    )
    world.fixture.series = series
    world.fixture.save()
    listed = world.client("anonymous").get("/api/v1/leagues/xleague/series/").json()
    [item] = listed["results"]
    assert item["name"] == "Final Series" and item["first_to"] == 4
    assert item["higher_player"] == {"slug": "carol", "name": "carol", "label": "carol"}
    assert item["fixtures"] == [world.fixture.pk]
    detail = world.client("anonymous").get(f"/api/v1/series/{series.pk}/")
    assert detail.json() == item
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    assert world.client("stranger").get(f"/api/v1/series/{series.pk}/").status_code == 404


def test_playoffs_from_the_final_table(world):
    org = world.client("other_organizer")
    org.post(
        "/api/v1/leagues/",
        {"name": "Cup", "format": "2T", "playoffs": {"kind": "xleague"}},
        format="json",
    )
    for name in ("Ann", "Ben", "Cid"):
        org.post("/api/v1/players/", {"name": name}, format="json")
        org.post("/api/v1/leagues/cup/entries/", {"player": name.lower()}, format="json")
    early = org.post("/api/v1/leagues/cup/playoffs/")
    assert early.status_code == 400  # no DRR played yet: the table is not final
    org.post("/api/v1/leagues/cup/cycles/", {"rolls": [{"Ann": 6, "Ben": 4, "Cid": 2}]}, "json")
    entries = {
        e["player"]["slug"]: e["id"]
        for e in org.get("/api/v1/leagues/cup/entries/").json()["results"]
    }
    strength = {"ann": 3, "ben": 2, "cid": 1}
    for fixture in org.get("/api/v1/fixtures/?league=cup").json()["results"]:
        players = [seat["player"]["slug"] for seat in fixture["seats"]]
        winner = max(players, key=strength.get)
        response = org.post(
            f"/api/v1/fixtures/{fixture['id']}/result/",
            {"winner": entries[winner], "reason": "score sheet"},
            format="json",
        )
        assert response.status_code == 201, response.content

    generated = org.post("/api/v1/leagues/cup/playoffs/")
    assert generated.status_code == 201, generated.content
    qualifying, final = generated.json()
    assert (qualifying["name"], qualifying["first_to"]) == ("Qualifying Series", 3)
    assert (qualifying["higher_player"]["slug"], qualifying["lower_player"]["slug"]) == (
        "ben",
        "cid",
    )
    assert qualifying["score"] == {
        "higher": 1,  # head start: Ben's record is better than Cid's
        "lower": 0,
        "head_start": 1,
        "games_played": 0,
        "winner": None,
    }
    assert len(qualifying["fixtures"]) == 1  # the first game is scheduled
    assert final["name"] == "Final Series" and final["higher_player"]["slug"] == "ann"
    assert final["lower"] is None and final["score"] is None
    assert org.get("/api/v1/leagues/cup/").json()["status"] == "playoffs"
    again = org.post("/api/v1/leagues/cup/playoffs/")
    assert again.status_code == 400
    assert "already" in error_of(again)["message"]


def test_the_schedule_endpoints_without_any_drr(world):
    response = world.client("anonymous").get("/api/v1/leagues/xleague/cycles/")
    assert response.json()["count"] == 0
    missing = world.client("anonymous").get("/api/v1/leagues/xleague/cycles/1/")
    assert missing.status_code == 404 and "has no DRR 1" in error_of(missing)["message"]
    assert not Cycle.objects.exists()
