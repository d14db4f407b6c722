"""The two-person rule: the opponent confirms or disputes; organizers resolve and correct.
Every change is a version; one confirmed version per game."""

import pytest

from tests.builders import example_text
from tournaments.models import Fixture, Result
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.results import (
    forfeit_record,
    game_log_submit,
    result_confirm,
    result_dispute,
    result_enter,
    result_report,
    result_resolve,
    result_void,
)

LOG = "valid-league-2tplus.json"


@pytest.fixture
def pending(table):
    return game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])


def revision(table):
    table["league"].refresh_from_db()
    return table["league"].results_revision


def test_the_opponent_confirms_and_the_result_counts(table, pending):
    assert revision(table) == 0
    result = result_confirm(result=pending, by=table["carol"])
    assert result.state == Result.State.CONFIRMED and result.decided_by == table["carol"]
    assert revision(table) == 1
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.CONFIRMED


def test_the_submitter_cannot_confirm_their_own_result(table, pending):
    with pytest.raises(NotAllowed, match="your opponent must confirm"):
        result_confirm(result=pending, by=table["erin"])
    with pytest.raises(NotAllowed):
        result_confirm(result=pending, by=table["stranger"])
    assert Result.objects.get().state == Result.State.PENDING


def test_confirming_twice_is_harmless(table, pending):
    result_confirm(result=pending, by=table["carol"])
    result_confirm(result=pending, by=table["carol"])
    assert revision(table) == 1


def test_dispute_then_organizer_accepts(table, pending):
    with pytest.raises(ServiceError, match="say what is wrong"):
        result_dispute(result=pending, by=table["carol"], reason=" ")
    disputed = result_dispute(result=pending, by=table["carol"], reason="we played again")
    assert disputed.state == Result.State.DISPUTED
    with pytest.raises(ServiceError, match="disputed; an organizer resolves it"):
        result_confirm(result=pending, by=table["carol"])
    with pytest.raises(NotAllowed):
        result_resolve(result=pending, by=table["carol"], accept=True, note="")
    resolved = result_resolve(result=pending, by=table["organizer"], accept=True, note="log ok")
    assert resolved.state == Result.State.CONFIRMED
    assert revision(table) == 1


def test_dispute_then_organizer_rejects_reopens_the_game(table, pending):
    result_dispute(result=pending, by=table["carol"], reason="wrong game")
    result_resolve(result=pending, by=table["organizer"], accept=False, note="wrong log")
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.SCHEDULED
    assert revision(table) == 0


def test_organizer_corrects_a_result_keeping_every_version(table, pending):
    result_confirm(result=pending, by=table["carol"])
    erin_entry = table["fixture"].seats.get(position=0).entry
    with pytest.raises(ServiceError, match="say why"):
        result_enter(fixture=table["fixture"], by=table["organizer"], winner=erin_entry, reason="")
    corrected = result_enter(
        fixture=table["fixture"],
        by=table["organizer"],
        winner=erin_entry,
        counted_pawns={erin_entry.pk: 8},
        reason="the log was of the wrong game",
    )
    states = list(Result.objects.order_by("created_at").values_list("state", flat=True))
    assert states == [Result.State.SUPERSEDED, Result.State.CONFIRMED]
    assert corrected.winner_id == erin_entry.pk
    assert revision(table) == 2
    result_void(fixture=table["fixture"], by=table["organizer"], reason="replay ordered")
    assert not Result.objects.filter(state=Result.State.CONFIRMED).exists()
    assert revision(table) == 3


def test_hand_reported_result_is_unverified_and_needs_confirmation(table):
    carol_entry = table["fixture"].seats.get(position=1).entry
    with pytest.raises(ServiceError, match="winner's counted pawns must be 8"):
        result_report(
            fixture=table["fixture"],
            by=table["erin"],
            winner=carol_entry,
            counted_pawns={carol_entry.pk: 5},
        )
    report = result_report(fixture=table["fixture"], by=table["erin"], winner=carol_entry)
    assert (report.verified, report.state) == (False, Result.State.PENDING)
    result_confirm(result=report, by=table["carol"])
    assert revision(table) == 1


def test_forfeit_gives_the_game_to_the_other_player(table):
    erin_entry = table["fixture"].seats.get(position=0).entry
    carol_entry = table["fixture"].seats.get(position=1).entry
    with pytest.raises(NotAllowed):
        forfeit_record(fixture=table["fixture"], by=table["carol"], loser=erin_entry, reason="x")
    result = forfeit_record(
        fixture=table["fixture"], by=table["organizer"], loser=erin_entry, reason="no show"
    )
    assert result.winner_id == carol_entry.pk and result.forfeit_loser_id == erin_entry.pk
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.FORFEITED
