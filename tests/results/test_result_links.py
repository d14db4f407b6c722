"""Private result links (issue 25): the holder of an entry's link acts as that entry's
player in that league's games only, through the same services and permissions."""

import pytest

from tests.builders import (
    example_text,
    make_user,
    result_link_world,
)
from tournaments.actors import LinkHolder
from tournaments.models import Entry, Fixture, League, RejectedSubmission, Result, ResultLink
from tournaments.permissions import CONFIRM, DISPUTE, RESOLVE, SUBMIT, VOID, result_actions
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.result_links import (
    link_for_token,
    result_link_create,
    result_link_revoke,
    result_link_token,
)
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
from tournaments.services.standings import standings_recompute

LOG = "valid-league-2tplus.json"  # erin (black + yellow) against carol (green + red)
BAD = "invalid-house-jump.json"


@pytest.fixture
def world(db):
    world = result_link_world()
    world["erin"] = LinkHolder(link_for_token(world["token"]))
    return world


def test_the_token_is_not_stored_and_finds_its_live_link(world):
    link = ResultLink.objects.get()
    assert world["token"] not in (link.nonce, link.token_hash)
    assert result_link_token(link) == world["token"]
    assert link_for_token(world["token"]) == link
    tampered = world["token"][:-1] + ("A" if world["token"][-1] != "A" else "B")
    for bad in (tampered, world["token"][:-1], world["token"] + "x", "", "../" * 11, None):
        assert link_for_token(bad) is None


def test_a_link_holder_uploads_her_own_game_and_it_counts_as_her_upload(world):
    result = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["erin"])
    assert result.state == Result.State.PENDING
    assert result.submitted_via == world["link"] and result.submitted_by is None
    assert result.game_log.uploaded_by is None
    # the two-person rule holds for her: she cannot confirm it; carol can
    with pytest.raises(NotAllowed, match="your opponent must confirm"):
        result_confirm(result=result, by=world["erin"])
    with pytest.raises(NotAllowed):
        result_dispute(result=result, by=world["erin"], reason="no")
    confirmed = result_confirm(result=result, by=world["carol"])
    assert confirmed.state == Result.State.CONFIRMED and confirmed.decided_by == world["carol"]
    standings_recompute(world["a"].pk)
    snapshot = world["a"].snapshots.get(stage="league")
    erin_row = snapshot.rows.get(entry__player__name="erin")
    assert erin_row.played == 1


def test_a_link_holder_confirms_and_disputes_what_her_opponent_sent(world):
    sent = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["carol"])
    assert result_actions(world["erin"], world["g1"]).allows(CONFIRM)
    disputed = result_dispute(result=sent, by=world["erin"], reason="wrong colours")
    assert disputed.state == Result.State.DISPUTED and disputed.decided_via == world["link"]
    resolved = result_resolve(result=sent, by=world["organizer"], accept=False, note="")
    assert resolved.state == Result.State.REJECTED
    again = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["carol"])
    confirmed = result_confirm(result=again, by=world["erin"])
    assert confirmed.state == Result.State.CONFIRMED
    assert confirmed.decided_via == world["link"] and confirmed.decided_by is None
    world["a"].refresh_from_db()
    assert world["a"].results_revision == 1


def test_without_confirmation_her_upload_counts_at_once(world):
    League.objects.filter(pk=world["a"].pk).update(confirmation_required=False)
    result = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["erin"])
    assert result.state == Result.State.CONFIRMED and result.decided_via == world["link"]


def test_she_cannot_act_on_another_entrys_game(world):
    with pytest.raises(NotAllowed, match="only the players at this game"):
        game_log_submit(fixture=world["g2"], content=example_text(LOG), by=world["erin"])
    assert not Result.objects.exists() and not RejectedSubmission.objects.exists()
    assert not result_actions(world["erin"], world["g2"]).allowed


def test_she_cannot_act_in_another_league_even_with_her_own_player(world):
    with pytest.raises(NotAllowed):
        game_log_submit(fixture=world["b1"], content=example_text(LOG), by=world["erin"])
    sent = game_log_submit(fixture=world["b1"], content=example_text(LOG), by=world["carol"])
    with pytest.raises(NotAllowed):
        result_confirm(result=sent, by=world["erin"])
    with pytest.raises(NotAllowed):
        result_dispute(result=sent, by=world["erin"], reason="no")
    assert Result.objects.get().state == Result.State.PENDING
    assert not result_actions(world["erin"], world["b1"]).allowed


