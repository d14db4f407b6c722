"""Issue 35: one rule path for results. The public services (``result_report``,
``result_confirm``, ``result_dispute``) lock the game and call the same rule a caller
already holding the lock calls (``*_locked``, the championship table's path), so both
doors refuse and decide alike. tournament.md: "Without a log (over-the-board game) a
player reports the result and the opponent or an organizer confirms it" — a report counts
at once only when an organizer who is not playing the game makes it, whatever the league's
``confirmation_required`` (which is about validated logs)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import translation

from tests.builders import erin_against_carol
from tournaments.models import Entry, Fixture, Result
from tournaments.services.errors import ServiceError
from tournaments.services.hand_results import HandResult, hand_result_fields
from tournaments.services.results import (
    fixture_lock,
    result_confirm,
    result_confirm_locked,
    result_dispute,
    result_dispute_locked,
    result_report,
    result_report_locked,
)


def _entries(table) -> tuple[Entry, Entry]:
    erin = Entry.objects.get(league=table["league"], player__user=table["erin"])
    carol = Entry.objects.get(league=table["league"], player__user=table["carol"])
    return erin, carol


def _typed(table) -> dict:
    erin, carol = _entries(table)
    return {
        "winner": erin,
        "counted_pawns": {erin.pk: 8, carol.pk: 3},
        "completed_colours": {erin.pk: 2, carol.pk: 0},
        "game_time": 1500.0,
    }


def report_public(table, user) -> Result:
    return result_report(fixture=table["fixture"], by=user, **_typed(table))


def report_locked(table, user) -> Result:
    """The championship table's way: one locked read with the versions, then the rule."""
    typed = _typed(table)
    with transaction.atomic():
        fixture = fixture_lock(table["fixture"].pk, user, table=True)
        versions = list(fixture.results.all())
        fixture._prefetched_objects_cache.pop("results", None)
        winner = typed.pop("winner")
        fields = hand_result_fields(fixture, HandResult(winner=winner.pk, **typed))
        return result_report_locked(fixture=fixture, versions=versions, by=user, fields=fields)


def confirm_locked(result: Result, user) -> Result:
    with transaction.atomic():
        fixture = fixture_lock(result.fixture_id, user, table=True)
        versions = list(fixture.results.all())
        fixture._prefetched_objects_cache.pop("results", None)
        current = next(r for r in versions if r.pk == result.pk)
        return result_confirm_locked(result=current, fixture=fixture, versions=versions, by=user)


def dispute_locked(result: Result, user, reason: str) -> Result:
    with transaction.atomic():
        fixture = fixture_lock(result.fixture_id, user, table=True)
        versions = list(fixture.results.all())
        fixture._prefetched_objects_cache.pop("results", None)
        current = next(r for r in versions if r.pk == result.pk)
        return result_dispute_locked(
            result=current, fixture=fixture, versions=versions, by=user, reason=reason
        )


DOORS = {"public": report_public, "locked": report_locked}


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS)
def test_a_report_on_a_cancelled_game_is_refused_with_the_same_code_through_both_doors(door):
    table = erin_against_carol()
    Fixture.objects.filter(pk=table["fixture"].pk).update(status=Fixture.Status.CANCELLED)
    table["fixture"].refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        DOORS[door](table, table["erin"])
    assert refused.value.code == "result_game_cancelled"
    with translation.override("de"):
        assert "abgesagt" in refused.value.localized()
    assert not Result.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("counts_at_once", [False, True])
def test_a_players_report_waits_for_the_opponent_through_both_doors(door, counts_at_once):
    """Even in a league whose validated logs count at once: a typed result is confirmed."""
    table = erin_against_carol(counts_at_once=counts_at_once)
    result = DOORS[door](table, table["erin"])
    assert result.state == Result.State.PENDING and result.decided_by is None
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.SUBMITTED


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS)
def test_an_organizers_report_counts_at_once_through_both_doors(door):
    table = erin_against_carol()
    result = DOORS[door](table, table["organizer"])
    assert result.state == Result.State.CONFIRMED and result.decided_by == table["organizer"]
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.CONFIRMED


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS)
def test_a_second_report_while_one_waits_is_refused_through_both_doors(door):
    table = erin_against_carol()
    report_public(table, table["erin"])
    with pytest.raises(ServiceError, match="awaiting confirmation"):
        DOORS[door](table, table["carol"])
    assert Result.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("confirm", [lambda r, u: result_confirm(result=r, by=u), confirm_locked])
def test_the_opponent_confirms_through_both_doors_and_a_second_confirmation_is_harmless(confirm):
    table = erin_against_carol()
    pending = report_public(table, table["erin"])
    confirmed = confirm(pending, table["carol"])
    assert confirmed.state == Result.State.CONFIRMED and confirmed.decided_by == table["carol"]
    again = confirm(confirmed, table["carol"])
    assert again.pk == confirmed.pk and again.state == Result.State.CONFIRMED
    assert Result.objects.filter(state=Result.State.CONFIRMED).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "dispute", [lambda r, u, why: result_dispute(result=r, by=u, reason=why), dispute_locked]
)
def test_a_dispute_needs_a_reason_through_both_doors(dispute):
    table = erin_against_carol()
    pending = report_public(table, table["erin"])
    with pytest.raises(ServiceError) as refused:
        dispute(pending, table["carol"], "  ")
    assert refused.value.code == "reason_dispute"
    disputed = dispute(pending, table["carol"], "erin had 7 pawns home")
    assert disputed.state == Result.State.DISPUTED
    assert disputed.decision_note == "erin had 7 pawns home"
