"""The admin goes through the services: a mistyped preset or tie-break key, a player added
to a running league, bad preferred colours are refused with a clear message and change
nothing; preferred colours entered there reach the games; results and series are
read-only."""

from __future__ import annotations

import json

import pytest

from tests.builders import make_user
from tournaments.models import Entry, League, Player, Series
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.schedule import cycle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    user = make_user("boss", staff=True)
    user.is_superuser = True
    user.save()
    client.force_login(user)
    return client, user


def league_data(league: League, **changes) -> dict:
    data = {
        "name": league.name,
        "is_public": "on" if league.is_public else "",
        "registration_open": "",
        "confirmation_required": "on",
        "rules_preset": league.rules_preset,
        "rules_overrides": json.dumps(league.rules_overrides),
        "drr_count": str(league.drr_count),
        "playoffs": json.dumps(league.playoffs),
        "precedence": json.dumps(league.precedence),
        "points_scheme": json.dumps(league.points_scheme),
        "organizers": [],
        "add_player": "",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != ""}


def snapshot(league: League) -> tuple:
    league = League.objects.get(pk=league.pk)
    return (
        league.rules_preset,
        league.precedence,
        league.status,
        sorted(Entry.objects.filter(league=league).values_list("player__name", flat=True)),
    )


def change(client, league, **changes):
    return client.post(
        f"/admin/tournaments/league/{league.pk}/change/", league_data(league, **changes)
    )


@pytest.fixture
def league(staff):
    _, user = staff
    return league_create(owner=user, name="Admin League", format="2T+")


def test_a_mistyped_preset_is_refused(staff, league):
    client, _ = staff
    before = snapshot(league)
    response = change(client, league, rules_preset="league-2T+")
    assert response.status_code == 200
    assert "unknown rules preset" in response.content.decode()
    assert snapshot(league) == before


def test_unknown_tie_break_keys_are_refused_listing_the_valid_ones(staff, league):
    client, _ = staff
    before = snapshot(league)
    response = change(client, league, precedence=json.dumps(["won_lost", "pawns"]))
    html = response.content.decode()
    assert "unknown tie-break metric(s) pawns" in html
    assert "counted_pawns_difference" in html  # the valid keys are listed
    assert snapshot(league) == before


def test_a_valid_change_goes_through(staff, league):
    client, _ = staff
    response = change(client, league, precedence=json.dumps(["won_lost", "head_to_head"]))
    assert response.status_code == 302
    assert League.objects.get(pk=league.pk).precedence == ["won_lost", "head_to_head"]


def test_no_player_is_added_to_a_running_league(staff, league):
    client, user = staff
    for name in ("Ann", "Ben"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=user)
    cycle_create(league=league, by=user, seed=1)
    late = player_create(name="Late", shared=True)
    before = snapshot(league)
    response = change(client, league, add_player=str(late.pk))
    assert response.status_code == 200
    assert "entries are closed" in response.content.decode()
    assert snapshot(league) == before


def test_rules_are_fixed_once_scheduled(staff, league):
    client, user = staff
    for name in ("Ann", "Ben"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=user)
    cycle_create(league=league, by=user, seed=1)
    before = snapshot(league)
    response = change(client, league, rules_preset="league")
    assert "the schedule has been generated" in response.content.decode()
    assert snapshot(league) == before


def test_preferred_colours_entered_in_the_admin_reach_the_games(staff, league):
    client, user = staff
    ann = player_create(name="Ann", shared=True)
    entry_add(league=league, player=ann, by=user)
    entry_add(league=league, player=player_create(name="Ben", shared=True), by=user)
    url = f"/admin/tournaments/player/{ann.pk}/change/"
    base = {"name": "Ann", "slug": ann.slug}
    response = client.post(url, {**base, "preferred_colours": json.dumps(["purple", "red"])})
    assert (
        response.status_code == 200
        and "preferred colours are one pair" in response.content.decode()
    )
    assert Player.objects.get(pk=ann.pk).preferred_colours == []
    response = client.post(url, {**base, "preferred_colours": json.dumps(["green", "red"])})
    assert response.status_code == 302
    assert Entry.objects.get(player=ann).preferred_colours == ["green", "red"]
    cycle_create(league=league, by=user, seed=3)
    colours = {tuple(sorted(s.colours)) for s in Entry.objects.get(player=ann).seats.all()}
    assert colours == {("green", "red")}


def test_series_results_and_entries_are_read_only(staff, league):
    client, _ = staff
    for path in ("series", "result", "entry", "cycle"):
        assert client.get(f"/admin/tournaments/{path}/add/").status_code == 403
    assert client.get("/admin/tournaments/league/add/").status_code == 403
    assert not Series.objects.exists()


def test_co_organizers_through_the_service(staff, league):
    client, _ = staff
    helper = make_user("helper")
    response = change(client, league, organizers=[str(helper.pk)])
    assert response.status_code == 302
    assert list(League.objects.get(pk=league.pk).organizers.all()) == [helper]
    # the owner cannot be listed as their own co-organizer: refused, nothing changes
    response = change(client, league, organizers=[str(helper.pk), str(league.owner_id)])
    assert list(League.objects.get(pk=league.pk).organizers.all()) == [helper]
