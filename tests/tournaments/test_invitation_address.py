"""Issue 22, point 4: an invitation mailed to an address is that address's, not the link
holder's. Only an account whose confirmed e-mail address is the invitation's accepts it;
an account with that address unconfirmed confirms it first; a link made to hand out (no
address) stays a bearer link by design."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import ConfirmedEmail, Entry, Invitation, Player
from tournaments.services.entries import invitation_accept, invitation_create, invitation_token
from tournaments.services.errors import NotAllowed
from tournaments.services.leagues import league_create


@pytest.fixture
def org(db):
    return make_user("org")


@pytest.fixture
def league(org):
    return league_create(owner=org, name="Spring", format="2T")


def confirmed(username, email):
    user = make_user(username, email=email)
    ConfirmedEmail.objects.create(user=user, email=email)
    return user


def test_someone_else_holding_the_link_cannot_accept(org, league):
    invitation = invitation_create(league=league, by=org, email="anna@example.org", name="Anna")
    thief = confirmed("thief", "thief@example.org")
    with pytest.raises(NotAllowed, match="sent to another e-mail address"):
        invitation_accept(invitation=invitation, by=thief)
    invitation.refresh_from_db()
    assert invitation.is_open and not Player.objects.filter(user=thief).exists()
    assert not Entry.objects.filter(league=league).exists()


def test_the_address_unconfirmed_is_not_enough(org, league):
    """Anyone can type someone else's address at sign-up; only a confirmed one counts."""
    invitation = invitation_create(league=league, by=org, email="anna@example.org", name="Anna")
    squatter = make_user("squatter", email="anna@example.org")
    with pytest.raises(NotAllowed, match="confirm that address first"):
        invitation_accept(invitation=invitation, by=squatter)
    assert Invitation.objects.get().is_open


def test_the_confirmed_owner_of_the_address_accepts_in_any_case(org, league):
    invitation = invitation_create(league=league, by=org, email="Anna@Example.org", name="Anna")
    anna = confirmed("anna", "anna@example.org")
    entry = invitation_accept(invitation=invitation, by=anna)
    assert entry.state == Entry.State.ACCEPTED and entry.player.user == anna


def test_a_link_to_hand_out_is_a_bearer_link(org, league):
    invitation = invitation_create(league=league, by=org, name="Walk-in")
    anyone = make_user("anyone")
    assert invitation_accept(invitation=invitation, by=anyone).player.user == anyone


def test_the_invitation_page_tells_a_stranger_and_offers_no_button(org, league):
    invitation = invitation_create(league=league, by=org, email="anna@example.org", name="Anna")
    url = reverse("tournaments:invitation", args=[invitation_token(invitation)])
    thief = confirmed("thief", "thief@example.org")
    c = Client()
    c.force_login(thief)
    page = c.get(url).content.decode()
    assert "sent to another e-mail address" in page and "Accept and play" not in page
    assert "Send me the confirmation link" not in page
    response = c.post(url)
    assert response.status_code == 403
    assert Invitation.objects.get().is_open
    german = c.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Diese Einladung ging an eine andere E-Mail-Adresse" in german


def test_the_owner_accepts_with_the_mailed_link_without_a_second_mail(
    org, league, django_capture_on_commit_callbacks
):
    """Issue 34 point 11: the invitation's token was mailed to the address, so it proves the
    mailbox: the account with that address accepts at once (it had to confirm the address
    by a second mail first), and the address counts as confirmed from then on."""
    from tournaments.services.entries import email_confirmed

    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitation_create(league=league, by=org, email="anna@example.org", name="Anna")
    assert "confirmed address anna@example.org" in mail.outbox[0].body
    sent_before = len(mail.outbox)
    url = reverse("tournaments:invitation", args=[invitation_token(invitation)])
    anna = make_user("anna", email="anna@example.org")
    c = Client()
    c.force_login(anna)
    page = c.get(url).content.decode()
    assert "Confirm that address first" not in page
    assert c.post(url).status_code == 302
    assert Player.objects.get(user=anna).name == "Anna"
    assert email_confirmed(anna) and len(mail.outbox) == sent_before  # no second mail
    # the token does not stand in for another address: that is still refused
    other = invitation_create(league=league, by=org, email="bert@example.org", name="Bert")
    eve = make_user("eve", email="eve@example.org")
    c.force_login(eve)
    refused = c.post(reverse("tournaments:invitation", args=[invitation_token(other)]))
    assert refused.status_code in (400, 403)


def test_the_confirmation_send_goes_back_only_to_this_site(org):
    c = Client()
    c.force_login(org)
    sent = c.post(
        reverse("tournaments:confirm-email", args=["send"]), {"next": "https://evil.example/"}
    )
    assert sent["Location"] == reverse("tournaments:my-leagues")


def test_an_address_is_confirmed_for_one_account_only(org):
    from tournaments.services.entries import email_confirm, email_confirmation_token
    from tournaments.services.errors import ServiceError

    confirmed("first", "shared@example.org")
    second = make_user("second", email="Shared@example.org")
    with pytest.raises(ServiceError, match="confirmed for another account already"):
        email_confirm(token=email_confirmation_token(second), by=second)
    assert not ConfirmedEmail.objects.filter(user=second).exists()
