"""The permission matrix of the results desk's pages and actions, role by role: the desk,
entering or correcting a result by hand, voiding, forfeiting, resolving from the desk,
running a failed move analysis again, and a player's report without a log. A refused
request changes nothing."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from tests.api.conftest import ROLES
from tests.builders import example_text, make_fixture, make_league, make_player, make_user
from tests.matrix import built_once
from tournaments.models import Entry, Result
from tournaments.services.results import (
    game_log_submit,
    result_dispute,
    result_enter,
    result_report,
)

ORGANIZERS = {"co_organizer", "organizer", "staff"}
AT_BOARD = {"player", "opponent"}


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):
    """The world below, written once for the module (``tests/matrix.py: built_once``)."""
    yield from built_once(django_db_blocker, _build_world)


@pytest.fixture
def world(module_world, db):
    """This case's own copy of the module's world; its writes are rolled back with its
    savepoint."""
    return copy.deepcopy(module_world)


def _build_world():
    users = {"anonymous": None}
    for role in ROLES[1:]:
        users[role] = make_user(role, staff=role == "staff")
    league = make_league(users["organizer"], "desk-league")
    league.organizers.add(users["co_organizer"])
    make_league(users["other_organizer"], "other-league")
    entries = {
        name: Entry.objects.create(league=league, player=make_player(name, users[role]))
        for name, role in (("erin", "player"), ("carol", "opponent"), ("dave", "entrant"))
    }
    fixture = make_fixture(
        league,
        [(entries["erin"], ["black", "yellow"]), (entries["carol"], ["green", "red"])],
        "black",
        label="G1",
    )
    return users, league, fixture, entries


def client_for(client, users, role):
    if users[role] is not None:
        client.force_login(users[role])
    return client


def expected(role: str, allowed: set[str]) -> int:
    if role == "anonymous":
        return 302
    return 302 if role in allowed else 403


@pytest.mark.parametrize("role", ROLES)
def test_the_desk_is_for_the_leagues_organizers(client, world, role):
    users, league, _, _ = world
    response = client_for(client, users, role).get(reverse("tournaments:desk", args=[league.slug]))
    if role == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == (200 if role in ORGANIZERS else 403)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_organizers_see_the_enter_form(client, world, role):
    users, _, fixture, _ = world
    response = client_for(client, users, role).get(
        reverse("tournaments:game-enter", args=[fixture.pk])
    )
    assert response.status_code == (200 if role in ORGANIZERS else expected(role, set()))


@pytest.mark.parametrize("role", ROLES)
def test_entering_a_result_by_hand(client, world, role):
    users, _, fixture, entries = world
    response = client_for(client, users, role).post(
        reverse("tournaments:game-enter", args=[fixture.pk]),
        {"winner": entries["erin"].pk, "counted_erin": "", "reason": "score sheet"},
    )
    assert response.status_code == expected(role, ORGANIZERS)
    counted = Result.objects.filter(fixture=fixture, state="confirmed")
    assert counted.exists() == (role in ORGANIZERS)


@pytest.mark.parametrize("role", ROLES)
def test_voiding_a_result(client, world, role):
    users, _, fixture, entries = world
    result_enter(fixture=fixture, by=users["organizer"], winner=entries["erin"], reason="x")
    response = client_for(client, users, role).post(
        reverse("tournaments:game-void", args=[fixture.pk]), {"reason": "wrong game"}
    )
    assert response.status_code == expected(role, ORGANIZERS)
    assert Result.objects.filter(fixture=fixture, state="voided").exists() == (role in ORGANIZERS)


@pytest.mark.parametrize("role", ROLES)
def test_recording_a_forfeit(client, world, role):
    users, _, fixture, entries = world
    response = client_for(client, users, role).post(
        reverse("tournaments:game-forfeit", args=[fixture.pk]),
        {"loser": entries["carol"].pk, "reason": "did not show up"},
    )
    assert response.status_code == expected(role, ORGANIZERS)
    forfeits = Result.objects.filter(fixture=fixture, source="forfeit", state="confirmed")
    assert forfeits.exists() == (role in ORGANIZERS)


@pytest.mark.parametrize("role", ROLES)
def test_resolving_a_dispute_from_the_desk(client, world, role):
    users, league, fixture, entries = world
    pending = result_report(fixture=fixture, by=users["player"], winner=entries["erin"])
    result_dispute(result=pending, by=users["opponent"], reason="I won")
    desk = reverse("tournaments:desk", args=[league.slug])
    response = client_for(client, users, role).post(
        reverse("tournaments:result-resolve", args=[fixture.pk, pending.pk]),
        {"accept": "0", "note": "replay the game", "next": desk},
    )
    pending.refresh_from_db()
    if role in ORGANIZERS:
        assert response.status_code == 302 and response["Location"] == desk
        assert pending.state == "rejected"
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert pending.state == "disputed"


@pytest.mark.parametrize("role", ROLES)
def test_reporting_a_game_without_a_log(client, world, role):
    users, _, fixture, entries = world
    response = client_for(client, users, role).post(
        reverse("tournaments:game-report", args=[fixture.pk]),
        {
            "winner": entries["carol"].pk,
            f"counted_{entries['erin'].pk}": "5",
            f"completed_{entries['erin'].pk}": "1",
            "game_time": "41:30",
            "reason": "",
        },
    )
    allowed = AT_BOARD | ORGANIZERS
    assert response.status_code == expected(role, allowed)
    result = Result.objects.filter(fixture=fixture).first()
    assert (result is not None) == (role in allowed)
    if result is not None:
        assert result.game_time == 41 * 60 + 30
        assert result.completed_colours[str(entries["erin"].pk)] == 1
        assert result.state == ("pending" if role in AT_BOARD else "confirmed")


@pytest.mark.parametrize("role", ROLES)
def test_running_a_failed_analysis_again(client, world, role, settings):
    from games.analysis import analysis_request
    from games.models import GameAnalysis

    settings.ANALYSIS_ENABLED = False
    users, _, fixture, _ = world
    counted = game_log_submit(
        fixture=fixture, content=example_text("valid-league-2tplus.json"), by=users["organizer"]
    )
    row, _ = analysis_request(counted.game_log)
    GameAnalysis.objects.filter(pk=row.pk).update(status="failed", error="ValueError: bad")
    settings.ANALYSIS_ENABLED = True
    response = client_for(client, users, role).post(
        reverse("tournaments:game-analysis-retry", args=[fixture.pk])
    )
    assert response.status_code == expected(role, ORGANIZERS)
    row.refresh_from_db()
    assert row.status == ("queued" if role in ORGANIZERS else "failed")
