"""Ratings and rankings on pages and in the API, in English and German: the ratings table
and its filters, the 3T World Rankings with hand-computed points, the player page (chart,
head to head, seats, medals), the head-to-head page, predictions, CSV exports and the
organizer's ranking level."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from ratings.models import PlayerRating
from tests.builders import make_user
from tournaments.models import League
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.rankings import league_set_ranking

pytestmark = pytest.mark.django_db


def test_world_rankings_page_follows_the_regulation(client, season):
    # A: ann 7×2 + 2 wins = 16; bob 2nd with a win 4×2 + 1 = 9; cid 3rd 2×2 = 4
    # B: cid 7×1 + 3 = 10; ann 2nd without a win 2×1 = 2; bob 3rd 2×1 = 2
    # ann 18 (tournament points 16), cid 14 (11), bob 11 (10)
    response = client.get("/api/v1/rankings/")
    rows = [
        (r["rank"], r["player"]["name"], r["points"], r["tournament_points"], r["winner_points"])
        for r in response.json()
    ]
    assert rows == [(1, "ann", 18, 16, 2), (2, "cid", 14, 11, 3), (3, "bob", 11, 10, 1)]
    ann = response.json()[0]
    assert ann["world_championships_won"] == 1 and ann["majors_won"] == 0
    assert [h["league"] for h in ann["history"]] == [season["b"].slug, season["a"].slug]
    page = client.get(reverse("tournaments:rankings"))
    assert page.status_code == 200
    assert "Cup A" in page.text and 'id="history-ann"' in page.text
    german = client.get(reverse("tournaments:rankings"), HTTP_ACCEPT_LANGUAGE="de")
    assert "Weltrangliste" in german.text
    table = list(csv.reader(io.StringIO(client.get("/api/v1/rankings.csv").content.decode())))
    assert table[0][:4] == ["rank", "player", "slug", "points"]
    assert table[1][:4] == ["1", "ann", "ann", "18"]


def test_only_triple_threat_leagues_get_a_level_and_only_from_organizers(season):
    world = season["world"]
    with pytest.raises(ServiceError, match="triple-threat"):
        league_set_ranking(league=season["c"], by=world.organizer, level=1)
    with pytest.raises(ServiceError, match="level must be one of"):
        league_set_ranking(league=season["a"], by=world.organizer, level=5)
    stranger = make_user("nobody")
    with pytest.raises(NotAllowed):
        league_set_ranking(league=season["a"], by=stranger, level=1)
    assert League.objects.get(pk=season["a"].pk).ranking_level == 2  # unchanged


def test_ratings_table_filters_and_csv(client, season):
    page = client.get(reverse("tournaments:ratings"))
    assert page.status_code == 200
    for name in ("ann", "bob", "cid", "dee"):
        assert f">{name}</a>" in page.text
    two = client.get("/api/v1/ratings/?game_format=2T").json()["results"]
    assert sorted(r["player"]["name"] for r in two) == ["ann", "dee"]
    six = client.get("/api/v1/ratings/?board=6").json()["results"]
    assert sorted(r["player"]["name"] for r in six) == ["ann", "bob", "cid"]
    everyone = client.get("/api/v1/ratings/").json()["results"]
    assert [r["rating"] for r in everyone] == sorted((r["rating"] for r in everyone), reverse=True)
    ann = PlayerRating.objects.get(player__name="ann")
    assert next(r for r in everyone if r["player"]["name"] == "ann")["games"] == ann.games == 7
    assert client.get("/api/v1/ratings/?active=3").json()["count"] == 4
    bad = client.get("/api/v1/ratings/?board=5")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "board"
    assert client.get(reverse("tournaments:ratings") + "?active=x").status_code == 400
    for digit_like in ("²", "٣", "３"):  # str.isdigit() says yes, int() says no (or reads it)
        page = client.get(reverse("tournaments:ratings"), {"active": digit_like})
        assert page.status_code == 400
        assert client.get(f"/api/v1/ratings/?active={digit_like}").status_code == 400
    page_2t = client.get(reverse("tournaments:ratings") + "?format=2T")
    assert ">dee</a>" in page_2t.text and ">cid</a>" not in page_2t.text
    rows = list(
        csv.reader(io.StringIO(client.get("/api/v1/ratings.csv?game_format=2T").content.decode()))
    )
    assert rows[0][:4] == ["rank", "player", "slug", "rating"] and len(rows) == 3
    german = client.get(reverse("tournaments:ratings"), HTTP_ACCEPT_LANGUAGE="de")
    assert "Wertungszahlen" in german.text and "Gespielt im Format" in german.text


def test_player_page_has_chart_honours_seats_and_head_to_head(client, season):
    page = client.get(reverse("tournaments:player", args=["ann"]))
    assert page.status_code == 200
    assert "<svg" in page.text and 'class="line"' in page.text and "<polyline" in page.text
    assert "Cup A" in page.text  # a title
    assert reverse("tournaments:head-to-head", args=["ann", "bob"]) in page.text
    german = client.get(reverse("tournaments:player", args=["ann"]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Titel und Medaillen" in german.text and "Direkter Vergleich" in german.text


def test_head_to_head_page_counts_shared_games(client, season):
    response = client.get(reverse("tournaments:head-to-head", args=["ann", "bob"]))
    assert response.status_code == 200
    record = response.context["h2h"].record
    # A: ann won 2 (ahead twice), bob won 1 (bob ahead); B: 3 × ann 2nd ahead of bob 3rd
    assert (record.games, record.won, record.other_won, record.ahead, record.behind) == (
        6,
        2,
        1,
        5,
        1,
    )
    assert client.get(reverse("tournaments:head-to-head", args=["ann", "ann"])).status_code == 404
    german = client.get(
        reverse("tournaments:head-to-head", args=["ann", "bob"]), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert "ann gegen bob" in german.text


def test_prediction_for_a_scheduled_game(client, season):
    fixture = season["c"].fixtures.get(status="scheduled")
    data = client.get(f"/api/v1/fixtures/{fixture.pk}/prediction/").json()
    probabilities = {p["player"]["name"]: p["probability"] for p in data["predictions"]}
    assert abs(sum(probabilities.values()) - 1) < 1e-9
    dee, bob = (
        PlayerRating.objects.get(player__name="dee"),
        PlayerRating.objects.get(player__name="bob"),
    )
    assert (probabilities["dee"] > probabilities["bob"]) == (dee.mu > bob.mu)
    page = client.get(reverse("tournaments:game", args=[fixture.pk]))
    assert "Win probability from the ratings" in page.text
    played = season["c"].fixtures.exclude(status="scheduled").first()
    assert client.get(f"/api/v1/fixtures/{played.pk}/prediction/").json()["predictions"] is None


def test_ratings_appear_next_to_names_in_schedule_and_standings(client, season):
    rating = PlayerRating.objects.get(player__name="ann").display
    schedule = client.get(reverse("tournaments:schedule", args=[season["a"].slug]))
    assert '<span class="rating"' in schedule.text and str(rating) in schedule.text
    standings = client.get(reverse("tournaments:standings", args=[season["a"].slug]))
    assert str(rating) in standings.text


def test_the_api_and_the_csv_exports_tell_look_alike_names_apart(client, season):
    """Issue 34, item 8: where two players' names look alike, the API gives each player's
    label beside the name (nested players too) and the ratings, rankings and standings CSV
    write the label, as the pages do."""
    from tournaments.models import Player

    Player.objects.filter(name="ann").update(name_suffix="@ann_k")
    ann = Player.objects.get(name="ann")
    assert ann.label == "ann (@ann_k)"
    plain = Player.objects.get(name="bob")
    detail = client.get(f"/api/v1/players/{ann.slug}/").json()
    assert (detail["name"], detail["label"]) == ("ann", "ann (@ann_k)")
    assert client.get(f"/api/v1/players/{plain.slug}/").json()["label"] == "bob"
    from tests.builders import make_player

    eds = make_player("ed", created_by=make_user("olga"))
    Player.objects.filter(pk=eds.pk).update(name_suffix="olga")
    german = client.get(f"/api/v1/players/{eds.slug}/", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["label"] == "ed (Spieler von olga)"  # in the request's language
    assert client.get(f"/api/v1/players/{eds.slug}/").json()["label"] == "ed (olga’s player)"
    ranked = {r["player"]["slug"]: r["player"] for r in client.get("/api/v1/rankings/").json()}
    assert ranked[ann.slug] == {"slug": ann.slug, "name": "ann", "label": "ann (@ann_k)"}
    rated = client.get("/api/v1/ratings/").json()["results"]
    assert {r["player"]["label"] for r in rated} == {"ann (@ann_k)", "bob", "cid", "dee"}
    entries = client.get(f"/api/v1/leagues/{season['a'].slug}/entries/").json()
    entries = entries["results"] if isinstance(entries, dict) else entries
    assert "ann (@ann_k)" in {e["player"]["label"] for e in entries}
    standings = client.get(f"/api/v1/leagues/{season['a'].slug}/standings/").json()
    assert "ann (@ann_k)" in str(standings)

    def csv_rows(url):
        return list(csv.reader(io.StringIO(client.get(url).content.decode())))

    rankings = csv_rows("/api/v1/rankings.csv")
    assert rankings[1][:3] == ["1", "ann (@ann_k)", ann.slug]
    ratings = {row[2]: row[1] for row in csv_rows("/api/v1/ratings.csv")[1:]}
    assert ratings[ann.slug] == "ann (@ann_k)" and ratings[plain.slug] == "bob"
    table = csv_rows(f"/api/v1/leagues/{season['a'].slug}/standings.csv")
    assert table[1][1] == "ann (@ann_k)" and "bob" in {row[1] for row in table[1:]}
