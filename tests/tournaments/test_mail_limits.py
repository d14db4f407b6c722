"""Issue 22, point 7: the mails anyone can make the platform send (invitations, address
confirmations) are limited per sending account and per recipient address, per hour and
per day, with a clear refusal that sends and saves nothing; a league name (the subject of
its invitations) with a line break is refused where it is typed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.builders import make_user
from tests.pages.test_organizing import league_post
from tournaments.models import Invitation, League, MailSent
from tournaments.services.entries import email_confirmation_send, invitation_create
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import league_create, league_update
from tournaments.services.players import player_create


@pytest.fixture
def org(db):
    return make_user("org")


@pytest.fixture
def league(org):
    return league_create(owner=org, name="Spring", format="2T")


def invite(league, by, email, capture):
    with capture(execute=True):
        return invitation_create(league=league, by=by, email=email)


def test_the_fourth_invitation_to_one_address_in_an_hour_is_refused(
    org, league, django_capture_on_commit_callbacks, settings
):
    settings.MAIL_LIMIT_RECIPIENT_PER_HOUR = 3
    for _ in range(3):
        invite(league, org, "anna@example.org", django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError, match=r"anna@example.org was sent 3 in the last hour") as e:
        invite(league, org, "ANNA@example.org", django_capture_on_commit_callbacks)
    assert e.value.field == "email" and "try again in" in e.value.message
    assert len(mail.outbox) == 3 and Invitation.objects.count() == 3
    assert MailSent.objects.count() == 3
    # another organizer does not get past the address's limit either
    other = make_user("other")
    theirs = league_create(owner=other, name="Autumn", format="2T")
    with pytest.raises(ServiceError, match="limit is 3 per hour"):
        invite(theirs, other, "anna@example.org", django_capture_on_commit_callbacks)


def test_a_sender_is_limited_per_hour_whatever_the_addresses(
    org, league, django_capture_on_commit_callbacks, settings
):
    settings.MAIL_LIMIT_SENDER_PER_HOUR = 5
    for i in range(5):
        invite(league, org, f"p{i}@example.org", django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError, match="your account sent 5 in the last hour"):
        invite(league, org, "p9@example.org", django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 5
    # staff are not limited as senders
    staff = make_user("staffer", staff=True)
    invite(league, staff, "p9@example.org", django_capture_on_commit_callbacks)


def test_the_day_limits_count_the_last_24_hours(org, league, settings):
    settings.MAIL_LIMIT_RECIPIENT_PER_DAY = 4
    settings.MAIL_LIMIT_SENDER_PER_DAY = 6
    hours_ago = timezone.now() - timedelta(hours=5)
    for _ in range(4):
        row = MailSent.objects.create(kind="invitation", sender=org, recipient="bea@example.org")
        MailSent.objects.filter(pk=row.pk).update(sent_at=hours_ago)
    with pytest.raises(ServiceError, match=r"in the last day .*limit is 4 per day"):
        invitation_create(league=league, by=org, email="bea@example.org")
    invitation_create(league=league, by=org, email="cid@example.org")
    old = MailSent.objects.create(kind="invitation", sender=org, recipient="dan@example.org")
    MailSent.objects.filter(pk=old.pk).update(sent_at=timezone.now() - timedelta(hours=25))
    invitation_create(league=league, by=org, email="eve@example.org")  # 6th in the day
    with pytest.raises(ServiceError, match="your account sent 6 in the last day"):
        invitation_create(league=league, by=org, email="fay@example.org")


def test_confirmation_mails_are_limited_too(org, settings):
    settings.MAIL_LIMIT_RECIPIENT_PER_HOUR = 2
    for _ in range(2):
        email_confirmation_send(user=org, link_for=lambda t: f"http://x/{t}")
    with pytest.raises(ServiceError, match="too many mails"):
        email_confirmation_send(user=org, link_for=lambda t: f"http://x/{t}")
    assert len(mail.outbox) == 2


def test_the_page_says_why_and_sends_nothing(
    org, league, django_capture_on_commit_callbacks, settings
):
    settings.MAIL_LIMIT_RECIPIENT_PER_HOUR = 1
    c = Client()
    c.force_login(org)
    url = reverse("tournaments:manage-invite", args=[league.slug])
    with django_capture_on_commit_callbacks(execute=True):
        assert c.post(url, {"email": "anna@example.org"}).status_code == 302
        refused = c.post(url, {"email": "anna@example.org"})
    assert refused.status_code == 400
    assert "too many mails" in refused.content.decode()
    assert len(mail.outbox) == 1 and Invitation.objects.count() == 1
    # the confirmation page says so too, and sends nothing
    confirm = reverse("tournaments:confirm-email", args=["send"])
    MailSent.objects.create(kind="confirmation", sender=org, recipient=org.email)
    response = c.post(confirm, follow=True)
    assert "too many mails" in response.content.decode()
    assert len(mail.outbox) == 1


# --- header-bound text ------------------------------------------------------------------

BAD_NAMES = ["Spring\r\nBcc: all@example.org", "Spring\nCup", "Spring\rCup", "Spring\x00"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_league_name_with_a_line_break_is_refused(org, name):
    with pytest.raises(ServiceError, match="one line without line breaks") as e:
        league_create(owner=org, name=name, format="2T")
    assert e.value.field == "name"
    assert not League.objects.exists()


def test_renaming_a_league_to_two_lines_is_refused(org, league):
    with pytest.raises(ServiceError, match="one line"):
        league_update(league=league, by=org, name="Spring\r\nBcc: x")
    league.refresh_from_db()
    assert league.name == "Spring"


def test_the_create_page_and_the_api_refuse_it_with_the_reason(org):
    c = Client()
    c.force_login(org)
    page = c.post(reverse("tournaments:league-create"), league_post(name="Spring\nCup"))
    assert page.status_code == 400
    assert "line breaks" in page.content.decode()
    api = APIClient()
    api.force_authenticate(org)
    response = api.post("/api/v1/leagues/", {"name": "Spring\r\nCup", "format": "2T"}, "json")
    assert response.status_code == 400
    assert "line breaks" in response.json()["error"]["message"]
    assert not League.objects.exists()


def test_player_and_invitation_names_are_one_line_too(org, league):
    with pytest.raises(ServiceError, match="one line"):
        player_create(name="Anna\nBen", created_by=org)
    with pytest.raises(ServiceError, match="one line"):
        invitation_create(league=league, by=org, name="Anna\r\nBen")
    assert not Invitation.objects.exists()


def test_a_bad_address_is_refused_by_the_service(org, league):
    with pytest.raises(ServiceError, match="not an e-mail address"):
        invitation_create(league=league, by=org, email="anna@example.org\r\nBcc: x@y.org")
    assert not Invitation.objects.exists() and not MailSent.objects.exists()


def test_a_failing_mail_server_is_logged_not_a_500(
    org, league, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr("tournaments.services.entries.send_mail", broken)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitation_create(league=league, by=org, email="anna@example.org")
    assert Invitation.objects.get() == invitation
    assert "the mail of invitation" in caplog.text and "connection refused" in caplog.text


def test_two_senders_racing_for_an_addresss_last_mail_get_one(transactional_db, settings):
    """Real concurrent connections: the address's advisory lock lets one through."""
    from tests.concurrently import run_concurrently

    settings.MAIL_LIMIT_RECIPIENT_PER_HOUR = 1
    a, b = make_user("a"), make_user("b")
    leagues = [league_create(owner=u, name=f"L-{u.username}", format="2T") for u in (a, b)]
    outcomes = run_concurrently(
        *[
            (lambda u=u, lg=lg: invitation_create(league=lg, by=u, email="anna@example.org"))
            for u, lg in zip((a, b), leagues, strict=True)
        ]
    )
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == 1 and "too many mails" in refused[0].message
    assert Invitation.objects.count() == 1 and MailSent.objects.count() == 1


def test_rows_older_than_a_day_are_dropped_when_the_next_mail_is_counted(org, league):
    old = MailSent.objects.create(kind="invitation", sender=org, recipient="anna@example.org")
    MailSent.objects.filter(pk=old.pk).update(sent_at=timezone.now() - timedelta(days=2))
    invitation_create(league=league, by=org, email="anna@example.org")
    assert list(MailSent.objects.values_list("recipient", flat=True)) == ["anna@example.org"]
    assert not MailSent.objects.filter(pk=old.pk).exists()
