"""Issue 24: an invited person who has no account follows the mail's link, signs up from the
invitation page and accepts; they play under the name the organizer gave (a new player's
name, or the player created without an account they were invited to become)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Entry, Invitation, Player
from tournaments.services.entries import accountless_player_create, invitation_create
from tournaments.services.leagues import league_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(db):
    return make_user("organizer-olga", email="olga@example.org")


@pytest.fixture
def league(org):
    return league_create(owner=org, name="Spring Cup", format="2T")


def signup_link(page: str) -> str:
    href = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', page).group(1)
    return href.replace("&amp;", "&")


def form_values(page: str) -> dict:
    """The sign-up form's inputs as the browser would send them (prefilled values kept)."""
    values = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and 'type="checkbox"' not in tag:
            values[name.group(1)] = value.group(1) if value else ""
    return values


def test_an_invited_newcomer_signs_up_and_plays_under_the_organizers_name(
    org, league, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation_create(league=league, by=org, email="greta@example.org", name="Greta Grün")
    link = re.search(r"http://\S+", mail.outbox[0].body).group(0)
    path = link.split("localhost:8000", 1)[1]
    greta = Client()
    page = greta.get(path).content.decode()
    signup = signup_link(page)
    form_page = greta.get(signup).content.decode()
    assert "as Greta Grün" in form_page  # the page says which name they will play under
    values = form_values(form_page)
    assert values["player_name"] == "Greta Grün"
    values.update(
        username="greta",
        email="greta@example.org",
        password1="a long enough secret 1",
        password2="a long enough secret 1",
    )
    response = greta.post(signup, values)
    assert response.status_code == 302 and response["Location"] == path
    user = Player.objects.get(name="Greta Grün").user
    assert user.get_username() == "greta"
    # the address is confirmed (the invitation is the address's), then accepted
    greta.post(reverse("tournaments:confirm-email", args=["send"]), {"next": path})
    greta.get(re.search(r"http://\S+", mail.outbox[-1].body).group(0))
    assert greta.post(path).status_code == 302
    entry = league.entries.get()
    assert entry.player.name == "Greta Grün" and entry.state == Entry.State.ACCEPTED
    assert entry.player.user == user


def test_a_blank_player_name_still_keeps_the_invitations_name(org, league):
    from accounts.services import account_signup

    invitation = invitation_create(league=league, by=org, name="Hans Huber")
    user = account_signup(
        username="hans", email="h@example.org", password="x" * 12, invitation=invitation
    )
    assert Player.objects.get(user=user).name == "Hans Huber"
    # a name of their own choosing wins over the organizer's
    other = invitation_create(league=league, by=org, name="Ida Imhof")
    user = account_signup(
        username="ida",
        email="i@example.org",
        password="x" * 12,
        player_name="Ida the Bold",
        invitation=other,
    )
    assert Player.objects.get(user=user).name == "Ida the Bold"


def test_invited_to_become_an_accountless_player_the_signup_makes_no_second_player(org, league):
    rosa = accountless_player_create(league=league, by=org, name="Rosa Rot").player
    invitation = invitation_create(league=league, by=org, player=rosa)
    token_path = reverse("tournaments:invitation", args=[_token(invitation)])
    person = Client()
    page = person.get(token_path).content.decode()
    form_page = person.get(signup_link(page)).content.decode()
    assert "as Rosa Rot" in form_page and 'name="player_name"' not in form_page
    values = form_values(form_page)
    values.update(
        username="rosa",
        email="rosa@example.org",
        password1="a long enough secret 1",
        password2="a long enough secret 1",
    )
    response = person.post(signup_link(page), values)
    assert response.status_code == 302 and response["Location"] == token_path
    assert person.post(token_path).status_code == 302  # a handed-out link: no address
    rosa.refresh_from_db()
    assert rosa.user.get_username() == "rosa"
    assert Player.objects.filter(user=rosa.user).count() == 1
    assert Player.objects.count() == 1


def test_a_used_invitation_in_next_changes_nothing(org, league):
    invitation = invitation_create(league=league, by=org, name="Used Name")
    Invitation.objects.filter(pk=invitation.pk).update(revoked_at="2026-01-01T00:00Z")
    token_path = reverse("tournaments:invitation", args=[_token(invitation)])
    page = Client().get(reverse("signup") + "?next=" + token_path).content.decode()
    assert "Used Name" not in page


def _token(invitation):
    from tournaments.services.entries import invitation_token

    return invitation_token(invitation)


# --- the invitation mail: the site's address, the recipient's language ---------------------


def invite_on_the_site(org, league, captured, **headers):
    c = Client()
    c.force_login(org)
    with captured(execute=True):
        response = c.post(
            reverse("tournaments:manage-invite", args=[league.slug]),
            {"email": "newbie@example.org", "name": "Newbie"},
            **headers,
        )
    assert response.status_code == 302
    return mail.outbox[-1]


def test_the_invitation_mail_links_to_the_configured_site_not_the_requests_host(
    org, league, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://maedn.example.net/"
    settings.ALLOWED_HOSTS = ["internal-host", "testserver"]
    message = invite_on_the_site(
        org, league, django_capture_on_commit_callbacks, HTTP_HOST="internal-host:8301"
    )
    links = re.findall(r"\w+://\S+", message.body)
    assert links and all(
        link.startswith("https://maedn.example.net/invitations/") for link in links
    )
    assert "internal-host" not in message.body
    path = links[0].removeprefix("https://maedn.example.net")
    assert "Newbie" in Client().get(path).content.decode()  # the link works


def test_an_account_holders_invitation_is_in_their_language(
    org, league, django_capture_on_commit_callbacks
):
    from accounts.services import language_set

    language_set(make_user("newbie", email="newbie@example.org"), "de")
    message = invite_on_the_site(org, league, django_capture_on_commit_callbacks)  # English page
    assert message.subject == "Einladung zu Spring Cup"
    assert "lädt dich ein, in Spring Cup zu spielen" in message.body
    assert "Hier annehmen oder ablehnen: http://localhost:8000/invitations/" in message.body


def test_without_an_account_the_organizers_page_language_is_the_mails(
    org, league, django_capture_on_commit_callbacks
):
    german = invite_on_the_site(
        org, league, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert german.subject == "Einladung zu Spring Cup" and "Du spielst als Newbie." in german.body
    Invitation.objects.all().delete()
    english = invite_on_the_site(
        org, league, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.subject == "Invitation to Spring Cup"
    assert "You will play as Newbie." in english.body


def test_an_account_in_english_gets_english_from_a_german_page(
    org, league, django_capture_on_commit_callbacks
):
    from accounts.services import language_set

    language_set(make_user("newbie", email="newbie@example.org"), "en")
    message = invite_on_the_site(
        org, league, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert message.subject == "Invitation to Spring Cup"


def test_outside_a_request_the_site_default(org, league, django_capture_on_commit_callbacks):
    from django.utils import translation

    with translation.override(None), django_capture_on_commit_callbacks(execute=True):
        invitation_create(league=league, by=org, email="x@example.org", name="Xaver")
    assert mail.outbox[-1].subject == "Invitation to Spring Cup"


def test_the_address_confirmation_links_to_the_site_in_the_readers_language(org, settings):
    """The invitation's second mail (confirm the address) also links to SITE_URL, never the
    request's host, and is in the account's language (else the page's)."""
    from accounts.services import language_set

    settings.SITE_URL = "https://maedn.example.net"
    settings.ALLOWED_HOSTS = ["internal-host", "testserver"]
    anna = make_user("anna", email="anna@example.org")
    c = Client()
    c.force_login(anna)
    send = reverse("tournaments:confirm-email", args=["send"])
    c.post(send, HTTP_HOST="internal-host", HTTP_ACCEPT_LANGUAGE="de")
    german = mail.outbox[-1]
    assert german.subject == "Bestätige deine E-Mail-Adresse"
    link = re.search(r"\w+://\S+", german.body).group(0)
    assert link.startswith("https://maedn.example.net/") and "internal-host" not in german.body
    assert c.get(link.removeprefix("https://maedn.example.net")).status_code == 200
    language_set(anna, "en")
    anna.refresh_from_db()
    c.post(send, HTTP_ACCEPT_LANGUAGE="de")
    assert mail.outbox[-1].subject == "Confirm your e-mail address"  # her own choice wins
