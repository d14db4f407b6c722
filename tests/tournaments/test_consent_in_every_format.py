"""Consent and identity in every format (review findings): a Grand Prix or an open round
never seats a player who has not accepted, and only whoever created a player without an
account (or staff) may hand that player's record to an account."""

from __future__ import annotations

import pytest

from tests.builders import make_user
from tournaments.models import Entry, PlayerClaim
from tournaments.services.entries import (
    claim_create,
    claim_decide,
    entry_accept,
    invitation_accept,
    invitation_create,
    join_request,
)
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.events import event_schedule
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.players import player_create, player_set_shared

pytestmark = pytest.mark.django_db


def test_a_grand_prix_is_not_scheduled_while_an_invitation_is_unanswered():
    organizer = make_user("organizer")
    bob_user = make_user("bob_user")
    league = league_create(
        owner=organizer, name="GP", format="GP", board=6, event_kind="grand-prix", games_planned=2
    )
    for name in ("Ann", "Ben"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    bob = entry_add(league=league, player=player_create(name="Bob", user=bob_user), by=organizer)
    assert bob.state == Entry.State.INVITED
    with pytest.raises(ServiceError, match="Bob has not accepted"):
        event_schedule(league=league, by=organizer, seed=1)
    assert not league.fixtures.exists()
    entry_accept(entry=bob, by=bob_user)
    event_schedule(league=league, by=organizer, seed=1)
    seated = {s.entry.player.name for f in league.fixtures.all() for s in f.seats.all()}
    assert seated == {"Ann", "Ben", "Bob"}


def test_an_open_round_draws_no_one_whose_request_waits_for_an_organizer():
    organizer = make_user("organizer")
    league = league_create(
        owner=organizer,
        name="Club night",
        format="open",
        games_planned=2,
        time_limit_minutes=40,
        registration_open=True,
    )
    for i in range(6):
        entry_add(league=league, player=player_create(name=f"P{i}", shared=True), by=organizer)
    newcomer = make_user("newcomer")
    player_create(name="Newcomer", user=newcomer)
    asking = join_request(league=league, by=newcomer)
    assert asking.state == Entry.State.REQUESTED
    open_round_draw(league=league, by=organizer, seed=3)
    seated = [s.entry_id for f in league.fixtures.all() for s in f.seats.all()]
    assert len(seated) == 6 and asking.pk not in seated


def _players_of_two_organizers():
    alice_maker, mallory = make_user("alice_maker"), make_user("mallory")
    alice = player_create(name="Alice", created_by=alice_maker)
    malloryleague = league_create(owner=mallory, name="Mallory's league", format="2T")
    player_set_shared(player=alice, by=alice_maker, shared=True)
    entry_add(league=malloryleague, player=alice, by=mallory)  # shared: entering is allowed
    return alice_maker, mallory, alice, malloryleague


def test_another_organizer_cannot_invite_an_account_to_become_a_player_they_did_not_create():
    _maker, mallory, alice, league = _players_of_two_organizers()
    with pytest.raises(NotAllowed, match="created by another organizer"):
        invitation_create(league=league, by=mallory, player=alice)
    alice.refresh_from_db()
    assert alice.user_id is None


def test_only_the_creator_or_staff_decides_a_claim():
    maker, mallory, alice, _league = _players_of_two_organizers()
    claim = claim_create(player=alice, by=make_user("sock_puppet"))
    with pytest.raises(NotAllowed, match="only the organizer who created Alice"):
        claim_decide(claim=claim, by=mallory, approve=True)
    claim.refresh_from_db()
    alice.refresh_from_db()
    assert claim.state == PlayerClaim.State.OPEN and alice.user_id is None
    claim_decide(claim=claim, by=maker, approve=False)
    real = claim_create(player=alice, by=make_user("alice"))
    claim_decide(claim=real, by=make_user("staff", staff=True), approve=True)
    alice.refresh_from_db()
    assert alice.user.get_username() == "alice"


def test_the_creator_still_invites_someone_to_become_their_player():
    maker, _mallory, alice, _ = _players_of_two_organizers()
    league = league_create(owner=maker, name="Maker's league", format="2T")
    invitation = invitation_create(league=league, by=maker, player=alice)
    entry = invitation_accept(invitation=invitation, by=make_user("alice"))
    alice.refresh_from_db()
    assert entry.player == alice and alice.user.get_username() == "alice"
