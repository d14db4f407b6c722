"""Issue 32: a private result link does not outlive a change of who its player is. Once an
account becomes the account-less player (a claim approved, an invitation of their entry
accepted, staff in the admin), the link is refused with a clear message, and the league's
organizers are told."""

from __future__ import annotations

import pytest
from django.test import Client

from notifications.models import Notification
from tests.builders import example_text, make_user, result_link_world
from tournaments.models import ConfirmedEmail, Invitation, Result, ResultLink
from tournaments.services.entries import claim_create, claim_decide, invitation_accept

LOG = "valid-league-2tplus.json"


@pytest.fixture
def world(db):
    return result_link_world()


def _upload(client, world):
    return client.post(
        f"/r/{world['token']}/games/{world['g1'].pk}/upload/", {"content": example_text(LOG)}
    )


def test_a_claim_revokes_the_link_and_tells_the_organizer(
    world, django_capture_on_commit_callbacks
):
    assert Client().get(f"/r/{world['token']}/").status_code == 200
    lotte = make_user("lotte")
    erin = world["entry"].player
    claim = claim_create(player=erin, by=lotte)
    # an open claim changes nothing yet
    assert Client().get(f"/r/{world['token']}/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        claim_decide(claim=claim, by=world["organizer"], approve=True)
    link = ResultLink.objects.get(pk=world["link"].pk)
    assert link.revoked_at is not None and link.revoked_by == world["organizer"]
    response = Client().get(f"/r/{world['token']}/")
    assert response.status_code == 410
    html = response.content.decode()
    assert "stopped working when the player it was made for got an account" in html
    assert "Log in to report your games" in html
    assert "erin" not in html  # the page names nobody
    assert response["Referrer-Policy"] == "no-referrer"
    assert _upload(Client(), world).status_code == 410
    assert not Result.objects.exists()
    (note,) = Notification.objects.filter(kind="result_link_revoked")
    assert note.user == world["organizer"]
    assert "erin" in note.subject and world["a"].name in note.subject
    assert "lotte" in note.body and f"/leagues/{world['a'].slug}/" in note.url


def test_an_accepted_invitation_of_her_entry_revokes_the_link(
    world, django_capture_on_commit_callbacks
):
    lotte = make_user("lotte")
    ConfirmedEmail.objects.create(user=lotte, email=lotte.email)
    invitation = Invitation.objects.create(
        league=world["a"], entry=world["entry"], email=lotte.email, created_by=world["organizer"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        invitation_accept(invitation=invitation, by=lotte)
    assert Client().get(f"/r/{world['token']}/").status_code == 410
    assert Notification.objects.filter(kind="result_link_revoked").count() == 1


def test_a_refused_claim_leaves_the_link_working(world):
    claim = claim_create(player=world["entry"].player, by=make_user("mallory"))
    claim_decide(claim=claim, by=world["organizer"], approve=False)
    assert Client().get(f"/r/{world['token']}/").status_code == 200
    assert _upload(Client(), world).status_code == 302


def test_a_link_the_organizer_withdrew_is_still_the_plain_404(world):
    from tournaments.services.result_links import result_link_revoke

    result_link_revoke(entry=world["entry"], by=world["organizer"])
    assert Client().get(f"/r/{world['token']}/").status_code == 404
