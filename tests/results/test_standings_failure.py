"""One bad row never stops a league's standings: the failed recompute keeps the previous
table, records why, the standings page says the table is stale and why, the catch-up does
not retry the same data forever, and the other leagues are unaffected."""

from __future__ import annotations

import pytest
from django.db.models import F
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Fixture, League, Result, StandingsFailure, StandingsSnapshot
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.results import result_enter
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import leagues_with_stale_standings, standings_recompute

pytestmark = pytest.mark.django_db


def league_with_a_result(name: str) -> League:
    owner = make_user(f"owner-{name}")
    league = league_create(owner=owner, name=name, format="2T")
    for i in range(3):
        entry_add(league=league, player=player_create(name=f"{name}-{i}", shared=True), by=owner)
    cycle_create(league=league, by=owner, seed=1)
    fixture = Fixture.objects.filter(league=league).first()
    result_enter(fixture=fixture, by=owner, winner=fixture.seats.first().entry, reason="OTB")
    standings_recompute(league.pk)
    return league


def corrupt(league: League) -> None:
    """A row an older version stored and the code can no longer read."""
    Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED).update(
        counted_pawns={"not-an-entry": 4}
    )
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)


def test_a_bad_row_keeps_the_old_table_and_records_why():
    league = league_with_a_result("broken")
    before = StandingsSnapshot.objects.get(league=league)
    corrupt(league)
    outcome = standings_recompute(league.pk)
    assert outcome["status"] == "failed" and "ValueError" in outcome["error"]
    failure = StandingsFailure.objects.get(league=league)
    assert failure.revision == League.objects.get(pk=league.pk).results_revision
    assert "not-an-entry" in failure.error
    after = StandingsSnapshot.objects.get(league=league)
    assert after.results_revision == before.results_revision and after.rows.count() == 3


def test_the_other_leagues_are_unaffected_and_the_same_data_is_not_retried():
    broken, healthy = league_with_a_result("broken"), league_with_a_result("healthy")
    corrupt(broken)
    League.objects.filter(pk=healthy.pk).update(results_revision=F("results_revision") + 1)
    assert set(leagues_with_stale_standings()) >= {broken.pk, healthy.pk}
    assert standings_recompute(broken.pk)["status"] == "failed"
    assert standings_recompute(healthy.pk)["status"] == "recomputed"
    assert broken.pk not in leagues_with_stale_standings()  # until its results change
    League.objects.filter(pk=broken.pk).update(results_revision=F("results_revision") + 1)
    assert broken.pk in leagues_with_stale_standings()


def test_the_page_says_the_table_is_stale_and_why_until_a_recompute_succeeds(client):
    league = league_with_a_result("shown")
    url = reverse("tournaments:standings", args=[league.slug])
    assert "out of date" not in client.get(url).text
    corrupt(league)
    standings_recompute(league.pk)
    page = client.get(url).text
    assert "This table is out of date." in page
    assert "not-an-entry" not in page  # the raw error is the organizers' (issue 22)
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").text
    assert "Diese Tabelle ist nicht aktuell." in german

    Result.objects.filter(fixture__league=league).update(counted_pawns={})  # repaired
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    assert standings_recompute(league.pk)["status"] == "recomputed"
    assert not StandingsFailure.objects.filter(league=league).exists()
    assert "out of date" not in client.get(url).text


def test_a_database_outage_is_raised_for_the_task_to_retry(monkeypatch):
    from django.db import OperationalError

    from tournaments.services import standings

    league = league_with_a_result("outage")

    def down(league_id):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(standings, "_recompute", down)
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    with pytest.raises(OperationalError):
        standings.standings_recompute(league.pk)
    assert not StandingsFailure.objects.filter(league=league).exists()
    # the claim is let go: the retry recomputes
    assert League.objects.get(pk=league.pk).standings_claimed_until is None


def test_the_organizers_are_told_once():
    from notifications.models import Notification

    league = league_with_a_result("told")
    corrupt(league)
    standings_recompute(league.pk)
    standings_recompute(league.pk)  # the same failure again: no second message
    told = Notification.objects.filter(kind="standings_failed")
    assert [n.user_id for n in told] == [league.owner_id]
    entrants_told = Notification.objects.exclude(user=league.owner).filter(kind="standings_failed")
    assert not entrants_told.exists()