def test_she_has_no_organizer_action(world):
    sent = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["carol"])
    actions = result_actions(world["erin"], world["g1"])
    assert not actions.organizer
    for action in (RESOLVE, VOID):
        assert not actions.allows(action)
    erin_entry = world["link"].entry
    with pytest.raises(NotAllowed):
        result_resolve(result=sent, by=world["erin"], accept=True, note="")
    with pytest.raises(NotAllowed):
        result_enter(fixture=world["g1"], by=world["erin"], winner=erin_entry, reason="x")
    with pytest.raises(NotAllowed):
        result_void(fixture=world["g1"], by=world["erin"], reason="x")
    with pytest.raises(NotAllowed):
        forfeit_record(fixture=world["g1"], by=world["erin"], loser=erin_entry, reason="x")
    with pytest.raises(NotAllowed):  # not even "her own withdrawal": she is no account
        forfeit_record(
            fixture=world["g1"],
            by=world["erin"],
            loser=erin_entry,
            reason="",
            own_withdrawal=True,
        )
    with pytest.raises(NotAllowed):
        result_link_create(entry=erin_entry, by=world["erin"])
    assert Result.objects.get().state == Result.State.PENDING


def test_after_revocation_the_link_is_dead_even_for_a_holder_made_before(world):
    holder = world["erin"]
    result_link_revoke(entry=world["link"].entry, by=world["organizer"])
    assert link_for_token(world["token"]) is None
    with pytest.raises(NotAllowed):
        game_log_submit(fixture=world["g1"], content=example_text(LOG), by=holder)
    assert not Result.objects.exists()


def test_a_revocation_after_the_page_was_opened_is_checked_under_the_lock(world):
    """The holder was made from a live link; the link is withdrawn before she posts."""
    holder = world["erin"]
    ResultLink.objects.filter(pk=world["link"].pk).update(revoked_at="2026-01-01T00:00Z")
    with pytest.raises(NotAllowed, match="withdrawn"):
        game_log_submit(fixture=world["g1"], content=example_text(LOG), by=holder)
    assert not Result.objects.exists()


def test_rotating_makes_a_new_token_and_kills_the_old(world):
    link, token = result_link_create(entry=world["link"].entry, by=world["organizer"])
    assert token != world["token"]
    assert link_for_token(world["token"]) is None and link_for_token(token) == link
    assert ResultLink.objects.filter(revoked_at__isnull=True).count() == 1


def test_a_bad_log_is_refused_with_the_same_error_and_changes_nothing(world):
    with pytest.raises(ServiceError) as through_link:
        game_log_submit(fixture=world["g1"], content=example_text(BAD), by=world["erin"])
    assert not Result.objects.exists()
    rejection = RejectedSubmission.objects.get()
    assert rejection.submitted_via == world["link"] and rejection.submitted_by is None
    with pytest.raises(ServiceError) as by_account:
        game_log_submit(
            fixture=world["g1"],
            content=example_text("invalid-house-jump.json"),
            by=world["carol"],
        )
    assert through_link.value.message == by_account.value.message
    assert Fixture.objects.get(pk=world["g1"].pk).status == Fixture.Status.SCHEDULED
    world["a"].refresh_from_db()
    assert world["a"].results_revision == 0


def test_only_organizers_make_links_and_only_for_players_without_an_account(world):
    carol_entry = Entry.objects.get(league=world["a"], player__name="carol")
    dave_entry = Entry.objects.get(league=world["a"], player__name="dave")
    stranger = make_user("stranger")
    with pytest.raises(NotAllowed):
        result_link_create(entry=dave_entry, by=stranger)
    with pytest.raises(NotAllowed):
        result_link_create(entry=dave_entry, by=world["carol"])  # a player, not an organizer
    with pytest.raises(NotAllowed):
        result_link_revoke(entry=world["link"].entry, by=stranger)
    with pytest.raises(ServiceError, match="has an account"):
        result_link_create(entry=carol_entry, by=world["organizer"])
    staff = make_user("staff", staff=True)
    assert result_link_create(entry=dave_entry, by=staff)[0].created_by == staff
    with pytest.raises(ServiceError, match="no result link"):
        result_link_revoke(entry=carol_entry, by=world["organizer"])


def test_the_submit_permission_is_the_entrys_seat_only(world):
    assert result_actions(world["erin"], world["g1"]).allows(SUBMIT)
    assert result_actions(world["erin"], world["g1"]).seat.entry_id == world["link"].entry_id
    assert not result_actions(world["erin"], world["g1"]).allows(DISPUTE)  # nothing pending


def test_a_hand_report_through_the_link_is_hers_and_waits_for_carol(world):
    erin_entry = world["link"].entry
    result = result_report(fixture=world["g1"], by=world["erin"], winner=erin_entry)
    assert result.submitted_via == world["link"] and result.state == Result.State.PENDING
    with pytest.raises(NotAllowed):
        result_confirm(result=result, by=world["erin"])
    assert result_confirm(result=result, by=world["carol"]).state == Result.State.CONFIRMED


def test_carol_is_asked_to_confirm_what_erin_sent_through_her_link(world):
    from notifications.kinds import event_recipients
    from notifications.models import Kind

    result = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["erin"])
    users, message = event_recipients(Kind.RESULT_AWAITING, result.pk)
    assert users == [world["carol"]]
    assert message.body.startswith("erin submitted the result")
