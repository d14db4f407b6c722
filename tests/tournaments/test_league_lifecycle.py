"""League life cycle: registration, status transitions, withdrawal with forfeits."""

import pytest

from tests.builders import make_user
from tournaments.models import Fixture, League, Result
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import (
    entry_add,
    entry_remove,
    entry_withdraw,
    league_add_organizer,
    league_create,
    league_set_status,
)
from tournaments.services.players import player_create
from tournaments.services.results import result_enter
from tournaments.services.schedule import cycle_create


@pytest.fixture
def organizer(db):
    return make_user("owner")


def test_status_moves_forward_only_through_allowed_steps(organizer):
    league = league_create(owner=organizer, name="L", format="2T")
    assert league.status == League.Status.DRAFT
    league = league_set_status(league=league, status="registration", by=organizer)
    with pytest.raises(ServiceError, match="cannot become finished"):
        league_set_status(league=league, status="finished", by=organizer)
    with pytest.raises(NotAllowed):
        league_set_status(league=league, status="running", by=make_user())
    assert League.objects.get(pk=league.pk).status == "registration"


def test_co_organizers_may_organize(organizer):
    league = league_create(owner=organizer, name="L", format="2T")
    helper = make_user("co")
    league_add_organizer(league=league, user=helper, by=organizer)
    entry_add(league=league, player=player_create(name="A", shared=True), by=helper)
    assert league.entries.count() == 1


def test_entries_close_once_the_schedule_exists(organizer):
    league = league_create(owner=organizer, name="L", format="2T")
    a = entry_add(league=league, player=player_create(name="A", shared=True), by=organizer)
    entry_add(league=league, player=player_create(name="B", shared=True), by=organizer)
    cycle_create(league=league, by=organizer, seed=1)
    with pytest.raises(ServiceError, match="entries are closed"):
        entry_add(league=league, player=player_create(name="C", shared=True), by=organizer)
    with pytest.raises(ServiceError, match="withdraw them instead"):
        entry_remove(entry=a, by=organizer)


def test_withdrawal_forfeits_the_remaining_games_only(organizer):
    league = league_create(owner=organizer, name="L", format="2T")
    entries = [
        entry_add(league=league, player=player_create(name=n, shared=True), by=organizer)
        for n in "ABC"
    ]
    cycle_create(league=league, by=organizer, seed=9)
    quitter = entries[0]
    played = Fixture.objects.filter(league=league, seats__entry=quitter).first()
    result_enter(fixture=played, by=organizer, winner=quitter, reason="OTB")
    forfeited = entry_withdraw(entry=quitter, by=organizer, reason="moved away")
    assert forfeited == 3  # four games with A in a three-player DRR, one already played
    assert Result.objects.filter(source="forfeit", forfeit_loser=quitter).count() == 3
    assert Result.objects.get(fixture=played, state="confirmed").winner == quitter
    with pytest.raises(ServiceError, match="already withdrawn"):
        entry_withdraw(entry=quitter, by=organizer)


def test_nobody_withdraws_from_a_finished_league(organizer):
    league = league_create(owner=organizer, name="L", format="2T")
    a = entry_add(league=league, player=player_create(name="A", shared=True), by=organizer)
    entry_add(league=league, player=player_create(name="B", shared=True), by=organizer)
    League.objects.filter(pk=league.pk).update(status=League.Status.FINISHED)
    a.refresh_from_db()
    with pytest.raises(ServiceError, match="has finished; its results stand"):
        entry_withdraw(entry=a, by=organizer)
    a.refresh_from_db()
    assert a.withdrawn_at is None
